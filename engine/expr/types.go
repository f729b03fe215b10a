package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgnumeric"
)

// The Arrow types of PostgreSQL's scalar types, as the engine uses them.
var (
	Bool        arrow.DataType = arrow.FixedWidthTypes.Boolean
	Int2        arrow.DataType = arrow.PrimitiveTypes.Int16
	Int4        arrow.DataType = arrow.PrimitiveTypes.Int32
	Int8        arrow.DataType = arrow.PrimitiveTypes.Int64
	Float4      arrow.DataType = arrow.PrimitiveTypes.Float32
	Float8      arrow.DataType = arrow.PrimitiveTypes.Float64
	Text        arrow.DataType = arrow.BinaryTypes.String
	Bytea       arrow.DataType = arrow.BinaryTypes.Binary
	UUID        arrow.DataType = &arrow.FixedSizeBinaryType{ByteWidth: 16}
	Date        arrow.DataType = arrow.FixedWidthTypes.Date32
	Time        arrow.DataType = arrow.FixedWidthTypes.Time64us
	Timestamp   arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond}
	Timestamptz arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	Interval    arrow.DataType = arrow.FixedWidthTypes.MonthDayNanoInterval
)

// kind is the engine's classification of an Arrow type, the unit kernels
// are chosen by.
type kind int

const (
	kInvalid kind = iota
	kBool
	kInt2
	kInt4
	kInt8
	kFloat4
	kFloat8
	kDecimal // Decimal128(P,S): fixed scale per column
	kNumeric // NumericType: scale per value
	kText
	kBytea
	kFixed // FixedSizeBinary (uuid, fixed(L))
	kDate
	kTime
	kTimestamp
	kTimestamptz
	kNull     // arrow.Null: an untyped NULL
	kInterval // MonthDayNanoInterval: months, days, nanoseconds (µs precision)
)

func kindOf(t arrow.DataType) kind {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return kBool
	case *arrow.Int16Type:
		return kInt2
	case *arrow.Int32Type:
		return kInt4
	case *arrow.Int64Type:
		return kInt8
	case *arrow.Float32Type:
		return kFloat4
	case *arrow.Float64Type:
		return kFloat8
	case *arrow.Decimal128Type:
		return kDecimal
	case *pgnumeric.DataType:
		return kNumeric
	case *arrow.StringType:
		return kText
	case *arrow.BinaryType:
		return kBytea
	case *arrow.FixedSizeBinaryType:
		return kFixed
	case *arrow.Date32Type:
		return kDate
	case *arrow.Time64Type:
		if t.Unit == arrow.Microsecond {
			return kTime
		}
	case *arrow.TimestampType:
		if t.Unit != arrow.Microsecond {
			return kInvalid
		}
		if t.TimeZone == "" {
			return kTimestamp
		}
		return kTimestamptz
	case *arrow.NullType:
		return kNull
	case *arrow.MonthDayNanoIntervalType:
		return kInterval
	case *arrow.DictionaryType:
		return kindOf(t.ValueType)
	}
	return kInvalid
}

func (k kind) isInt() bool     { return k == kInt2 || k == kInt4 || k == kInt8 }
func (k kind) isFloat() bool   { return k == kFloat4 || k == kFloat8 }
func (k kind) isDecimal() bool { return k == kDecimal || k == kNumeric }
func (k kind) isNumber() bool  { return k.isInt() || k.isFloat() || k.isDecimal() }

// PGTypeName is the PostgreSQL name of the type an Arrow type stands for,
// as PostgreSQL spells it in messages ("integer", "timestamp without time
// zone", "numeric").
func PGTypeName(t arrow.DataType) string {
	switch kindOf(t) {
	case kBool:
		return "boolean"
	case kInt2:
		return "smallint"
	case kInt4:
		return "integer"
	case kInt8:
		return "bigint"
	case kFloat4:
		return "real"
	case kFloat8:
		return "double precision"
	case kDecimal, kNumeric:
		return "numeric"
	case kText:
		return "text"
	case kBytea:
		return "bytea"
	case kFixed:
		if t.(*arrow.FixedSizeBinaryType).ByteWidth == 16 {
			return "uuid"
		}
		return "bytea"
	case kDate:
		return "date"
	case kTime:
		return "time without time zone"
	case kTimestamp:
		return "timestamp without time zone"
	case kTimestamptz:
		return "timestamp with time zone"
	case kNull:
		return "unknown"
	case kInterval:
		return "interval"
	}
	return fmt.Sprint(t)
}
