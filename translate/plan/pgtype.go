package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
)

// Type is a PostgreSQL type as the binder tracks it per expression: the
// type OID and the typmod (-1 when none; numeric(P,S) and varchar(n) carry
// one).
type Type struct {
	OID    uint32
	Typmod int32
}

var (
	TBool        = Type{pgtypes.Bool, -1}
	TInt2        = Type{pgtypes.Int2, -1}
	TInt4        = Type{pgtypes.Int4, -1}
	TInt8        = Type{pgtypes.Int8, -1}
	TFloat4      = Type{pgtypes.Float4, -1}
	TFloat8      = Type{pgtypes.Float8, -1}
	TNumeric     = Type{pgtypes.Numeric, -1}
	TText        = Type{pgtypes.Text, -1}
	TBytea       = Type{pgtypes.Bytea, -1}
	TUUID        = Type{pgtypes.UUID, -1}
	TDate        = Type{pgtypes.Date, -1}
	TTime        = Type{pgtypes.Time, -1}
	TTimestamp   = Type{pgtypes.Timestamp, -1}
	TTimestamptz = Type{pgtypes.Timestamptz, -1}
	TInterval    = Type{pgtypes.Interval, -1}
	TJSONB       = Type{pgtypes.JSONB, -1}
	TUnknown     = Type{pgtypes.Unknown, -1}
)

// NumericType returns numeric(p,s).
func NumericType(p, s int) Type {
	return Type{pgtypes.Numeric, pgtypes.NumericTypmod(p, s)}
}

// NumericPS returns the precision and scale of a numeric typmod; ok is false
// for unconstrained numeric.
func (t Type) NumericPS() (p, s int, ok bool) {
	if t.OID != pgtypes.Numeric || t.Typmod < 4 {
		return 0, 0, false
	}
	m := t.Typmod - 4
	return int(m >> 16), int(m & 0xffff), true
}

// String is the type as PostgreSQL's format_type prints it.
func (t Type) String() string {
	name := pgtypes.TypeName(t.OID)
	if name == "" {
		name = fmt.Sprintf("oid %d", t.OID)
	}
	if p, s, ok := t.NumericPS(); ok {
		return fmt.Sprintf("numeric(%d,%d)", p, s)
	}
	if e := pgtypes.ElemOf(t.OID); e == pgtypes.Varchar && t.Typmod >= 4 || e == pgtypes.BPChar {
		// varchar(n)[], char(n)[], bpchar[]: the element's type with
		// the length, then [].
		return Type{OID: e, Typmod: t.Typmod}.String() + "[]"
	}
	if t.OID == pgtypes.Varchar && t.Typmod >= 4 {
		return fmt.Sprintf("character varying(%d)", t.Typmod-4)
	}
	if t.OID == pgtypes.BPChar {
		if t.Typmod >= 4 {
			return fmt.Sprintf("character(%d)", t.Typmod-4)
		}
		return "bpchar"
	}
	return name
}

// ArrowOf returns the Arrow type the engine computes values of t in (the
// wire mapping: bool Boolean, int4 Int32, numeric Decimal128, ...). Columns
// read from tables may use a wider Arrow type of the same PostgreSQL type
// (Timestamp(ns), FixedSizeBinary(L) for bytea, Struct for jsonb).
func ArrowOf(t Type) arrow.DataType {
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
		return expr.NumericType()
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
		return arrow.ListOf(ArrowOf(Type{OID: elem, Typmod: -1}))
	}
	return arrow.BinaryTypes.String
}

// TypeOfIceberg maps an Iceberg type to its PostgreSQL type (DESIGN.md
// section 3).
func TypeOfIceberg(t catalog.Type) Type {
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		switch t.ID {
		case catalog.TBoolean:
			return TBool
		case catalog.TInt:
			return TInt4
		case catalog.TLong:
			return TInt8
		case catalog.TFloat:
			return TFloat4
		case catalog.TDouble:
			return TFloat8
		case catalog.TDecimal:
			return NumericType(t.Precision, t.Scale)
		case catalog.TDate:
			return TDate
		case catalog.TTime:
			return TTime
		case catalog.TTimestamp, catalog.TTimestampNs:
			return TTimestamp
		case catalog.TTimestamptz, catalog.TTimestamptzNs:
			return TTimestamptz
		case catalog.TString:
			return TText
		case catalog.TUUID:
			return TUUID
		case catalog.TVariant:
			return TJSONB
		default: // fixed, binary, geometry, geography, unknown
			return TBytea
		}
	case *catalog.ListType:
		if p, ok := t.Element.(*catalog.PrimitiveType); ok {
			elem := TypeOfIceberg(p)
			if arr := pgtypes.ArrayOf(elem.OID); arr != 0 && elem.OID != pgtypes.JSONB {
				return Type{OID: arr, Typmod: -1}
			}
		}
		return TJSONB
	}
	return TJSONB // struct, map, nested list
}
