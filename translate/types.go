package translate

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// pgTypeOfIceberg maps an Iceberg type to its PostgreSQL type (DESIGN.md
// section 3).
func pgTypeOfIceberg(t catalog.Type) plan.Type {
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		switch t.ID {
		case catalog.TBoolean:
			return plan.TBool
		case catalog.TInt:
			return plan.TInt4
		case catalog.TLong:
			return plan.TInt8
		case catalog.TFloat:
			return plan.TFloat4
		case catalog.TDouble:
			return plan.TFloat8
		case catalog.TDecimal:
			return plan.NumericType(t.Precision, t.Scale)
		case catalog.TDate:
			return plan.TDate
		case catalog.TTime:
			return plan.TTime
		case catalog.TTimestamp, catalog.TTimestampNs:
			return plan.TTimestamp
		case catalog.TTimestamptz, catalog.TTimestamptzNs:
			return plan.TTimestamptz
		case catalog.TString:
			return plan.TText
		case catalog.TUUID:
			return plan.TUUID
		case catalog.TVariant:
			return plan.TJSONB
		default: // fixed, binary, geometry, geography, unknown
			return plan.TBytea
		}
	case *catalog.ListType:
		if p, ok := t.Element.(*catalog.PrimitiveType); ok {
			elem := pgTypeOfIceberg(p)
			if arr := pgtypes.ArrayOf(elem.OID); arr != 0 && elem.OID != pgtypes.JSONB {
				return plan.Type{OID: arr, Typmod: -1}
			}
		}
		return plan.TJSONB
	}
	return plan.TJSONB // struct, map, nested list
}

// arrowOf returns the Arrow type the engine computes values of t in (the
// wire mapping: bool Boolean, int4 Int32, numeric Decimal128, ...). Columns
// read from tables may use a wider Arrow type of the same PostgreSQL type
// (Timestamp(ns), FixedSizeBinary(L) for bytea, Struct for jsonb).
func arrowOf(t plan.Type) arrow.DataType {
	if pgtypes.IsOIDType(t.OID) || t.OID == pgtypes.Int2Vector || t.OID == pgtypes.OIDVector {
		return syscat.ArrowOf(t.OID)
	}
	switch t.OID {
	case pgtypes.Bool:
		return arrow.FixedWidthTypes.Boolean
	case pgtypes.Int2:
		return arrow.PrimitiveTypes.Int16
	case pgtypes.Int4:
		return arrow.PrimitiveTypes.Int32
	case pgtypes.Int8:
		return arrow.PrimitiveTypes.Int64
	case pgtypes.Float4:
		return arrow.PrimitiveTypes.Float32
	case pgtypes.Float8:
		return arrow.PrimitiveTypes.Float64
	case pgtypes.Numeric:
		if p, s, ok := t.NumericPS(); ok {
			return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s)}
		}
		return unconstrainedNumeric()
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown, pgtypes.JSONB, pgtypes.JSON:
		return arrow.BinaryTypes.String
	case pgtypes.Bytea:
		return arrow.BinaryTypes.Binary
	case pgtypes.UUID:
		return &arrow.FixedSizeBinaryType{ByteWidth: 16}
	case pgtypes.Date:
		return arrow.FixedWidthTypes.Date32
	case pgtypes.Time:
		return arrow.FixedWidthTypes.Time64us
	case pgtypes.Timestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	case pgtypes.Timestamptz:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	case pgtypes.Interval:
		return arrow.FixedWidthTypes.MonthDayNanoInterval
	}
	if elem := pgtypes.ElemOf(t.OID); elem != 0 {
		return arrow.ListOf(arrowOf(plan.Type{OID: elem, Typmod: -1}))
	}
	return arrow.BinaryTypes.String
}

// column describes a table column for binding.
type column struct {
	Name    string
	FieldID int
	Type    plan.Type
	Arrow   arrow.DataType
}

// columnsOf lists the top-level columns of an Iceberg schema.
func columnsOf(s *catalog.Schema) []column {
	cols := make([]column, len(s.Fields))
	for i, f := range s.Fields {
		cols[i] = column{Name: f.Name, FieldID: f.ID, Type: pgTypeOfIceberg(f.Type), Arrow: engine.ArrowType(f.Type)}
	}
	return cols
}
