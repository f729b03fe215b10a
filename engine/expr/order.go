package expr

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Comparator returns a three-way comparison of a's row i with b's row j in
// PostgreSQL's order for the type (NaN above all numbers, text by bytes,
// decimals exactly across scales). a and b have the same kind of type;
// neither row may be NULL. Sort and min/max use it.
func Comparator(a, b arrow.Array) (func(i, j int) int, error) {
	if _, ok := a.(*array.List); ok {
		return listComparator(a, b)
	}
	ka, kb := kindOf(a.DataType()), kindOf(b.DataType())
	if a.DataType().ID() == arrow.TIMESTAMP && b.DataType().ID() == arrow.TIMESTAMP {
		ka, kb = kTimestamp, kTimestamp // any unit: compare the raw int64 values
	}
	if ka != kb && !(ka.isDecimal() && kb.isDecimal()) {
		return nil, fmt.Errorf("compare %s with %s", a.DataType(), b.DataType())
	}
	va, vb := vec{arr: a}, vec{arr: b}
	switch ka {
	case kInt2:
		x, y := values[int16](a), values[int16](b)
		return func(i, j int) int { return cmpOrd(x[i], y[j]) }, nil
	case kInt4, kDate:
		x, y := values[int32](a), values[int32](b)
		return func(i, j int) int { return cmpOrd(x[i], y[j]) }, nil
	case kInt8, kTime, kTimestamp, kTimestamptz:
		x, y := values[int64](a), values[int64](b)
		return func(i, j int) int { return cmpOrd(x[i], y[j]) }, nil
	case kFloat4:
		x, y := values[float32](a), values[float32](b)
		return func(i, j int) int { return floatCmp(x[i], y[j]) }, nil
	case kFloat8:
		x, y := values[float64](a), values[float64](b)
		return func(i, j int) int { return floatCmp(x[i], y[j]) }, nil
	case kDecimal, kNumeric:
		x, y := decimalOf(va), decimalOf(vb)
		if !x.numeric && !y.numeric && x.s == y.s {
			return func(i, j int) int { return x.vals[i].Cmp(y.vals[j]) }, nil
		}
		return func(i, j int) int {
			u, s := x.get(i)
			w, t := y.get(j)
			return decCmp(u, s, w, t)
		}, nil
	case kText, kBytea:
		x, y := binaryOf(va), binaryOf(vb)
		return func(i, j int) int { return bytes.Compare(x.get(i), y.get(j)) }, nil
	case kInterval:
		x, y := values[arrow.MonthDayNanoInterval](a), values[arrow.MonthDayNanoInterval](b)
		return func(i, j int) int { return cmpIval(ivalOf(x[i]), ivalOf(y[j])) }, nil
	case kFixed:
		x, y := fixedBinaryOf(va), fixedBinaryOf(vb)
		return func(i, j int) int { return bytes.Compare(x.get(i), y.get(j)) }, nil
	case kBool:
		x, y := boolsOf(va), boolsOf(vb)
		return func(i, j int) int {
			p, q := x.get(i), y.get(j)
			switch {
			case p == q:
				return 0
			case !p:
				return -1
			}
			return 1
		}, nil
	}
	return nil, fmt.Errorf("no ordering for type %s", a.DataType())
}

func cmpOrd[T ordered](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// DecimalValue returns row i of a Decimal128 or NumericType array as
// unscaled value and scale.
func DecimalValue(a arrow.Array, i int) (decimal128.Num, int32) {
	return decimalOf(vec{arr: a}).get(i)
}
