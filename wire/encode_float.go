package wire

import (
	"math"
	"strconv"

	"github.com/icegate/icegate/internal/pgtext"
)

// appendFloat8 formats f as PostgreSQL's float8out: with extra_float_digits
// > 0 (the default 1) the shortest text that reads back exactly, in
// exponent form when the decimal exponent is below -4 or at least 15;
// otherwise %g with 15+extra_float_digits significant digits.
func appendFloat8(dst []byte, f float64, efd int) []byte {
	return appendFloat(dst, f, 64, 15, efd)
}

// appendFloat4 is float4out: as appendFloat8 with float32 precision (6
// digits for the exponent switch).
func appendFloat4(dst []byte, f float32, efd int) []byte {
	return appendFloat(dst, float64(f), 32, 6, efd)
}

func appendFloat(dst []byte, f float64, bitSize, digits, efd int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	if efd <= 0 {
		return strconv.AppendFloat(dst, f, 'g', max(1, digits+efd), bitSize)
	}
	start := len(dst)
	if a := math.Abs(f); a < fixedAbove(digits) && a >= fixedFrom(bitSize) {
		// The shortest form's decimal exponent is in the fixed range:
		// strconv writes it so, and only a tie needs more work.
		dst = strconv.AppendFloat(dst, f, 'f', -1, bitSize)
		if !fixedTie(dst[start:], f, bitSize) {
			return dst
		}
		dst = dst[:start]
	}
	dst = strconv.AppendFloat(dst, f, 'e', -1, bitSize)
	e := parseE(dst[start:])
	if onBoundaryParsed(dst[start:], e, f, bitSize) {
		dst = appendShortest(dst[:start], f, bitSize)
		e = parseE(dst[start:])
	}
	if e.exp < -4 || e.exp >= digits {
		return dst
	}
	return toFixed(dst, start, e)
}

// eNum is a number strconv wrote in 'e' format ("-d.ddde+XX"), taken
// apart: its sign, where its mantissa lies in the text, how many
// significant digits that holds and the decimal exponent.
type eNum struct {
	neg        bool
	mant, mEnd int // the mantissa is b[mant:mEnd], digits and one '.'
	nd         int
	exp        int
}

// parseE takes apart the 'e'-format number b.
func parseE(b []byte) eNum {
	e := eNum{mEnd: len(b)}
	if len(b) > 0 && b[0] == '-' {
		e.neg, e.mant = true, 1
	}
	for k := e.mant; k < len(b); k++ {
		switch ch := b[k]; {
		case ch >= '0' && ch <= '9':
			e.nd++
		case ch == 'e':
			e.mEnd = k
			e.exp = parseExponent(b[k+1:])
			return e
		}
	}
	return e
}

// digitsOf copies the significant digits of e (the text b) to buf.
func (e eNum) digitsOf(b []byte, buf *[24]byte) []byte {
	n := 0
	for _, ch := range b[e.mant:e.mEnd] {
		if ch != '.' && n < len(buf) {
			buf[n] = ch
			n++
		}
	}
	return buf[:n]
}

// toFixed rewrites the number e, written at dst[start:], in fixed notation
// (decimal exponent -4 <= exp < 17).
func toFixed(dst []byte, start int, e eNum) []byte {
	var buf [24]byte
	digits := e.digitsOf(dst[start:], &buf)
	nd, exp := len(digits), e.exp
	dst = dst[:start]
	if e.neg {
		dst = append(dst, '-')
	}
	if exp < 0 {
		dst = append(dst, '0', '.')
		for k := 0; k < -exp-1; k++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	if nd <= exp+1 {
		dst = append(dst, digits...)
		for k := nd; k < exp+1; k++ {
			dst = append(dst, '0')
		}
		return dst
	}
	dst = append(dst, digits[:exp+1]...)
	dst = append(dst, '.')
	return append(dst, digits[exp+1:]...)
}

// splitExponent returns the number of significant digits and the decimal
// exponent of a number strconv wrote in 'e' format.
func splitExponent(b []byte) (digits, exp int) {
	for k := 0; k < len(b); k++ {
		switch ch := b[k]; {
		case ch >= '0' && ch <= '9':
			digits++
		case ch == 'e':
			return digits, parseExponent(b[k+1:])
		}
	}
	return digits, 0
}

// appendShortest appends the shortest 'e'-format decimal that lies strictly
// inside f's rounding interval, as PostgreSQL's Ryu-based float8out and
// float4out do. strconv's shortest output may sit exactly on the interval's
// boundary (a tie that reads back as f by round-half-even, like 1e+23); then
// the next longer correctly rounded decimal that is strictly inside is used.
func appendShortest(dst []byte, f float64, bitSize int) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', -1, bitSize)
	if !onBoundary(dst[start:], f, bitSize) {
		return dst
	}
	maxDigits := 17
	if bitSize == 32 {
		maxDigits = 9
	}
	digits, _ := splitExponent(dst[start:])
	for p := digits + 1; p <= maxDigits; p++ {
		dst = strconv.AppendFloat(dst[:start], f, 'e', p-1, bitSize)
		dst = trimMantissaZeros(dst, start)
		if !onBoundary(dst[start:], f, bitSize) {
			return dst
		}
	}
	return dst
}

