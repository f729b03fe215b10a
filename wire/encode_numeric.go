package wire

import (
	"math/bits"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgnumeric"
)

// numericText formats numeric columns: Decimal128(P,S) with exactly S
// decimals; integers as they are; floats as the numeric of their shortest
// text (the value float8::numeric gives).
func numericText(dt arrow.DataType, env *encodeEnv) binder {
	if pgnumeric.IsType(dt) {
		// The engine's unconstrained numeric: each value has its own scale.
		return func(arr arrow.Array) appendFunc {
			a := arr.(*pgnumeric.Array)
			return func(dst []byte, i int) []byte { return pgnumeric.Format(a, i, dst) }
		}
	}
	switch t := dt.(type) {
	case *arrow.Decimal128Type:
		scale := t.Scale
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Decimal128).Values()
			return func(dst []byte, i int) []byte { return appendDecimal128(dst, v[i], scale) }
		}
	case *arrow.Float64Type:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Float64).Float64Values()
			return func(dst []byte, i int) []byte { return appendFloatAsNumeric(dst, v[i], 64) }
		}
	case *arrow.Float32Type:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Float32).Float32Values()
			return func(dst []byte, i int) []byte { return appendFloatAsNumeric(dst, float64(v[i]), 32) }
		}
	}
	if b := integerText(dt); b != nil {
		return b
	}
	return stringText(dt)
}

// appendFloatAsNumeric is numeric's text of a float, NaN and infinities
// included.
func appendFloatAsNumeric(dst []byte, f float64, bitSize int) []byte {
	if f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
		return appendFloat(dst, f, bitSize, 15, 1)
	}
	return appendFloatNumeric(dst, f, bitSize)
}

// decimalDigits writes the decimal digits of |n| into buf from the end and
// returns them, and whether n is negative.
func decimalDigits(buf *[40]byte, n decimal128.Num) ([]byte, bool) {
	neg := n.Sign() < 0
	if neg {
		n = n.Negate()
	}
	hi, lo := uint64(n.HighBits()), n.LowBits()
	pos := len(buf)
	const e19 = 10_000_000_000_000_000_000
	for hi != 0 {
		qhi := hi / e19
		qlo, rem := bits.Div64(hi%e19, lo, e19)
		for k := 0; k < 19; k++ {
			pos--
			buf[pos] = byte('0' + rem%10)
			rem /= 10
		}
		hi, lo = qhi, qlo
	}
	if lo != 0 || pos == len(buf) {
		var tmp [20]byte
		d := strconv.AppendUint(tmp[:0], lo, 10)
		pos -= len(d)
		copy(buf[pos:], d)
	}
	// Strip the leading zeros a full 19-digit group may have left.
	for pos < len(buf)-1 && buf[pos] == '0' {
		pos++
	}
	return buf[pos:], neg
}

// appendDecimal128 formats unscaled n with scale decimals, as numeric_out
// prints numeric(P,S).
func appendDecimal128(dst []byte, n decimal128.Num, scale int32) []byte {
	var buf [40]byte
	digits, neg := decimalDigits(&buf, n)
	if neg {
		dst = append(dst, '-')
	}
	return appendScaled(dst, digits, int(scale))
}

// appendScaled writes digits (no sign, no leading zeros) with a decimal point
// placed scale digits from the right.
func appendScaled(dst, digits []byte, scale int) []byte {
	if scale <= 0 {
		dst = append(dst, digits...)
		if len(digits) == 1 && digits[0] == '0' {
			return dst
		}
		for k := 0; k < -scale; k++ {
			dst = append(dst, '0')
		}
		return dst
	}
	if len(digits) <= scale {
		dst = append(dst, '0', '.')
		for k := len(digits); k < scale; k++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	intLen := len(digits) - scale
	dst = append(dst, digits[:intLen]...)
	dst = append(dst, '.')
	return append(dst, digits[intLen:]...)
}
