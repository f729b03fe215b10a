package expr

import (
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// Arrow values as JSON, the way to_jsonb renders them and the wire prints
// struct, map and nested list columns: structs and maps become objects
// (map keys their text), lists arrays, numbers as numeric prints them,
// float NaN and infinities as strings, dates and timestamps in ISO 8601
// with 'T' (timestamptz with its +hh:mm offset), bytea as its \x text.

// jsonOf returns the converter of arrays of type t: row i (not NULL) as a
// pgtext.JSON.
func jsonOf(t arrow.DataType, loc *time.Location) (func(a arrow.Array) func(i int) *pgtext.JSON, error) {
	switch tt := t.(type) {
	case *arrow.DictionaryType:
		inner, err := jsonOf(tt.ValueType, loc)
		if err != nil {
			return nil, err
		}
		return func(a arrow.Array) func(i int) *pgtext.JSON {
			d := a.(*array.Dictionary)
			f := inner(d.Dictionary())
			return func(i int) *pgtext.JSON { return f(d.GetValueIndex(i)) }
		}, nil
	case *arrow.StructType:
		fields := make([]func(arrow.Array) func(int) *pgtext.JSON, tt.NumFields())
		keys := make([][]byte, tt.NumFields())
		for k, f := range tt.Fields() {
			conv, err := jsonOf(f.Type, loc)
			if err != nil {
				return nil, err
			}
			fields[k], keys[k] = conv, []byte(f.Name)
		}
		return func(a arrow.Array) func(i int) *pgtext.JSON {
			s := a.(*array.Struct)
			fs := make([]func(int) *pgtext.JSON, len(fields))
			cols := make([]arrow.Array, len(fields))
			for k := range fields {
				cols[k] = s.Field(k)
				fs[k] = fields[k](cols[k])
			}
			return func(i int) *pgtext.JSON {
				vals := make([]*pgtext.JSON, len(fs))
				for k, f := range fs {
					if cols[k].IsNull(i) {
						vals[k] = pgtext.JSONNullValue()
					} else {
						vals[k] = f(i)
					}
				}
				return pgtext.NewJSONObject(keys, vals)
			}
		}, nil
	case *arrow.MapType:
		item, err := jsonOf(tt.ItemType(), loc)
		if err != nil {
			return nil, err
		}
		return func(a arrow.Array) func(i int) *pgtext.JSON {
			m := a.(*array.Map)
			ks, items := m.Keys(), m.Items()
			f := item(items)
			return func(i int) *pgtext.JSON {
				s, e := m.ValueOffsets(i)
				keys := make([][]byte, 0, e-s)
				vals := make([]*pgtext.JSON, 0, e-s)
				for k := int(s); k < int(e); k++ {
					keys = append(keys, appendElemText(nil, ks, k, &compiler{tz: loc}))
					if items.IsNull(k) {
						vals = append(vals, pgtext.JSONNullValue())
					} else {
						vals = append(vals, f(k))
					}
				}
				return pgtext.NewJSONObject(keys, vals)
			}
		}, nil
	case *arrow.ListType:
		elem, err := jsonOf(tt.Elem(), loc)
		if err != nil {
			return nil, err
		}
		return func(a arrow.Array) func(i int) *pgtext.JSON {
			l := a.(*array.List)
			vals := l.ListValues()
			f := elem(vals)
			return func(i int) *pgtext.JSON {
				s, e := l.ValueOffsets(i)
				out := &pgtext.JSON{Kind: pgtext.JSONArray, Elems: make([]*pgtext.JSON, 0, e-s)}
				for k := int(s); k < int(e); k++ {
					if vals.IsNull(k) {
						out.Elems = append(out.Elems, pgtext.JSONNullValue())
					} else {
						out.Elems = append(out.Elems, f(k))
					}
				}
				return out
			}
		}, nil
	}
	return jsonScalarOf(t, loc)
}

// jsonScalarOf converts scalars.
func jsonScalarOf(t arrow.DataType, loc *time.Location) (func(a arrow.Array) func(i int) *pgtext.JSON, error) {
	quoted := func(f func(dst []byte, a arrow.Array, i int) []byte) func(a arrow.Array) func(i int) *pgtext.JSON {
		return func(a arrow.Array) func(i int) *pgtext.JSON {
			return func(i int) *pgtext.JSON { return &pgtext.JSON{Kind: pgtext.JSONString, Text: f(nil, a, i)} }
		}
	}
	number := func(f func(dst []byte, a arrow.Array, i int) []byte) func(a arrow.Array) func(i int) *pgtext.JSON {
		return func(a arrow.Array) func(i int) *pgtext.JSON {
			return func(i int) *pgtext.JSON { return &pgtext.JSON{Kind: pgtext.JSONNumber, Text: f(nil, a, i)} }
		}
	}
	text := func(dst []byte, a arrow.Array, i int) []byte { return AppendText(dst, a, i, loc) }
	switch tt := t.(type) {
	case *arrow.NullType:
		return func(arrow.Array) func(int) *pgtext.JSON {
			return func(int) *pgtext.JSON { return pgtext.JSONNullValue() }
		}, nil
	case *arrow.BooleanType:
		return func(a arrow.Array) func(i int) *pgtext.JSON {
			b := a.(*array.Boolean)
			return func(i int) *pgtext.JSON {
				if b.Value(i) {
					return pgtext.JSONBool(true)
				}
				return pgtext.JSONBool(false)
			}
		}, nil
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return number(func(dst []byte, a arrow.Array, i int) []byte { return append(dst, a.ValueStr(i)...) }), nil
	case *arrow.Decimal128Type:
		return number(text), nil
	case *arrow.Float32Type, *arrow.Float64Type:
		bits := 64
		if _, ok := tt.(*arrow.Float32Type); ok {
			bits = 32
		}
		return func(a arrow.Array) func(i int) *pgtext.JSON {
			return func(i int) *pgtext.JSON {
				var f float64
				if bits == 32 {
					f = float64(a.(*array.Float32).Value(i))
				} else {
					f = a.(*array.Float64).Value(i)
				}
				if math.IsNaN(f) || math.IsInf(f, 0) {
					return &pgtext.JSON{Kind: pgtext.JSONString, Text: AppendFloat(nil, f, bits)}
				}
				return &pgtext.JSON{Kind: pgtext.JSONNumber, Text: pgtext.AppendNumericText(nil, strconv.AppendFloat(nil, f, 'e', -1, bits))}
			}
		}, nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType, *arrow.FixedSizeBinaryType,
		*arrow.Date32Type, *arrow.Time64Type, *arrow.MonthDayNanoIntervalType:
		return quoted(text), nil
	case *arrow.TimestampType:
		return quoted(func(dst []byte, a arrow.Array, i int) []byte {
			v := int64(a.(*array.Timestamp).Value(i))
			switch tt.Unit {
			case arrow.Nanosecond:
				v = floorDiv(v, 1000)
			case arrow.Millisecond:
				v *= 1000
			case arrow.Second:
				v *= usPerSec
			}
			return appendISOTimestamp(dst, v, tt.TimeZone != "", loc)
		}), nil
	}
	if IsNumericType(t) {
		return number(text), nil
	}
	return nil, pgerr.Unsupported("conversion of %s to jsonb", arrTypeName(t))
}

// appendISOTimestamp prints a timestamp as to_jsonb does:
// YYYY-MM-DDTHH:MM:SS[.ffffff], with the +hh:mm offset in loc for
// timestamptz.
func appendISOTimestamp(dst []byte, us int64, tz bool, loc *time.Location) []byte {
	var off int
	if tz {
		off = zoneOffset(us, loc)
		us += int64(off) * usPerSec
	}
	days := floorDiv(us, usPerDay)
	y, m, d := civil(days)
	dst, bc := appendYMD(dst, y, m, d)
	dst = append(dst, 'T')
	dst = AppendTime(dst, us-days*usPerDay)
	if tz {
		if off < 0 {
			dst = append(dst, '-')
			off = -off
		} else {
			dst = append(dst, '+')
		}
		dst = appendPad(dst, int64(off/3600), 2)
		dst = append(dst, ':')
		dst = appendPad(dst, int64(off/60%60), 2)
		if s := off % 60; s != 0 {
			dst = append(dst, ':')
			dst = appendPad(dst, int64(s), 2)
		}
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}
