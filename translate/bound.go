package translate

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// bound is a bound scalar expression: the engine expression and its
// PostgreSQL type. Untyped literals ('abc' and NULL) stay unresolved until
// their context gives them a type (coerce).
type bound struct {
	e     expr.Expr
	t     pgType
	lit   *string // an untyped string literal: type unknown
	null  bool    // an untyped NULL
	param int     // the $n this untyped value came from, 0 if none
	loc   int32   // byte offset of a string literal, for errors in its conversion
	// name is the column name PostgreSQL gives the expression in a target
	// list; "" means "?column?". strong is true when it comes from a column
	// or function name (a cast keeps a strong inner name).
	name   string
	strong bool
}

// unknown reports whether b is an untyped literal.
func (b bound) unknown() bool { return b.lit != nil || b.null }

// arrowType is the type the function catalogue sees: arrow.Null for an
// untyped literal.
func (b bound) arrowType() arrow.DataType {
	if b.unknown() {
		return arrow.Null
	}
	return b.e.Type()
}

// coerce returns b's expression as type t: untyped literals become
// constants of t, other expressions get a Cast when their type differs.
func coerce(b bound, t arrow.DataType) expr.Expr {
	switch {
	case b.null:
		return &expr.Lit{V: nil, T: t}
	case b.lit != nil:
		if arrow.TypeEqual(t, expr.Text) {
			return &expr.Lit{V: *b.lit, T: expr.Text}
		}
		return &expr.Cast{Arg: &expr.Lit{V: *b.lit, T: expr.Text}, T: t}
	case arrow.TypeEqual(b.e.Type(), t):
		return b.e
	}
	return &expr.Cast{Arg: b.e, T: t}
}

// pgTypeOfArrow is the PostgreSQL type of a computed value of Arrow type t
// (results of functions and operators).
func pgTypeOfArrow(t arrow.DataType) pgType {
	if expr.IsNumericType(t) {
		return tNumeric
	}
	switch t := t.(type) {
	case *arrow.BooleanType:
		return tBool
	case *arrow.Int16Type:
		return tInt2
	case *arrow.Int32Type:
		return tInt4
	case *arrow.Int64Type:
		return tInt8
	case *arrow.Float32Type:
		return tFloat4
	case *arrow.Float64Type:
		return tFloat8
	case *arrow.Decimal128Type:
		return tNumeric
	case *arrow.StringType, *arrow.LargeStringType:
		return tText
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return tBytea
	case *arrow.FixedSizeBinaryType:
		if t.ByteWidth == 16 {
			return tUUID
		}
		return tBytea
	case *arrow.Date32Type:
		return tDate
	case *arrow.Time64Type:
		return tTime
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return tTimestamptz
		}
		return tTimestamp
	case *arrow.MonthDayNanoIntervalType:
		return tInterval
	case *arrow.ListType:
		if arr := pgtypes.ArrayOf(pgTypeOfArrow(t.Elem()).OID); arr != 0 {
			return pgType{arr, -1}
		}
		return tJSONB
	case *arrow.DictionaryType:
		return pgTypeOfArrow(t.ValueType)
	}
	return tJSONB
}

// unconstrainedNumeric is the Arrow type of numeric without typmod whose
// scale varies per value.
func unconstrainedNumeric() arrow.DataType { return expr.NumericType() }
