package expr

import (
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
)

// Exact decimal arithmetic on (unscaled, scale) pairs held in 128 bits.
// Values stay below 10^38 in magnitude, the range of Decimal128(38, S); a
// result beyond it is 22003 "value overflows numeric format".

var (
	maxDec     = decimal128.GetMaxValue(38)
	minDec     = maxDec.Negate()
	errNumOver = pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
)

func pow10(k int32) decimal128.Num { return decimal128.GetScaleMultiplier(int(k)) }

func inDecRange(n decimal128.Num) bool {
	return n.LessEqual(maxDec) && n.GreaterEqual(minDec)
}

func decAdd(a, b decimal128.Num) (decimal128.Num, bool) {
	r := a.Add(b)
	// The inputs are below 10^38 < 2^127, so the sum cannot wrap.
	return r, inDecRange(r)
}

// fitsInt64 reports whether n is in int64 range.
func fitsInt64(n decimal128.Num) bool {
	hi, lo := n.HighBits(), n.LowBits()
	return (hi == 0 && lo>>63 == 0) || (hi == -1 && lo>>63 == 1)
}

func decMul(a, b decimal128.Num) (decimal128.Num, bool) {
	if fitsInt64(a) && fitsInt64(b) {
		x, y := int64(a.LowBits()), int64(b.LowBits())
		neg := (x < 0) != (y < 0)
		ux, uy := absU(x), absU(y)
		hi, lo := bits.Mul64(ux, uy)
		if hi>>63 == 0 {
			r := decimal128.New(int64(hi), lo)
			if neg {
				r = r.Negate()
			}
			return r, inDecRange(r)
		}
	}
	r := new(big.Int).Mul(a.BigInt(), b.BigInt())
	return bigToDec(r)
}

func absU(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

func bigToDec(r *big.Int) (decimal128.Num, bool) {
	if r.BitLen() > 127 {
		return decimal128.Num{}, false
	}
	n := decimal128.FromBigInt(r)
	return n, inDecRange(n)
}

// decRescale changes the scale of u from s to t, rounding half away from
// zero when digits are dropped.
func decRescale(u decimal128.Num, s, t int32) (decimal128.Num, bool) {
	switch {
	case t == s:
		return u, true
	case t > s:
		if t-s > 38 {
			if u.Sign() == 0 {
				return u, true
			}
			return u, false
		}
		return decMul(u, pow10(t-s))
	}
	d := s - t
	if d > 38 {
		return decimal128.Num{}, true
	}
	return roundDiv(u, pow10(d)), true
}

// roundDiv is u / m rounded half away from zero (m > 0).
func roundDiv(u, m decimal128.Num) decimal128.Num {
	neg := u.Sign() < 0
	if neg {
		u = u.Negate()
	}
	q, r := u.Div(m)
	if r2, _ := decAdd(r, r); r2.GreaterEqual(m) {
		q = q.Add(decimal128.FromI64(1))
	}
	if neg {
		q = q.Negate()
	}
	return q
}

// truncDiv is u / m truncated toward zero (m > 0).
func truncDiv(u, m decimal128.Num) decimal128.Num {
	q, _ := u.Div(m)
	return q
}

// alignScales brings a and b to a common scale (the larger).
func alignScales(a decimal128.Num, sa int32, b decimal128.Num, sb int32) (decimal128.Num, decimal128.Num, int32, bool) {
	if sa == sb {
		return a, b, sa, true
	}
	if sa < sb {
		a2, ok := decRescale(a, sa, sb)
		return a2, b, sb, ok
	}
	b2, ok := decRescale(b, sb, sa)
	return a, b2, sa, ok
}

// decCmp compares a*10^-sa with b*10^-sb exactly.
func decCmp(a decimal128.Num, sa int32, b decimal128.Num, sb int32) int {
	if sa == sb {
		return a.Cmp(b)
	}
	x, y, _, ok := alignScales(a, sa, b, sb)
	if ok {
		return x.Cmp(y)
	}
	ba, bb := a.BigInt(), b.BigInt()
	if sa < sb {
		ba.Mul(ba, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(sb-sa)), nil))
	} else {
		bb.Mul(bb, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(sa-sb)), nil))
	}
	return ba.Cmp(bb)
}

// decWeight returns PostgreSQL's base-10000 weight of u*10^-s and its
// first base-10000 digit (0, 0 for zero).
func decWeight(u decimal128.Num, s int32) (int, int) {
	if u.Sign() == 0 {
		return 0, 0
	}
	if u.Sign() < 0 {
		u = u.Negate()
	}
	var buf [48]byte
	d := appendUint128(buf[:0], u)
	// Pad the fraction to a multiple of 4 digits.
	pad := (4 - int(s)%4) % 4
	for k := 0; k < pad; k++ {
		d = append(d, '0')
	}
	frac := (int(s) + pad) / 4
	n := len(d)
	groups := (n + 3) / 4
	lead := n - (groups-1)*4
	first, _ := strconv.Atoi(string(d[:lead]))
	return groups - 1 - frac, first
}

// divScale is PostgreSQL's select_div_scale.
func divScale(a decimal128.Num, sa int32, b decimal128.Num, sb int32) int32 {
	w1, f1 := decWeight(a, sa)
	w2, f2 := decWeight(b, sb)
	qw := w1 - w2
	if f1 <= f2 {
		qw--
	}
	rs := int32(16 - qw*4)
	rs = max(rs, sa, sb, 0)
	return min(rs, 1000)
}

