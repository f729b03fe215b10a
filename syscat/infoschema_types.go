package syscat

import (
	"strconv"

	"github.com/icegate/icegate/internal/pgtypes"
)

// typeFacts is what information_schema says about a value's type
// (columns.data_type, udt_name, numeric_precision...): the results of
// PostgreSQL's _pg_char_max_length, _pg_numeric_precision and friends for a
// type and typmod. The numbers are nil (NULL) or int32 (cardinal_number).
type typeFacts struct {
	DataType          string
	UDTName           string
	CharMaxLength     any
	CharOctetLength   any
	NumericPrecision  any
	NumericRadix      any
	NumericScale      any
	DatetimePrecision any
	IntervalType      any
}

// maxEncodingLength is pg_encoding_max_length of UTF8, the only server
// encoding icegate has.
const maxEncodingLength = 4

// typeFactsOf computes the facts of type oid with typmod (-1 for none).
func typeFactsOf(oid uint32, typmod int32) typeFacts {
	f := typeFacts{DataType: dataTypeOf(oid), UDTName: udtNameOf(oid)}
	switch oid {
	case pgtypes.BPChar, pgtypes.Varchar:
		if typmod != -1 {
			f.CharMaxLength = card(typmod - 4)
		}
	case bitOID, varbitOID:
		if typmod != -1 {
			f.CharMaxLength = card(typmod)
		}
	}
	switch oid {
	case pgtypes.Text, pgtypes.BPChar, pgtypes.Varchar:
		if typmod == -1 {
			f.CharOctetLength = card(1 << 30)
		} else {
			f.CharOctetLength = card((typmod - 4) * maxEncodingLength)
		}
	}
	switch oid {
	case pgtypes.Int2:
		f.NumericPrecision, f.NumericRadix, f.NumericScale = card(16), card(2), card(0)
	case pgtypes.Int4:
		f.NumericPrecision, f.NumericRadix, f.NumericScale = card(32), card(2), card(0)
	case pgtypes.Int8:
		f.NumericPrecision, f.NumericRadix, f.NumericScale = card(64), card(2), card(0)
	case pgtypes.Float4:
		f.NumericPrecision, f.NumericRadix = card(24), card(2)
	case pgtypes.Float8:
		f.NumericPrecision, f.NumericRadix = card(53), card(2)
	case pgtypes.Numeric:
		f.NumericRadix = card(10)
		if typmod != -1 {
			f.NumericPrecision = card(((typmod - 4) >> 16) & 0xffff)
			f.NumericScale = card((typmod - 4) & 0xffff)
		}
	}
	switch oid {
	case pgtypes.Date:
		f.DatetimePrecision = card(0)
	case pgtypes.Time, timetzOID, pgtypes.Timestamp, pgtypes.Timestamptz:
		if typmod < 0 {
			f.DatetimePrecision = card(6)
		} else {
			f.DatetimePrecision = card(typmod)
		}
	case pgtypes.Interval:
		if typmod < 0 || typmod&0xffff == 0xffff {
			f.DatetimePrecision = card(6)
		} else {
			f.DatetimePrecision = card(typmod & 0xffff)
		}
		if typmod >= 0 {
			if s, ok := intervalFields[(typmod>>16)&0x7fff]; ok {
				if p := typmod & 0xffff; p != 0xffff {
					s += "(" + strconv.Itoa(int(p)) + ")"
				}
				f.IntervalType = s
			}
		}
	}
	return f
}

// Types information_schema treats specially that package pgtypes does not
// name.
const (
	bitOID    uint32 = 1560
	varbitOID uint32 = 1562
	timetzOID uint32 = 1266
)

// intervalFields spells an interval typmod's field mask as format_type does
// (upper case), for interval_type.
var intervalFields = map[int32]string{
	1 << 2:                       "YEAR",
	1 << 1:                       "MONTH",
	1 << 3:                       "DAY",
	1 << 10:                      "HOUR",
	1 << 11:                      "MINUTE",
	1 << 12:                      "SECOND",
	1<<2 | 1<<1:                  "YEAR TO MONTH",
	1<<3 | 1<<10:                 "DAY TO HOUR",
	1<<3 | 1<<10 | 1<<11:         "DAY TO MINUTE",
	1<<3 | 1<<10 | 1<<11 | 1<<12: "DAY TO SECOND",
	1<<10 | 1<<11:                "HOUR TO MINUTE",
	1<<10 | 1<<11 | 1<<12:        "HOUR TO SECOND",
	1<<11 | 1<<12:                "MINUTE TO SECOND",
}

// isArrayType reports whether oid is an array in information_schema's
// sense: a varlena type with an element type (int2vector and oidvector
// included).
func isArrayType(oid uint32) bool {
	if t := TypeByOID(oid); t != nil {
		return t.Elem != 0 && t.Len == -1
	}
	return pgtypes.ElemOf(oid) != 0
}

// elemTypeOf returns the element type of an array type, or 0.
func elemTypeOf(oid uint32) uint32 {
	if t := TypeByOID(oid); t != nil && t.Len == -1 {
		return t.Elem
	}
	return pgtypes.ElemOf(oid)
}

// dataTypeOf is data_type: "ARRAY" for arrays, else format_type without a
// typmod (every type icegate knows lives in pg_catalog).
func dataTypeOf(oid uint32) string {
	if isArrayType(oid) {
		return "ARRAY"
	}
	return formatTypeName(oid)
}

// formatTypeName is format_type(oid, NULL): the SQL name for types that have
// one, else the type's name as quote_ident spells it.
func formatTypeName(oid uint32) string {
	switch oid {
	case timetzOID:
		return "time with time zone"
	case bitOID:
		return "bit"
	case varbitOID:
		return "bit varying"
	}
	if n := pgtypes.TypeName(oid); n != "" {
		return n
	}
	if n := udtNameOf(oid); n != "" {
		return QuoteIdent(n)
	}
	return "???"
}

// udtNameOf is pg_type.typname of oid (int4, _int4, varchar...), "" for
// a type icegate does not know.
func udtNameOf(oid uint32) string {
	if t := TypeByOID(oid); t != nil {
		return t.Name
	}
	return ""
}
