package catalog

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// parseDefault decodes a v3 initial-default/write-default from the spec's
// JSON single-value serialization into the Go value of value.go. Absent or
// JSON null gives nil.
func parseDefault(t Type, raw json.RawMessage) (any, error) {
	raw = trimJSON(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode %s: %w", raw, err)
	}
	return ValueFromJSON(t, v)
}

// ValueFromJSON converts a generic JSON value (decoded with UseNumber) of
// type t into the Go value of value.go.
func ValueFromJSON(t Type, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t := t.(type) {
	case *PrimitiveType:
		return primitiveFromJSON(t, v)
	case *StructType:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, jsonTypeErr(t, v)
		}
		out := make(map[int]any, len(t.Fields))
		for _, f := range t.Fields {
			fv, ok := obj[strconv.Itoa(f.ID)]
			if !ok {
				continue
			}
			gv, err := ValueFromJSON(f.Type, fv)
			if err != nil {
				return nil, fmt.Errorf("struct field %d: %w", f.ID, err)
			}
			out[f.ID] = gv
		}
		return out, nil
	case *ListType:
		arr, ok := v.([]any)
		if !ok {
			return nil, jsonTypeErr(t, v)
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			gv, err := ValueFromJSON(t.Element, e)
			if err != nil {
				return nil, fmt.Errorf("list element %d: %w", i, err)
			}
			out[i] = gv
		}
		return out, nil
	case *MapType:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, jsonTypeErr(t, v)
		}
		keys, _ := obj["keys"].([]any)
		vals, _ := obj["values"].([]any)
		if len(keys) != len(vals) {
			return nil, fmt.Errorf("map default with %d keys and %d values: %w", len(keys), len(vals), ErrDataInvalid)
		}
		mv := MapValue{Keys: make([]any, len(keys)), Values: make([]any, len(vals))}
		for i := range keys {
			k, err := ValueFromJSON(t.Key, keys[i])
			if err != nil {
				return nil, fmt.Errorf("map key %d: %w", i, err)
			}
			val, err := ValueFromJSON(t.Value, vals[i])
			if err != nil {
				return nil, fmt.Errorf("map value %d: %w", i, err)
			}
			mv.Keys[i], mv.Values[i] = k, val
		}
		return mv, nil
	}
	return nil, fmt.Errorf("default of type %v: %w", t, ErrUnsupported)
}

func jsonTypeErr(t Type, v any) error {
	return fmt.Errorf("JSON value %v (%T) for type %s: %w", v, v, t, ErrDataInvalid)
}

