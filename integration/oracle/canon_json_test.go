package oracle

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// jsonValue writes value i of arr as jsonb prints it: objects with keys in
// jsonb's order (shorter first, then bytewise), ", " and ": " separators,
// numbers as numeric, temporal values as to_jsonb's ISO 8601 strings.
func jsonValue(b *strings.Builder, arr arrow.Array, i int) error {
	if arr.IsNull(i) {
		b.WriteString("null")
		return nil
	}
	switch a := arr.(type) {
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		members := make([]jsonMember, 0, st.NumFields())
		for k, f := range st.Fields() {
			var vb strings.Builder
			if err := jsonValue(&vb, a.Field(k), i); err != nil {
				return err
			}
			members = append(members, jsonMember{key: f.Name, value: vb.String()})
		}
		writeObject(b, members)
		return nil
	case *array.Map:
		start, end := listBounds(a, i)
		keys, items := a.Keys(), a.Items()
		members := make([]jsonMember, 0, end-start)
		for k := start; k < end; k++ {
			key, err := scalarText(keys, k)
			if err != nil {
				return err
			}
			var vb strings.Builder
			if err := jsonValue(&vb, items, k); err != nil {
				return err
			}
			members = append(members, jsonMember{key: key, value: vb.String()})
		}
		writeObject(b, members)
		return nil
	case *array.List, *array.LargeList:
		elems, _ := listElems(a)
		start, end := listBounds(a, i)
		b.WriteByte('[')
		for k := start; k < end; k++ {
			if k > start {
				b.WriteString(", ")
			}
			if err := jsonValue(b, elems, k); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case *array.Boolean:
		b.WriteString(strconv.FormatBool(a.Value(i)))
		return nil
	case *array.Float32:
		b.WriteString(jsonFloat(float64(a.Value(i)), 32))
		return nil
	case *array.Float64:
		b.WriteString(jsonFloat(a.Value(i), 64))
		return nil
	case *array.Int8, *array.Int16, *array.Int32, *array.Int64, *array.Decimal128:
		s, err := scalarText(arr, i)
		b.WriteString(s)
		return err
	case *array.Time64:
		b.WriteString(jsonString(timeText(toMicros(int64(a.Value(i)), a.DataType().(*arrow.Time64Type).Unit))))
		return nil
	case *array.Timestamp:
		dt := a.DataType().(*arrow.TimestampType)
		s := timestampText(toMicros(int64(a.Value(i)), dt.Unit), 'T')
		if dt.TimeZone != "" {
			s += "+00:00"
		}
		b.WriteString(jsonString(s))
		return nil
	}
	s, err := scalarText(arr, i)
	if err != nil {
		return err
	}
	b.WriteString(jsonString(s))
	return nil
}

// jsonFloat is a float inside jsonb: a numeric, or the quoted special.
func jsonFloat(f float64, bits int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return jsonString(pgFloat(f, bits))
	}
	return strconv.FormatFloat(f, 'f', -1, bits)
}

type jsonMember struct{ key, value string }

// writeObject writes members in jsonb key order; of duplicate keys the
// last one stays.
func writeObject(b *strings.Builder, members []jsonMember) {
	slices.SortStableFunc(members, func(x, y jsonMember) int {
		if len(x.key) != len(y.key) {
			return cmp.Compare(len(x.key), len(y.key))
		}
		return strings.Compare(x.key, y.key)
	})
	b.WriteByte('{')
	first := true
	for k, m := range members {
		if k+1 < len(members) && members[k+1].key == m.key {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(jsonString(m.key))
		b.WriteString(": ")
		b.WriteString(m.value)
	}
	b.WriteByte('}')
}

// jsonString quotes s as PostgreSQL's escape_json does.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, ch := range []byte(s) {
		switch ch {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if ch < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, ch)
			} else {
				b.WriteByte(ch)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
