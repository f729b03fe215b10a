package expr

import (
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The input forms COPY FROM and text parameters carry most often, read
// straight from the bytes without a string copy or math/big: plain
// integers, plain decimals of at most 18 digits and ISO dates. Anything
// else (spaces, exponents, long or odd input, errors) takes the general
// parsers, which give PostgreSQL's answers and messages.

// maxFastDigits is how many decimal digits always fit an int64.
const maxFastDigits = 18

// plainInt reads [sign] digits of at most maxFastDigits digits.
func plainInt(b []byte) (int64, bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	n := len(b) - i
	if n == 0 || n > maxFastDigits {
		return 0, false
	}
	var v int64
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			return 0, false
		}
		v = v*10 + int64(c)
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseIntBytes is parseInt over the bytes of a text value.
func parseIntBytes(b []byte, bits int, typ string) (int64, error) {
	if v, ok := plainInt(b); ok && v >= -1<<(bits-1) && v < 1<<(bits-1) {
		return v, nil
	}
	return parseInt(string(b), bits, typ)
}

// plainDecimal reads [sign] digits [. digits] (a digit on either side of
// the point) of at most maxFastDigits digits: the value and its scale.
func plainDecimal(b []byte) (decimal128.Num, int32, bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	var v int64
	digits, scale, dot := 0, int32(0), false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if digits == maxFastDigits {
				return decimal128.Num{}, 0, false
			}
			v = v*10 + int64(c-'0')
			digits++
			if dot {
				scale++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return decimal128.Num{}, 0, false
		}
	}
	if digits == 0 {
		return decimal128.Num{}, 0, false
	}
	if neg {
		v = -v
	}
	return decimal128.FromI64(v), scale, true
}

// isoDate reads YYYY-MM-DD (a year of four digits, AD): the days since
// 1970-01-01. A date out of its month's range is not read here (the
// general parser reports it).
func isoDate(b []byte) (int32, bool) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, false
	}
	var y, m, d int
	for _, k := range [...]int{0, 1, 2, 3} {
		c := b[k] - '0'
		if c > 9 {
			return 0, false
		}
		y = y*10 + int(c)
	}
	for _, k := range [...]int{5, 6} {
		c := b[k] - '0'
		if c > 9 {
			return 0, false
		}
		m = m*10 + int(c)
	}
	for _, k := range [...]int{8, 9} {
		c := b[k] - '0'
		if c > 9 {
			return 0, false
		}
		d = d*10 + int(c)
	}
	if y == 0 || m < 1 || m > 12 || d < 1 || d > daysIn(int64(y), m) {
		return 0, false
	}
	return int32(daysFromCivil(int64(y), m, d)), true
}

// parseDateBytes is parseDate over the bytes of a text value.
func parseDateBytes(b []byte) (int32, error) {
	if v, ok := isoDate(b); ok {
		return v, nil
	}
	return parseDate(string(b))
}
