package scan

import (
	"fmt"
	"math/big"
	"reflect"
	"time"

	"github.com/icegate/icegate/catalog"
)

// avroValue converts a value decoded from Avro into the Go representation
// of Iceberg type t (catalog/value.go), following the file node's shape.
func avroValue(v any, t catalog.Type, n *avroNode) (any, error) {
	if v == nil {
		return nil, nil
	}
	bad := func() error { return fmt.Errorf("avro value %v (%T) cannot be read as %s", v, v, t) }
	switch t := t.(type) {
	case *catalog.StructType:
		m, ok := v.(map[string]any)
		if !ok || n.shape != avroRecord {
			return nil, bad()
		}
		out := make(map[int]any, len(t.Fields))
		for _, f := range t.Fields {
			c := n.childByID(f.ID)
			if c == nil {
				out[f.ID] = f.InitialDefault
				continue
			}
			cv, err := avroValue(m[c.name], f.Type, c)
			if err != nil {
				return nil, err
			}
			out[f.ID] = cv
		}
		return out, nil
	case *catalog.ListType:
		l, ok := v.([]any)
		if !ok || n.shape != avroArray {
			return nil, bad()
		}
		out := make([]any, len(l))
		for i, e := range l {
			ev, err := avroValue(e, t.Element, n.element)
			if err != nil {
				return nil, err
			}
			out[i] = ev
		}
		return out, nil
	case *catalog.MapType:
		var mv catalog.MapValue
		switch {
		case n.shape == avroMap:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, bad()
			}
			for k, e := range m {
				kv, err := avroValue(k, t.Key, n.key)
				if err != nil {
					return nil, err
				}
				ev, err := avroValue(e, t.Value, n.value)
				if err != nil {
					return nil, err
				}
				mv.Keys, mv.Values = append(mv.Keys, kv), append(mv.Values, ev)
			}
		case n.shape == avroPairList:
			l, ok := v.([]any)
			if !ok {
				return nil, bad()
			}
			for _, e := range l {
				kvRec, ok := e.(map[string]any)
				if !ok {
					return nil, bad()
				}
				kv, err := avroValue(kvRec[n.key.name], t.Key, n.key)
				if err != nil {
					return nil, err
				}
				ev, err := avroValue(kvRec[n.value.name], t.Value, n.value)
				if err != nil {
					return nil, err
				}
				mv.Keys, mv.Values = append(mv.Keys, kv), append(mv.Values, ev)
			}
		default:
			return nil, bad()
		}
		return mv, nil
	case *catalog.PrimitiveType:
		return avroPrimitiveValue(v, t)
	}
	return nil, bad()
}

func avroPrimitiveValue(v any, t *catalog.PrimitiveType) (any, error) {
	bad := func() error { return fmt.Errorf("avro value %v (%T) cannot be read as %s", v, v, t) }
	switch t.ID {
	case catalog.TBoolean, catalog.TInt, catalog.TLong, catalog.TFloat, catalog.TDouble:
		return v, nil // appendValue widens int to long and float to double
	case catalog.TString:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case catalog.TBinary, catalog.TFixed, catalog.TUUID:
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			if t.ID == catalog.TUUID {
				return parseUUID(x)
			}
		}
		rv := reflect.ValueOf(v)
		if rv.Kind() == reflect.Array && rv.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, rv.Len())
			reflect.Copy(reflect.ValueOf(b), rv)
			return b, nil
		}
	case catalog.TDecimal:
		r, ok := v.(*big.Rat)
		if !ok {
			return nil, bad()
		}
		scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)))
		if !scaled.IsInt() {
			return nil, fmt.Errorf("decimal %s does not fit scale %d", r.RatString(), t.Scale)
		}
		return catalog.Decimal{Unscaled: new(big.Int).Set(scaled.Num()), Scale: t.Scale}, nil
	case catalog.TDate:
		switch x := v.(type) {
		case time.Time:
			return int32(floorDiv(x.Unix(), 86400)), nil
		case int32:
			return x, nil
		}
	case catalog.TTime:
		switch x := v.(type) {
		case time.Duration:
			return x.Microseconds(), nil
		case int64:
			return x, nil
		}
	case catalog.TTimestamp, catalog.TTimestamptz:
		switch x := v.(type) {
		case time.Time:
			return x.UnixMicro(), nil
		case int64:
			return x, nil
		}
	case catalog.TTimestampNs, catalog.TTimestamptzNs:
		switch x := v.(type) {
		case time.Time:
			return x.UnixNano(), nil
		case int64:
			return x, nil
		}
	}
	return nil, bad()
}

func parseUUID(s string) ([16]byte, error) {
	var out [16]byte
	j := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '-' {
			continue
		}
		if j >= 32 || i+1 >= len(s) {
			return out, fmt.Errorf("bad uuid %q", s)
		}
		var b byte
		if _, err := fmt.Sscanf(s[i:i+2], "%02x", &b); err != nil {
			return out, fmt.Errorf("bad uuid %q", s)
		}
		out[j/2] = b
		j += 2
		i++
	}
	if j != 32 {
		return out, fmt.Errorf("bad uuid %q", s)
	}
	return out, nil
}