// trimMantissaZeros removes trailing zeros (and a bare '.') from the
// mantissa of the 'e'-format number at dst[start:].
func trimMantissaZeros(dst []byte, start int) []byte {
	e := start
	for e < len(dst) && dst[e] != 'e' {
		e++
	}
	end := e
	for end > start && dst[end-1] == '0' {
		end--
	}
	if end > start && dst[end-1] == '.' {
		end--
	}
	if end == e {
		return dst
	}
	n := copy(dst[end:], dst[e:])
	return dst[:end+n]
}

// onBoundary reports whether the decimal s (strconv 'e' format) is exactly
// halfway between f and a neighbour. Cheap tests rule out almost every
// value first: a tie must be a dyadic rational (a decimal with a fraction
// needs a mantissa divisible by 5^k) that is not itself representable.
func onBoundary(s []byte, f float64, bitSize int) bool {
	return onBoundaryParsed(s, parseE(s), f, bitSize)
}

// onBoundaryParsed is onBoundary of s, which parseE took apart as e.
func onBoundaryParsed(s []byte, e eNum, f float64, bitSize int) bool {
	if e.neg {
		f = -f
	}
	var mant uint64
	for _, ch := range s[e.mant:e.mEnd] {
		if ch != '.' {
			mant = mant*10 + uint64(ch-'0')
		}
	}
	return isTie(mant, e.exp-(e.nd-1), f, bitSize)
}

// isTie reports whether mant * 10^scale (positive) is exactly halfway
// between |f| and a neighbour.
func isTie(mant uint64, scale int, f float64, bitSize int) bool {
	if f < 0 {
		f = -f
	}
	if mant == 0 {
		return false
	}
	// A tie needs one significant bit more than the format has; a decimal
	// whose odd part fits in the significand is f itself.
	sigLimit := uint64(1) << 53
	if bitSize == 32 {
		sigLimit = 1 << 24
	}
	if scale >= 0 {
		odd := mant
		for odd%2 == 0 {
			odd /= 2
		}
		for j := 0; j < scale && odd < sigLimit; j++ {
			odd *= 5
		}
		if odd < sigLimit {
			return false
		}
	} else {
		if -scale > 27 {
			return false
		}
		pow5 := pow5u64[-scale]
		if mant%pow5 != 0 {
			return false // not a dyadic rational
		}
		if mant/pow5 < sigLimit {
			return false
		}
	}
	// Nudge s up and down by far less than any ulp; a tie moves to the
	// neighbour on one side.
	var buf [64]byte
	digits := strconv.AppendUint(buf[:0], mant, 10)
	up := append(append([]byte(nil), digits...), "0000000000000000000000001e"...)
	up = strconv.AppendInt(up, int64(scale-25), 10)
	down := strconv.AppendUint(nil, mant-1, 10)
	down = append(down, "9999999999999999999999999e"...)
	down = strconv.AppendInt(down, int64(scale-25), 10)
	fu, _ := strconv.ParseFloat(string(up), bitSize)
	fd, _ := strconv.ParseFloat(string(down), bitSize)
	return fu != f || fd != f
}

// appendFloatNumeric formats f as the numeric PostgreSQL makes of it
// (to_jsonb, float8::numeric of the shortest text): no exponent, no
// negative zero. Not-finite values are not numbers; callers handle them.
func appendFloatNumeric(dst []byte, f float64, bitSize int) []byte {
	var tmp [32]byte
	txt := strconv.AppendFloat(tmp[:0], f, 'e', -1, bitSize)
	return pgtext.AppendNumericText(dst, txt)
}

// parseExponent reads the signed decimal exponent strconv writes after 'e'.
func parseExponent(b []byte) int {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	n := 0
	for _, ch := range b {
		n = n*10 + int(ch-'0')
	}
	if neg {
		return -n
	}
	return n
}

// pow5u64 holds 5^0 to 5^27.
var pow5u64 = func() (p [28]uint64) {
	p[0] = 1
	for k := 1; k < len(p); k++ {
		p[k] = p[k-1] * 5
	}
	return p
}()

// fixedFrom is the least magnitude whose shortest form has decimal
// exponent -4 or more: the float nearest 1e-4 (1e-4 reads as it, and
// every larger float's shortest decimals exceed 1e-4).
func fixedFrom(bitSize int) float64 {
	if bitSize == 32 {
		return float64(float32(1e-4))
	}
	return 1e-4
}

// fixedAbove is 10^digits, exact in both formats: floats below it have a
// shortest form with decimal exponent below digits.
func fixedAbove(digits int) float64 {
	if digits == 6 {
		return 1e6
	}
	return 1e15
}

// fixedTie is isTie of the fixed-notation number s.
func fixedTie(s []byte, f float64, bitSize int) bool {
	// A tie's significant digits read as an integer of at least 2^53 (2^24
	// for float4), so 16 (8) of them; s has no more digits than bytes.
	minLen := 16
	if bitSize == 32 {
		minLen = 8
	}
	if len(s) < minLen {
		return false
	}
	var mant uint64
	scale := 0
	point := false
	for _, ch := range s {
		switch {
		case ch >= '0' && ch <= '9':
			mant = mant*10 + uint64(ch-'0')
			if point {
				scale--
			}
		case ch == '.':
			point = true
		}
	}
	return isTie(mant, scale, f, bitSize)
}