func primitiveFromJSON(t *PrimitiveType, v any) (any, error) {
	str, isStr := v.(string)
	num, isNum := v.(json.Number)
	switch t.ID {
	case TBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case TInt:
		if isNum {
			n, err := strconv.ParseInt(string(num), 10, 32)
			if err != nil {
				return nil, fmt.Errorf("int %s: %w", num, ErrDataInvalid)
			}
			return int32(n), nil
		}
	case TLong:
		if isNum {
			n, err := strconv.ParseInt(string(num), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("long %s: %w", num, ErrDataInvalid)
			}
			return n, nil
		}
	case TFloat, TDouble:
		var s string
		switch {
		case isNum:
			s = string(num)
		case isStr:
			s = str
		default:
			return nil, jsonTypeErr(t, v)
		}
		bits := 64
		if t.ID == TFloat {
			bits = 32
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", t, s, ErrDataInvalid)
		}
		if t.ID == TFloat {
			return float32(f), nil
		}
		return f, nil
	case TDecimal:
		s := str
		if isNum {
			s = string(num)
		} else if !isStr {
			return nil, jsonTypeErr(t, v)
		}
		return ParseDecimal(s, t.Scale)
	case TDate:
		if isNum {
			n, err := strconv.ParseInt(string(num), 10, 32)
			if err != nil {
				return nil, fmt.Errorf("date %s: %w", num, ErrDataInvalid)
			}
			return int32(n), nil
		}
		if isStr {
			d, err := time.Parse("2006-01-02", str)
			if err != nil {
				return nil, fmt.Errorf("date %q: %w", str, ErrDataInvalid)
			}
			return int32(d.Unix() / 86400), nil
		}
	case TTime:
		if isStr {
			return parseTimeOfDay(str)
		}
	case TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
		if isStr {
			ts, err := parseTimestamp(str)
			if err != nil {
				return nil, fmt.Errorf("%s %q: %w", t, str, ErrDataInvalid)
			}
			if t.ID == TTimestampNs || t.ID == TTimestamptzNs {
				return ts.UnixNano(), nil
			}
			return ts.UnixMicro(), nil
		}
	case TString:
		if isStr {
			return str, nil
		}
	case TUUID:
		if isStr {
			return ParseUUID(str)
		}
	case TFixed, TBinary:
		if isStr {
			b, err := hex.DecodeString(str)
			if err != nil {
				return nil, fmt.Errorf("%s %q: %w", t, str, ErrDataInvalid)
			}
			if t.ID == TFixed && len(b) != t.Length {
				return nil, fmt.Errorf("%s default of %d bytes: %w", t, len(b), ErrDataInvalid)
			}
			return b, nil
		}
	default:
		return nil, fmt.Errorf("default of type %s: %w", t, ErrUnsupported)
	}
	return nil, jsonTypeErr(t, v)
}

// ParseDecimal parses a decimal string ("123.45", "-1E+2") into a Decimal
// of the given scale; digits beyond the scale are an error.
func ParseDecimal(s string, scale int) (Decimal, error) {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		return Decimal{}, fmt.Errorf("decimal %q: %w", s, ErrDataInvalid)
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	if !r.IsInt() {
		return Decimal{}, fmt.Errorf("decimal %q has more than %d fraction digits: %w", s, scale, ErrDataInvalid)
	}
	return Decimal{Unscaled: new(big.Int).Set(r.Num()), Scale: scale}, nil
}

// ParseUUID parses the canonical 8-4-4-4-12 hex form (hyphens optional).
func ParseUUID(s string) ([16]byte, error) {
	var u [16]byte
	h := strings.ReplaceAll(s, "-", "")
	if len(h) != 32 {
		return u, fmt.Errorf("uuid %q: %w", s, ErrDataInvalid)
	}
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return u, fmt.Errorf("uuid %q: %w", s, ErrDataInvalid)
	}
	return u, nil
}

// parseTimeOfDay parses "HH:MM:SS[.ffffff]" into microseconds since midnight.
func parseTimeOfDay(s string) (int64, error) {
	bad := fmt.Errorf("time %q: %w", s, ErrDataInvalid)
	hms, frac, _ := strings.Cut(s, ".")
	parts := strings.Split(hms, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, bad
	}
	var units [3]int64
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			return 0, bad
		}
		units[i] = n
	}
	if units[0] > 23 || units[1] > 59 || units[2] > 59 {
		return 0, bad
	}
	micros := (units[0]*3600 + units[1]*60 + units[2]) * 1_000_000
	if frac != "" {
		if len(frac) > 6 {
			frac = frac[:6]
		}
		n, err := strconv.ParseInt(frac, 10, 64)
		if err != nil {
			return 0, bad
		}
		micros += n * int64(math.Pow10(6-len(frac)))
	}
	return micros, nil
}

var timestampLayouts = []string{
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
}

// parseTimestamp parses an ISO-8601 timestamp with or without an offset
// (without one it is read as UTC).
func parseTimestamp(s string) (time.Time, error) {
	var err error
	for _, l := range timestampLayouts {
		var ts time.Time
		if ts, err = time.Parse(l, s); err == nil {
			return ts.UTC(), nil
		}
	}
	return time.Time{}, err
}
