package wire

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgnumeric"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
)

// jsonEncoder renders Arrow values as PostgreSQL's jsonb text: objects
// {"k": v, ...} with keys ordered by length then bytes (jsonb's storage
// order), arrays [a, b], numbers as numeric prints them, and other scalars
// as to_jsonb renders them (dates, timestamps in ISO 8601 with 'T', bytea as
// its \x text). Struct columns, maps (keys become strings) and nested lists
// all arrive here.
func jsonEncoder(dt arrow.DataType, env *encodeEnv) (binder, error) {
	switch t := dt.(type) {
	case *arrow.DictionaryType:
		inner, err := jsonEncoder(t.ValueType, env)
		if err != nil {
			return nil, err
		}
		return bindDictionary(inner), nil
	case *arrow.StructType:
		return jsonStruct(t, env)
	case *arrow.MapType:
		return jsonMap(t, env)
	case *arrow.ListType, *arrow.LargeListType, *arrow.FixedSizeListType:
		elem, split := listParts(t)
		return jsonList(elem, env, split)
	}
	return jsonScalar(dt, env)
}

// jsonScalar renders one scalar as a JSON value.
func jsonScalar(dt arrow.DataType, env *encodeEnv) (binder, error) {
	switch t := dt.(type) {
	case *arrow.NullType:
		return func(arrow.Array) appendFunc {
			return func(dst []byte, _ int) []byte { return append(dst, "null"...) }
		}, nil
	case *arrow.BooleanType:
		return func(arr arrow.Array) appendFunc {
			a := arr.(*array.Boolean)
			return func(dst []byte, i int) []byte {
				if a.Value(i) {
					return append(dst, "true"...)
				}
				return append(dst, "false"...)
			}
		}, nil
	case *arrow.Float32Type:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Float32).Float32Values()
			return func(dst []byte, i int) []byte { return appendJSONFloat(dst, float64(v[i]), 32) }
		}, nil
	case *arrow.Float64Type:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Float64).Float64Values()
			return func(dst []byte, i int) []byte { return appendJSONFloat(dst, v[i], 64) }
		}, nil
	case *arrow.Decimal128Type:
		return numericText(dt, env), nil
	case arrow.ExtensionType:
		if pgnumeric.IsType(dt) {
			return numericText(dt, env), nil
		}
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		s := stringText(dt)
		return jsonQuoted(s), nil
	case *arrow.FixedSizeBinaryType:
		if t.ByteWidth == 16 {
			// Nested 16-byte values are taken for uuids: the Arrow type
			// cannot tell them from fixed(16).
			return jsonQuoted(bindUUIDText), nil
		}
		return jsonQuoted(byteaText(dt)), nil
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return jsonQuoted(byteaText(dt)), nil
	case *arrow.Date32Type:
		return jsonQuoted(bindDateText), nil
	case *arrow.Time64Type, *arrow.Time32Type:
		return jsonQuoted(timeText(dt)), nil
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return jsonQuoted(timestamptzText(t.Unit, env, 'T')), nil
		}
		return jsonQuoted(timestampText(t.Unit, 'T')), nil
	}
	if b := integerText(dt); b != nil {
		return b, nil
	}
	return nil, pgerr.Unsupported("conversion of Arrow type %s to jsonb", dt)
}

// appendJSONFloat is to_jsonb of a float: a numeric, or the quoted text of
// NaN and the infinities.
func appendJSONFloat(dst []byte, f float64, bitSize int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		dst = append(dst, '"')
		dst = appendFloat(dst, f, bitSize, 15, 1)
		return append(dst, '"')
	}
	return appendFloatNumeric(dst, f, bitSize)
}

// jsonQuoted wraps a text encoder's output in a JSON string.
func jsonQuoted(inner binder) binder {
	return func(arr arrow.Array) appendFunc {
		f := inner(arr)
		var scratch []byte
		return func(dst []byte, i int) []byte {
			scratch = f(scratch[:0], i)
			return pgtext.AppendJSONString(dst, scratch)
		}
	}
}

// jsonbFromText renders JSON text (a string column typed jsonb, such as a
// variant read as JSON) as jsonb prints it: parsed, keys ordered and
// deduplicated, numbers normalised, whitespace canonical.
func jsonbFromText(dt arrow.DataType) binder {
	get := stringText(dt)
	return func(arr arrow.Array) appendFunc {
		f := get(arr)
		var scratch []byte
		var p pgtext.JSONParser
		return func(dst []byte, i int) []byte {
			scratch = f(scratch[:0], i)
			out, err := p.AppendJSONBFromText(dst, scratch)
			if err != nil {
				// Not JSON: send the text as it is rather than fail the
				// whole result.
				return append(dst, scratch...)
			}
			return out
		}
	}
}

