package bind

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// Bound is a bound scalar expression: the engine expression and its
// PostgreSQL type. Untyped literals ('abc' and NULL) stay unresolved until
// their context gives them a type (coerce).
type Bound struct {
	E     expr.Expr
	T     plan.Type
	lit   *string // an untyped string literal: type unknown
	null  bool    // an untyped NULL
	param int     // the $n this value came from, 0 if none
	loc   int32   // byte offset of a string literal, for errors in its conversion
	// Name is the column name PostgreSQL gives the expression in a target
	// list; "" means "?column?". strong is true when it comes from a column
	// or function name (a cast keeps a strong inner name).
	Name   string
	strong bool
	// enum is the enum type ("schema.name") of a value of one (a text
	// label that sorts and compares in the type's order: enum.go).
	enum string
}

// Unknown reports whether b is an untyped literal (string or NULL).
func (b Bound) Unknown() bool { return b.lit != nil || b.null }

// IsNull reports whether b is an untyped NULL.
func (b Bound) IsNull() bool { return b.null }

// arrowType is the type the function catalogue sees: arrow.Null for an
// untyped literal.
func (b Bound) arrowType() arrow.DataType {
	if b.Unknown() {
		return arrow.Null
	}
	return b.E.Type()
}

// coerce returns b's expression as type t: untyped literals become
// constants of t, other expressions get a Cast when their type differs.
func coerce(b Bound, t arrow.DataType) expr.Expr {
	switch {
	case b.null:
		return &expr.Lit{V: nil, T: t}
	case b.lit != nil:
		if arrow.TypeEqual(t, expr.Text) {
			return &expr.Lit{V: *b.lit, T: expr.Text}
		}
		return &expr.Cast{Arg: &expr.Lit{V: *b.lit, T: expr.Text}, T: t}
	case arrow.TypeEqual(b.E.Type(), t):
		return b.E
	}
	return &expr.Cast{Arg: b.E, T: t}
}

// pgTypeOfArrow is the PostgreSQL type of a computed value of Arrow type t
// (results of functions and operators).
func pgTypeOfArrow(t arrow.DataType) plan.Type {
	if expr.IsNumericType(t) {
		return plan.TNumeric
	}
	switch t := t.(type) {
	case *arrow.BooleanType:
		return plan.TBool
	case *arrow.Int16Type:
		return plan.TInt2
	case *arrow.Int32Type:
		return plan.TInt4
	case *arrow.Int64Type:
		return plan.TInt8
	case *arrow.Float32Type:
		return plan.TFloat4
	case *arrow.Float64Type:
		return plan.TFloat8
	case *arrow.Decimal128Type:
		return plan.TNumeric
	case *arrow.StringType, *arrow.LargeStringType:
		return plan.TText
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return plan.TBytea
	case *arrow.FixedSizeBinaryType:
		if t.ByteWidth == 16 {
			return plan.TUUID
		}
		return plan.TBytea
	case *arrow.Date32Type:
		return plan.TDate
	case *arrow.Time64Type:
		return plan.TTime
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return plan.TTimestamptz
		}
		return plan.TTimestamp
	case *arrow.MonthDayNanoIntervalType:
		return plan.TInterval
	case *arrow.ListType:
		if expr.IsMultiDimList(t) {
			// An array of several dimensions: the array type of its
			// elements.
			_, leaf := expr.ArrayLeaf(t)
			if arr := pgtypes.ArrayOf(pgTypeOfArrow(leaf).OID); arr != 0 {
				return plan.Type{OID: arr, Typmod: -1}
			}
		}
		if arr := pgtypes.ArrayOf(pgTypeOfArrow(t.Elem()).OID); arr != 0 {
			return plan.Type{OID: arr, Typmod: -1}
		}
		return plan.TJSONB
	case *arrow.DictionaryType:
		return pgTypeOfArrow(t.ValueType)
	}
	return plan.TJSONB
}

// unconstrainedNumeric is the Arrow type of numeric without typmod whose
// scale varies per value.
func unconstrainedNumeric() arrow.DataType { return expr.NumericType() }