// decDiv divides with PostgreSQL's result scale, rounding half away from
// zero. b must not be zero.
func decDiv(a decimal128.Num, sa int32, b decimal128.Num, sb int32) (decimal128.Num, int32, error) {
	rs := divScale(a, sa, b, sb)
	q, err := decDivScale(a, sa, b, sb, rs)
	return q, rs, err
}

// decDivScale computes a/b rounded to scale rs.
func decDivScale(a decimal128.Num, sa int32, b decimal128.Num, sb int32, rs int32) (decimal128.Num, error) {
	// q = a * 10^(rs + sb - sa) / b
	num, den := a.BigInt(), b.BigInt()
	e := int64(rs) + int64(sb) - int64(sa)
	ten := big.NewInt(10)
	if e >= 0 {
		num.Mul(num, new(big.Int).Exp(ten, big.NewInt(e), nil))
	} else {
		den.Mul(den, new(big.Int).Exp(ten, big.NewInt(-e), nil))
	}
	neg := (num.Sign() < 0) != (den.Sign() < 0)
	num.Abs(num)
	den.Abs(den)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	r.Lsh(r, 1)
	if r.Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	n, ok := bigToDec(q)
	if !ok {
		return n, errNumOver
	}
	return n, nil
}

// decMod is PostgreSQL's numeric %: a - trunc(a/b)*b, at scale max(sa, sb).
func decMod(a decimal128.Num, sa int32, b decimal128.Num, sb int32) (decimal128.Num, int32, error) {
	x, y, s, ok := alignScales(a, sa, b, sb)
	if !ok {
		return x, s, errNumOver
	}
	_, r := x.Div(y)
	return r, s, nil
}

// decToInt64 rounds u*10^-s half away from zero to an int64.
func decToInt64(u decimal128.Num, s int32) (int64, bool) {
	r, _ := decRescale(u, s, 0)
	if !fitsInt64(r) {
		return 0, false
	}
	return int64(r.LowBits()), true
}

// parseDecimal parses PostgreSQL numeric input text ("-12.50", "1e3",
// " 7 ") into unscaled and scale, keeping the written scale.
func parseDecimal(s string) (decimal128.Num, int32, bool) {
	s = trimSpace(s)
	if s == "" {
		return decimal128.Num{}, 0, false
	}
	neg := false
	switch s[0] {
	case '+':
		s = s[1:]
	case '-':
		neg = true
		s = s[1:]
	}
	mant := make([]byte, 0, len(s))
	scale := 0
	seenDot, seenDigit := false, false
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			mant = append(mant, c)
			seenDigit = true
			if seenDot {
				scale++
			}
		case c == '.' && !seenDot:
			seenDot = true
		default:
			goto rest
		}
	}
rest:
	if !seenDigit {
		return decimal128.Num{}, 0, false
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return decimal128.Num{}, 0, false
		}
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > 1000 || exp < -1000 {
			return decimal128.Num{}, 0, false
		}
		scale -= exp
		if scale < 0 {
			for k := 0; k < -scale; k++ {
				mant = append(mant, '0')
			}
			scale = 0
		}
	}
	b, ok := new(big.Int).SetString(string(mant), 10)
	if !ok {
		return decimal128.Num{}, 0, false
	}
	if neg {
		b.Neg(b)
	}
	if scale > 38 {
		// Round away the digits beyond what 128 bits hold.
		d := int64(scale - 38)
		m := new(big.Int).Exp(big.NewInt(10), big.NewInt(d), nil)
		q, r := new(big.Int).QuoRem(b, m, new(big.Int))
		r.Abs(r).Lsh(r, 1)
		if r.Cmp(m) >= 0 {
			if b.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		b, scale = q, 38
	}
	n, ok := bigToDec(b)
	return n, int32(scale), ok
}

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// numericSyntaxOK reports whether s is well-formed numeric input
// ([sign] digits [. digits] [e [sign] digits], surrounding spaces allowed).
func numericSyntaxOK(s string) bool {
	s = trimSpace(s)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	mant, exp, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp, hasExp = s[:i], s[i+1:], true
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart+frac == "" || strings.Trim(intPart+frac, "0123456789") != "" {
		return false
	}
	if hasExp {
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		if exp == "" || strings.Trim(exp, "0123456789") != "" {
			return false
		}
	}
	return true
}

// overlongNumericInput is the error for well-formed numeric input that has
// more digits than Decimal128 holds before rounding: for numeric(P,S) the
// value is rounded to S exactly and either fits (ok) or overflows as
// PostgreSQL reports it; unconstrained numeric beyond 38 digits is beyond
// icegate's numeric (22003 "value overflows numeric format").
func overlongNumericInput(s string, t *arrow.Decimal128Type) (decimal128.Num, error) {
	if t == nil {
		return decimal128.Num{}, errNumOver
	}
	r, ok := new(big.Rat).SetString(trimSpace(s))
	if !ok {
		return decimal128.Num{}, errNumOver
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)))
	// Round half away from zero to an integer of unscaled units.
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if new(big.Int).Lsh(new(big.Int).Abs(m), 1).Cmp(r.Denom()) >= 0 {
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Precision)), nil)
	if n, ok := bigToDec(q); ok && new(big.Int).Abs(q).Cmp(limit) < 0 {
		return n, nil
	}
	e := pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow")
	if d := t.Precision - t.Scale; d > 0 {
		return decimal128.Num{}, e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", t.Precision, t.Scale, d)
	}
	return decimal128.Num{}, e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 1.", t.Precision, t.Scale)
}