func jsonStruct(t *arrow.StructType, env *encodeEnv) (binder, error) {
	fields := t.Fields()
	order := make([]int, len(fields))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return pgtext.CompareJSONKeys([]byte(fields[a].Name), []byte(fields[b].Name))
	})
	// Duplicate names: jsonb keeps the last value.
	kept := order[:0]
	for k, idx := range order {
		if k+1 < len(order) && fields[order[k+1]].Name == fields[idx].Name {
			continue
		}
		kept = append(kept, idx)
	}
	order = kept
	children := make([]binder, len(fields))
	keys := make([][]byte, len(fields))
	for _, idx := range order {
		b, err := jsonEncoder(fields[idx].Type, env)
		if err != nil {
			return nil, err
		}
		children[idx] = b
		keys[idx] = pgtext.AppendJSONString(nil, []byte(fields[idx].Name))
	}
	return func(arr arrow.Array) appendFunc {
		a := arr.(*array.Struct)
		fns := make([]appendFunc, len(fields))
		nulls := make([]nullMap, len(fields))
		for _, idx := range order {
			f := a.Field(idx)
			fns[idx] = children[idx](f)
			nulls[idx] = newNullMap(f)
		}
		return func(dst []byte, i int) []byte {
			dst = append(dst, '{')
			for k, idx := range order {
				if k > 0 {
					dst = append(dst, ',', ' ')
				}
				dst = append(dst, keys[idx]...)
				dst = append(dst, ':', ' ')
				if nulls[idx].isNull(i) {
					dst = append(dst, "null"...)
				} else {
					dst = fns[idx](dst, i)
				}
			}
			return append(dst, '}')
		}
	}, nil
}

func jsonList(elem arrow.DataType, env *encodeEnv, split func(arrow.Array) (arrow.Array, func(int) (int, int))) (binder, error) {
	child, err := jsonEncoder(elem, env)
	if err != nil {
		return nil, err
	}
	return func(arr arrow.Array) appendFunc {
		values, bounds := split(arr)
		f := child(values)
		nulls := newNullMap(values)
		return func(dst []byte, i int) []byte {
			start, end := bounds(i)
			dst = append(dst, '[')
			for k := start; k < end; k++ {
				if k > start {
					dst = append(dst, ',', ' ')
				}
				if nulls.isNull(k) {
					dst = append(dst, "null"...)
				} else {
					dst = f(dst, k)
				}
			}
			return append(dst, ']')
		}
	}, nil
}

// jsonMap renders a map as an object: keys become their text, entries are
// ordered as jsonb orders keys, and of duplicate keys the last wins.
func jsonMap(t *arrow.MapType, env *encodeEnv) (binder, error) {
	keyText, err := textEncoder(defaultOID(t.KeyType()), t.KeyType(), env)
	if err != nil {
		return nil, err
	}
	valueEnc, err := jsonEncoder(t.ItemType(), env)
	if err != nil {
		return nil, err
	}
	type entry struct{ key, value []byte }
	return func(arr arrow.Array) appendFunc {
		a := arr.(*array.Map)
		keys, items := a.Keys(), a.Items()
		kf, vf := keyText(keys), valueEnc(items)
		itemNulls := newNullMap(items)
		var scratch []byte
		var entries []entry
		return func(dst []byte, i int) []byte {
			start, end := a.ValueOffsets(i)
			scratch, entries = scratch[:0], entries[:0]
			for k := int(start); k < int(end); k++ {
				ks := len(scratch)
				scratch = kf(scratch, k)
				ke := len(scratch)
				if itemNulls.isNull(k) {
					scratch = append(scratch, "null"...)
				} else {
					scratch = vf(scratch, k)
				}
				entries = append(entries, entry{key: scratch[ks:ke:ke], value: scratch[ke:len(scratch):len(scratch)]})
			}
			// Earlier entries still point into scratch's old backing array
			// after it grows; those bytes are never overwritten.
			slices.SortStableFunc(entries, func(x, y entry) int { return pgtext.CompareJSONKeys(x.key, y.key) })
			dst = append(dst, '{')
			n := 0
			for k, e := range entries {
				if k+1 < len(entries) && string(entries[k+1].key) == string(e.key) {
					continue
				}
				if n > 0 {
					dst = append(dst, ',', ' ')
				}
				n++
				dst = pgtext.AppendJSONString(dst, e.key)
				dst = append(dst, ':', ' ')
				dst = append(dst, e.value...)
			}
			return append(dst, '}')
		}
	}, nil
}

// defaultOID is the PostgreSQL type an Arrow type maps to (DESIGN.md
// section 3), for values that carry no OID of their own (map keys).
func defaultOID(dt arrow.DataType) uint32 {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return pgtypes.Bool
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Uint8Type:
		return pgtypes.Int2
	case *arrow.Int32Type, *arrow.Uint16Type:
		return pgtypes.Int4
	case *arrow.Int64Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return pgtypes.Int8
	case *arrow.Float32Type:
		return pgtypes.Float4
	case *arrow.Float64Type:
		return pgtypes.Float8
	case *arrow.Decimal128Type:
		return pgtypes.Numeric
	case arrow.ExtensionType:
		if pgnumeric.IsType(dt) {
			return pgtypes.Numeric
		}
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return pgtypes.Text
	case *arrow.FixedSizeBinaryType:
		if t.ByteWidth == 16 {
			return pgtypes.UUID
		}
		return pgtypes.Bytea
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return pgtypes.Bytea
	case *arrow.Date32Type:
		return pgtypes.Date
	case *arrow.Time32Type, *arrow.Time64Type:
		return pgtypes.Time
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return pgtypes.Timestamptz
		}
		return pgtypes.Timestamp
	case *arrow.DictionaryType:
		return defaultOID(t.ValueType)
	}
	return pgtypes.JSONB
}
