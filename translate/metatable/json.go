package metatable

import (
	"encoding/hex"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/icegate/icegate/catalog"
)

// The metadata tables' struct, map and list columns are jsonb. Their text
// is built here in jsonb's canonical form, as PostgreSQL prints a jsonb
// value: object keys ordered by length then bytes (the last of equal keys
// wins), ", " and ": " between items.

// mjObj collects an object's members as rendered JSON text.
type mjObj struct {
	keys []string
	vals []string
}

func (o *mjObj) Add(key, val string) {
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, val)
}

func (o *mjObj) String() string {
	idx := make([]int, len(o.keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ka, kb := o.keys[idx[a]], o.keys[idx[b]]
		if len(ka) != len(kb) {
			return len(ka) < len(kb)
		}
		return ka < kb
	})
	var sb strings.Builder
	sb.WriteByte('{')
	n := 0
	for i, j := range idx {
		if i+1 < len(idx) && o.keys[idx[i+1]] == o.keys[j] {
			continue // a later equal key wins
		}
		if n > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(mjString(o.keys[j]))
		sb.WriteString(": ")
		sb.WriteString(o.vals[j])
		n++
	}
	sb.WriteByte('}')
	return sb.String()
}

// mjArray renders rendered items as a JSON array.
func mjArray(items []string) string {
	return "[" + strings.Join(items, ", ") + "]"
}

// mjString quotes s as a JSON string, escaping as PostgreSQL does.
func mjString(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			sb.WriteString(`\"`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\b':
			sb.WriteString(`\b`)
		case r == '\f':
			sb.WriteString(`\f`)
		case r < 0x20:
			sb.WriteString(`\u00`)
			sb.WriteString(hex.EncodeToString([]byte{byte(r)}))
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	sb.WriteByte('"')
	return sb.String()
}

// jsonStringMap renders a map of strings (a snapshot summary).
func jsonStringMap(m map[string]string) any {
	if m == nil {
		return nil
	}
	var o mjObj
	for k, v := range m {
		o.Add(k, mjString(v))
	}
	return o.String()
}

// jsonIntLongMap renders a map<int,long> (column sizes, value counts).
func jsonIntLongMap(m map[int]int64) any {
	if m == nil {
		return nil
	}
	var o mjObj
	for k, v := range m {
		o.Add(strconv.Itoa(k), strconv.FormatInt(v, 10))
	}
	return o.String()
}

// jsonIntBytesMap renders a map<int,binary> (bounds) with bytea's hex
// form, as to_jsonb renders a bytea.
func jsonIntBytesMap(m map[int][]byte) any {
	if m == nil {
		return nil
	}
	var o mjObj
	for k, v := range m {
		o.Add(strconv.Itoa(k), mjBytes(v))
	}
	return o.String()
}

func mjBytes(b []byte) string { return mjString(`\x` + hex.EncodeToString(b)) }

// mjValue renders an Iceberg value (catalog/value.go's Go forms) of type
// t (nil: judged by the Go type alone).
func mjValue(v any, t *catalog.PrimitiveType) string {
	if v == nil {
		return "null"
	}
	id := catalog.TypeID(0)
	if t != nil {
		id = t.ID
	}
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int32:
		if id == catalog.TDate {
			return mjString(time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02"))
		}
		return strconv.FormatInt(int64(x), 10)
	case int64:
		switch id {
		case catalog.TTime:
			return mjString(time.UnixMicro(x).UTC().Format("15:04:05.999999"))
		case catalog.TTimestamp:
			return mjString(time.UnixMicro(x).UTC().Format("2006-01-02T15:04:05.999999"))
		case catalog.TTimestamptz:
			return mjString(time.UnixMicro(x).UTC().Format("2006-01-02T15:04:05.999999-07:00"))
		case catalog.TTimestampNs:
			return mjString(time.Unix(0, x).UTC().Format("2006-01-02T15:04:05.999999999"))
		case catalog.TTimestamptzNs:
			return mjString(time.Unix(0, x).UTC().Format("2006-01-02T15:04:05.999999999-07:00"))
		}
		return strconv.FormatInt(x, 10)
	case float32:
		return mjFloat(float64(x), 32)
	case float64:
		return mjFloat(x, 64)
	case catalog.Decimal:
		return decimalText(x)
	case string:
		return mjString(x)
	case [16]byte:
		h := hex.EncodeToString(x[:])
		return mjString(h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:])
	case []byte:
		if id == catalog.TString {
			return mjString(string(x))
		}
		return mjBytes(x)
	}
	return "null"
}

// mjFloat renders a float as a JSON number; NaN and infinities, which
// JSON lacks, as strings.
func mjFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return `"NaN"`
	case math.IsInf(f, 1):
		return `"Infinity"`
	case math.IsInf(f, -1):
		return `"-Infinity"`
	}
	return strconv.FormatFloat(f, 'f', -1, bits) // jsonb keeps numbers as numeric: no exponent
}

// decimalText renders an exact decimal.
func decimalText(d catalog.Decimal) string {
	if d.Unscaled == nil {
		return "null"
	}
	s := new(big.Int).Abs(d.Unscaled).String()
	if d.Scale > 0 {
		for len(s) <= d.Scale {
			s = "0" + s
		}
		s = s[:len(s)-d.Scale] + "." + s[len(s)-d.Scale:]
	}
	if d.Unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}
