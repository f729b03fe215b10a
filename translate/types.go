package translate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
)

// pgType is a PostgreSQL type as the binder tracks it per expression: the
// type OID and the typmod (-1 when none; numeric(P,S) and varchar(n) carry
// one).
type pgType struct {
	OID    uint32
	Typmod int32
}

var (
	tBool        = pgType{pgtypes.Bool, -1}
	tInt2        = pgType{pgtypes.Int2, -1}
	tInt4        = pgType{pgtypes.Int4, -1}
	tInt8        = pgType{pgtypes.Int8, -1}
	tFloat4      = pgType{pgtypes.Float4, -1}
	tFloat8      = pgType{pgtypes.Float8, -1}
	tNumeric     = pgType{pgtypes.Numeric, -1}
	tText        = pgType{pgtypes.Text, -1}
	tBytea       = pgType{pgtypes.Bytea, -1}
	tUUID        = pgType{pgtypes.UUID, -1}
	tDate        = pgType{pgtypes.Date, -1}
	tTime        = pgType{pgtypes.Time, -1}
	tTimestamp   = pgType{pgtypes.Timestamp, -1}
	tTimestamptz = pgType{pgtypes.Timestamptz, -1}
	tInterval    = pgType{pgtypes.Interval, -1}
	tJSONB       = pgType{pgtypes.JSONB, -1}
	tUnknown     = pgType{pgtypes.Unknown, -1}
)

// numericType returns numeric(p,s).
func numericType(p, s int) pgType {
	return pgType{pgtypes.Numeric, pgtypes.NumericTypmod(p, s)}
}

// numericPS returns the precision and scale of a numeric typmod; ok is false
// for unconstrained numeric.
func (t pgType) numericPS() (p, s int, ok bool) {
	if t.OID != pgtypes.Numeric || t.Typmod < 4 {
		return 0, 0, false
	}
	m := t.Typmod - 4
	return int(m >> 16), int(m & 0xffff), true
}

// String is the type as PostgreSQL's format_type prints it.
func (t pgType) String() string {
	name := pgtypes.TypeName(t.OID)
	if name == "" {
		name = fmt.Sprintf("oid %d", t.OID)
	}
	if p, s, ok := t.numericPS(); ok {
		return fmt.Sprintf("numeric(%d,%d)", p, s)
	}
	if t.OID == pgtypes.Varchar && t.Typmod >= 4 {
		return fmt.Sprintf("character varying(%d)", t.Typmod-4)
	}
	return name
}

// pgTypeOfIceberg maps an Iceberg type to its PostgreSQL type (DESIGN.md
// section 3).
func pgTypeOfIceberg(t catalog.Type) pgType {
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		switch t.ID {
		case catalog.TBoolean:
			return tBool
		case catalog.TInt:
			return tInt4
		case catalog.TLong:
			return tInt8
		case catalog.TFloat:
			return tFloat4
		case catalog.TDouble:
			return tFloat8
		case catalog.TDecimal:
			return numericType(t.Precision, t.Scale)
		case catalog.TDate:
			return tDate
		case catalog.TTime:
			return tTime
		case catalog.TTimestamp, catalog.TTimestampNs:
			return tTimestamp
		case catalog.TTimestamptz, catalog.TTimestamptzNs:
			return tTimestamptz
		case catalog.TString:
			return tText
		case catalog.TUUID:
			return tUUID
		case catalog.TVariant:
			return tJSONB
		default: // fixed, binary, geometry, geography, unknown
			return tBytea
		}
	case *catalog.ListType:
		if p, ok := t.Element.(*catalog.PrimitiveType); ok {
			elem := pgTypeOfIceberg(p)
			if arr := pgtypes.ArrayOf(elem.OID); arr != 0 && elem.OID != pgtypes.JSONB {
				return pgType{arr, -1}
			}
		}
		return tJSONB
	}
	return tJSONB // struct, map, nested list
}

// arrowOf returns the Arrow type the engine computes values of t in (the
// wire mapping: bool Boolean, int4 Int32, numeric Decimal128, ...). Columns
// read from tables may use a wider Arrow type of the same PostgreSQL type
// (Timestamp(ns), FixedSizeBinary(L) for bytea, Struct for jsonb).
func arrowOf(t pgType) arrow.DataType {
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
		if p, s, ok := t.numericPS(); ok {
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
		return arrow.ListOf(arrowOf(pgType{elem, -1}))
	}
	return arrow.BinaryTypes.String
}

// column describes a table column for binding.
type column struct {
	Name    string
	FieldID int
	Type    pgType
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
