package catalog

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// ValueToJSON converts a Go value of value.go of type t into the spec's JSON
// single-value serialization (the inverse of ValueFromJSON): the form of
// initial-default and write-default.
func ValueToJSON(t Type, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t := t.(type) {
	case *PrimitiveType:
		return primitiveToJSON(t, v)
	case *StructType:
		m, ok := v.(map[int]any)
		if !ok {
			return nil, jsonTypeErr(t, v)
		}
		out := make(map[string]any, len(m))
		for _, f := range t.Fields {
			fv, ok := m[f.ID]
			if !ok {
				continue
			}
			jv, err := ValueToJSON(f.Type, fv)
			if err != nil {
				return nil, fmt.Errorf("struct field %d: %w", f.ID, err)
			}
			out[strconv.Itoa(f.ID)] = jv
		}
		return out, nil
	case *ListType:
		l, ok := v.([]any)
		if !ok {
			return nil, jsonTypeErr(t, v)
		}
		out := make([]any, len(l))
		for i, e := range l {
			jv, err := ValueToJSON(t.Element, e)
			if err != nil {
				return nil, fmt.Errorf("list element %d: %w", i, err)
			}
			out[i] = jv
		}
		return out, nil
	case *MapType:
		mv, ok := v.(MapValue)
		if !ok || len(mv.Keys) != len(mv.Values) {
			return nil, jsonTypeErr(t, v)
		}
		keys, vals := make([]any, len(mv.Keys)), make([]any, len(mv.Values))
		for i := range mv.Keys {
			k, err := ValueToJSON(t.Key, mv.Keys[i])
			if err != nil {
				return nil, fmt.Errorf("map key %d: %w", i, err)
			}
			val, err := ValueToJSON(t.Value, mv.Values[i])
			if err != nil {
				return nil, fmt.Errorf("map value %d: %w", i, err)
			}
			keys[i], vals[i] = k, val
		}
		return map[string]any{"keys": keys, "values": vals}, nil
	}
	return nil, fmt.Errorf("default of type %v: %w", t, ErrUnsupported)
}

func primitiveToJSON(t *PrimitiveType, v any) (any, error) {
	switch t.ID {
	case TBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case TInt, TLong:
		if n, ok := asInt64(v); ok {
			return json.Number(strconv.FormatInt(n, 10)), nil
		}
	case TFloat, TDouble:
		var f float64
		bits := 64
		switch x := v.(type) {
		case float32:
			f, bits = float64(x), 32
		case float64:
			f = x
		default:
			return nil, jsonTypeErr(t, v)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s default %v has no JSON form: %w", t, f, ErrDataInvalid)
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, bits)), nil
	case TDecimal:
		if d, ok := v.(Decimal); ok && d.Unscaled != nil {
			return formatDecimal(d), nil
		}
	case TDate:
		if n, ok := asInt64(v); ok {
			return time.Unix(n*86400, 0).UTC().Format("2006-01-02"), nil
		}
	case TTime:
		if n, ok := asInt64(v); ok {
			return time.UnixMicro(n).UTC().Format("15:04:05.000000"), nil
		}
	case TTimestamp, TTimestamptz:
		if n, ok := asInt64(v); ok {
			s := time.UnixMicro(n).UTC().Format("2006-01-02T15:04:05.000000")
			if t.ID == TTimestamptz {
				s += "+00:00"
			}
			return s, nil
		}
	case TTimestampNs, TTimestamptzNs:
		if n, ok := asInt64(v); ok {
			s := time.Unix(0, n).UTC().Format("2006-01-02T15:04:05.000000000")
			if t.ID == TTimestamptzNs {
				s += "+00:00"
			}
			return s, nil
		}
	case TString:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case TUUID:
		if u, ok := v.([16]byte); ok {
			return FormatUUID(u), nil
		}
	case TFixed, TBinary:
		if b, ok := v.([]byte); ok {
			return strings.ToUpper(hex.EncodeToString(b)), nil
		}
	default:
		return nil, fmt.Errorf("default of type %s: %w", t, ErrUnsupported)
	}
	return nil, jsonTypeErr(t, v)
}

// formatDecimal spells a decimal with exactly its scale's fraction digits.
func formatDecimal(d Decimal) string {
	s := new(big.Int).Abs(d.Unscaled).String()
	if d.Scale > 0 {
		if len(s) <= d.Scale {
			s = strings.Repeat("0", d.Scale-len(s)+1) + s
		}
		s = s[:len(s)-d.Scale] + "." + s[len(s)-d.Scale:]
	} else if d.Scale < 0 {
		s += strings.Repeat("0", -d.Scale)
	}
	if d.Unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}

// FormatUUID spells a UUID in the canonical 8-4-4-4-12 form.
func FormatUUID(u [16]byte) string {
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
