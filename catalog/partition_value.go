package catalog

import (
	"bytes"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
)

// partitionsEqual reports whether two partition tuples are equal value by
// value (nulls equal nulls; NaN equals NaN).
func partitionsEqual(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !ValuesEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// ValuesEqual compares two Go values of value.go for identity of the
// Iceberg value they represent (used to match partition tuples). Values
// written before a type promotion (int -> long, float -> double) compare
// equal to their promoted form.
func ValuesEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case Decimal:
		y, ok := b.(Decimal)
		if !ok || x.Unscaled == nil || y.Unscaled == nil {
			return ok && x.Unscaled == y.Unscaled
		}
		return x.Scale == y.Scale && x.Unscaled.Cmp(y.Unscaled) == 0
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case int32:
		y, ok := asInt64(b)
		return ok && int64(x) == y
	case int64:
		y, ok := asInt64(b)
		return ok && x == y
	case float32:
		switch y := b.(type) {
		case float32:
			return x == y || (math.IsNaN(float64(x)) && math.IsNaN(float64(y)))
		case float64:
			return floatsEqual(x, y)
		}
		return false
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y || (math.IsNaN(x) && math.IsNaN(y))
		case float32:
			return floatsEqual(y, x)
		}
		return false
	case bool, string, [16]byte:
		return a == b
	}
	return false
}

// asInt64 widens int32 and int64 values: a manifest written before an
// int -> long promotion holds int32 where later ones hold int64.
func asInt64(v any) (int64, bool) {
	switch v := v.(type) {
	case int32:
		return int64(v), true
	case int64:
		return v, true
	}
	return 0, false
}

// floatsEqual compares a float written before a float -> double promotion
// with a double: equal when either converts exactly to the other.
func floatsEqual(f float32, d float64) bool {
	if math.IsNaN(float64(f)) || math.IsNaN(d) {
		return math.IsNaN(float64(f)) && math.IsNaN(d)
	}
	return float64(f) == d || float32(d) == f
}

// partitionKey renders a spec id and partition tuple as a bucket key: tuples
// that partitionsEqual deems equal get the same key (ints of either width, a
// float and the double it was promoted to); distinct tuples may share one.
func partitionKey(specID int, values []any) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(specID))
	for _, v := range values {
		b.WriteByte('|')
		switch v := v.(type) {
		case nil:
			b.WriteString("n")
		case bool:
			b.WriteString("b" + strconv.FormatBool(v))
		case int32:
			b.WriteString("i" + strconv.FormatInt(int64(v), 10))
		case int64:
			b.WriteString("i" + strconv.FormatInt(v, 10))
		case float32:
			b.WriteString("f" + strconv.FormatFloat(float64(v), 'g', -1, 32))
		case float64:
			// Bucketed by float32 precision, so a float promoted to double
			// shares the bucket; callers confirm with partitionsEqual.
			b.WriteString("f" + strconv.FormatFloat(float64(float32(v)), 'g', -1, 32))
		case Decimal:
			if v.Unscaled != nil {
				b.WriteString("d" + v.Unscaled.String() + "e" + strconv.Itoa(v.Scale))
			}
		case string:
			b.WriteString("s" + strconv.Quote(v))
		case []byte:
			b.WriteString("x" + hex.EncodeToString(v))
		case [16]byte:
			b.WriteString("u" + hex.EncodeToString(v[:]))
		default:
			b.WriteString("?")
		}
	}
	return b.String()
}
