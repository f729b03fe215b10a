package catalog

import (
	"math"
	"math/big"
	"time"
)

const (
	microsPerHour = int64(time.Hour / time.Microsecond)
	microsPerDay  = 24 * microsPerHour
)

// projectPredicate projects a predicate on a partition field's source
// column onto the partition values (the spec's inclusive projection): every
// row matching p lies in a partition whose value matches the result. ok is
// false when the transform says nothing about p (void; bucket of a range;
// "<>"); the partition field then keeps every file.
func projectPredicate(p Predicate, src *PrimitiveType, tf Transform) (Predicate, bool) {
	if tf.Name == "void" {
		return Predicate{}, false
	}
	switch p.Op {
	case OpIsNull, OpIsNotNull:
		return Predicate{Op: p.Op}, true // every transform keeps nulls null
	case OpNotEq:
		return Predicate{}, false
	}
	if tf.Name == "identity" {
		return p, true
	}
	if p.Op == OpEq || p.Op == OpIn {
		if p.Op == OpEq && len(p.Values) != 1 {
			return Predicate{}, false
		}
		var out []any
		for _, v := range p.Values {
			if v == nil {
				continue
			}
			w, ok := transformValue(src, tf, v)
			if !ok {
				return Predicate{}, false
			}
			out = append(out, w)
			if above, ok := preEpochSlack(tf, w); ok {
				out = append(out, above)
			}
		}
		return Predicate{Op: OpIn, Values: out}, true
	}
	if tf.Name == "bucket" || len(p.Values) != 1 || p.Values[0] == nil {
		return Predicate{}, false
	}
	v := p.Values[0]
	switch p.Op {
	case OpLt:
		// x < v is x <= v-1 on integral sources: a tighter bound.
		if n, ok := stepInt(src, v, -1); ok {
			v = n
		}
		fallthrough
	case OpLtEq:
		w, ok := transformValue(src, tf, v)
		if !ok {
			return Predicate{}, false
		}
		if above, ok := preEpochSlack(tf, w); ok {
			w = above
		}
		return Predicate{Op: OpLtEq, Values: []any{w}}, true
	case OpGt:
		if n, ok := stepInt(src, v, 1); ok {
			v = n
		}
		fallthrough
	case OpGtEq:
		w, ok := transformValue(src, tf, v)
		if !ok {
			return Predicate{}, false
		}
		return Predicate{Op: OpGtEq, Values: []any{w}}, true
	}
	return Predicate{}, false
}

// preEpochSlack returns the partition above w when w is a time partition
// before 1970: writers of old Iceberg versions rounded time transforms of
// such values toward zero, so their rows may sit one partition higher, and
// projections accept that partition too.
func preEpochSlack(tf Transform, w any) (any, bool) {
	if d, ok := w.(int32); ok && d < 0 && isTimeTransform(tf) {
		return d + 1, true
	}
	return nil, false
}

func isTimeTransform(tf Transform) bool {
	switch tf.Name {
	case "year", "month", "day", "hour":
		return true
	}
	return false
}

// stepInt adds d to an integral value (int, long, date, time, timestamps)
// unless that overflows.
func stepInt(t *PrimitiveType, v any, d int64) (any, bool) {
	switch t.ID {
	case TInt, TDate:
		n, ok := v.(int32)
		if !ok || (d < 0 && n == math.MinInt32) || (d > 0 && n == math.MaxInt32) {
			return nil, false
		}
		return n + int32(d), true
	case TLong, TTime, TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
		n, ok := v.(int64)
		if !ok || (d < 0 && n == math.MinInt64) || (d > 0 && n == math.MaxInt64) {
			return nil, false
		}
		return n + d, true
	}
	return nil, false
}

// transformValue applies a partition transform to one non-null value of
// type src. ok is false for a combination it does not compute.
func transformValue(src *PrimitiveType, tf Transform, v any) (any, bool) {
	switch tf.Name {
	case "identity":
		return v, true
	case "bucket":
		b, ok := bucketOfValue(src, v, tf.Param)
		return b, ok
	case "truncate":
		return truncateValue(src, v, tf.Param)
	case "year", "month", "day", "hour":
		return timeTransform(src, tf.Name, v)
	}
	return nil, false
}

// truncateValue is truncate[w] of v.
func truncateValue(t *PrimitiveType, v any, w int) (any, bool) {
	if w <= 0 {
		return nil, false
	}
	switch t.ID {
	case TInt:
		n, ok := v.(int32)
		if !ok {
			return nil, false
		}
		w := int64(w)
		r := int64(n) - ((int64(n)%w)+w)%w
		if r < math.MinInt32 {
			return nil, false
		}
		return int32(r), true
	case TLong:
		n, ok := asInt64(v)
		if !ok {
			return nil, false
		}
		w := int64(w)
		m := ((n % w) + w) % w
		if n < 0 && n-math.MinInt64 < m {
			return nil, false
		}
		return n - m, true
	case TDecimal:
		d, ok := v.(Decimal)
		if !ok || d.Unscaled == nil {
			return nil, false
		}
		m := new(big.Int).Mod(d.Unscaled, big.NewInt(int64(w))) // never negative
		return Decimal{Unscaled: new(big.Int).Sub(d.Unscaled, m), Scale: d.Scale}, true
	case TString:
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		n := 0
		for i := range s {
			if n == w {
				return s[:i], true
			}
			n++
		}
		return s, true
	case TBinary:
		b, ok := v.([]byte)
		if !ok {
			return nil, false
		}
		if len(b) > w {
			b = b[:w]
		}
		return b, true
	}
	return nil, false
}

// timeTransform is year, month, day or hour of a date or timestamp: whole
// units since 1970-01-01 00:00 UTC, floored.
func timeTransform(t *PrimitiveType, name string, v any) (any, bool) {
	n, ok := asInt64(v)
	if !ok {
		return nil, false
	}
	var micros int64
	switch t.ID {
	case TDate:
		switch name {
		case "hour":
			return nil, false
		case "day":
			return int32(n), true
		}
		tm := time.Unix(n*86400, 0).UTC()
		return yearsOrMonths(name, tm), true
	case TTimestamp, TTimestamptz:
		micros = n
	case TTimestampNs, TTimestamptzNs:
		micros = floorDiv(n, 1000)
	default:
		return nil, false
	}
	var r int64
	switch name {
	case "hour":
		r = floorDiv(micros, microsPerHour)
	case "day":
		r = floorDiv(micros, microsPerDay)
	default:
		return yearsOrMonths(name, time.Unix(floorDiv(micros, 1_000_000), 0).UTC()), true
	}
	if r < math.MinInt32 || r > math.MaxInt32 {
		return nil, false
	}
	return int32(r), true
}

// yearsOrMonths counts whole years or months from 1970-01 to tm.
func yearsOrMonths(name string, tm time.Time) int32 {
	r := int32(tm.Year() - 1970)
	if name == "month" {
		r = r*12 + int32(tm.Month()) - 1
	}
	return r
}
