package expr

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
)

// exp, ln, log and log10 of numeric, with PostgreSQL's result scales: at
// least 16 significant digits, at least the input's scale. Values are
// computed in binary floating point of 320 bits (about 96 digits) and
// rounded half away from zero to the result scale; results beyond 38
// digits fail with 22003 as every numeric result of the engine does.

const lnPrec = 320

var errLogZero = pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of zero")
var errLogNeg = pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of a negative number")

// numericLogKernel is exp/ln/log/log10 (one argument) or log(base, x).
func numericLogKernel(fn string, nargs int) (kernelFn, error) {
	return decimalKernel(NumericType(), func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
		switch {
		case nargs == 2:
			return numericLogBase(xs[0], ss[0], xs[1], ss[1])
		case fn == "exp":
			return numericExp(xs[0], ss[0])
		case fn == "ln":
			return numericLn(xs[0], ss[0])
		}
		return numericLogBase(decimal128.FromI64(10), 0, xs[0], ss[0])
	}), nil
}

func decFloat(u decimal128.Num, s int32) *big.Float {
	f := new(big.Float).SetPrec(lnPrec).SetInt(u.BigInt())
	if s > 0 {
		p := new(big.Float).SetPrec(lnPrec).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil))
		f.Quo(f, p)
	}
	return f
}

// roundFloat rounds f half away from zero to scale rs.
func roundFloat(f *big.Float, rs int32) (decimal128.Num, int32, error) {
	p := new(big.Float).SetPrec(lnPrec).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(rs)), nil))
	g := new(big.Float).SetPrec(lnPrec).Mul(f, p)
	half := big.NewFloat(0.5)
	if g.Sign() < 0 {
		g.Sub(g, half)
	} else {
		g.Add(g, half)
	}
	i, _ := g.Int(nil)
	n, ok := bigToDec(i)
	if !ok {
		return n, rs, errNumOver
	}
	return n, rs, nil
}

// bigLn is the natural logarithm of x > 0.
func bigLn(x *big.Float) *big.Float {
	// x = m * 2^e with m in [0.5, 1): ln x = ln m + e ln 2.
	m := new(big.Float).SetPrec(lnPrec)
	e := x.MantExp(m)
	r := atanhLn(m)
	if e != 0 {
		two := new(big.Float).SetPrec(lnPrec).SetInt64(2)
		l2 := atanhLn(two)
		l2.Mul(l2, new(big.Float).SetPrec(lnPrec).SetInt64(int64(e)))
		r.Add(r, l2)
	}
	return r
}

// atanhLn is ln m = 2 atanh((m-1)/(m+1)), for m near 1.
func atanhLn(m *big.Float) *big.Float {
	one := new(big.Float).SetPrec(lnPrec).SetInt64(1)
	num := new(big.Float).SetPrec(lnPrec).Sub(m, one)
	den := new(big.Float).SetPrec(lnPrec).Add(m, one)
	z := new(big.Float).SetPrec(lnPrec).Quo(num, den)
	z2 := new(big.Float).SetPrec(lnPrec).Mul(z, z)
	sum := new(big.Float).SetPrec(lnPrec).Set(z)
	term := new(big.Float).SetPrec(lnPrec).Set(z)
	eps := new(big.Float).SetPrec(lnPrec).SetMantExp(one, -lnPrec-8)
	for k := int64(3); ; k += 2 {
		term.Mul(term, z2)
		t := new(big.Float).SetPrec(lnPrec).Quo(term, new(big.Float).SetPrec(lnPrec).SetInt64(k))
		sum.Add(sum, t)
		if new(big.Float).Abs(t).Cmp(eps) < 0 {
			break
		}
	}
	return sum.Mul(sum, new(big.Float).SetPrec(lnPrec).SetInt64(2))
}

// bigExp is e^x.
func bigExp(x *big.Float) *big.Float {
	// x = k ln 2 + r, |r| <= ln 2 / 2: e^x = 2^k e^r.
	ln2 := atanhLn(new(big.Float).SetPrec(lnPrec).SetInt64(2))
	q := new(big.Float).SetPrec(lnPrec).Quo(x, ln2)
	kf, _ := q.Float64()
	k := math.Round(kf)
	r := new(big.Float).SetPrec(lnPrec).Mul(ln2, new(big.Float).SetPrec(lnPrec).SetFloat64(k))
	r.Sub(x, r)
	one := new(big.Float).SetPrec(lnPrec).SetInt64(1)
	sum := new(big.Float).SetPrec(lnPrec).SetInt64(1)
	term := new(big.Float).SetPrec(lnPrec).SetInt64(1)
	eps := new(big.Float).SetPrec(lnPrec).SetMantExp(one, -lnPrec-8)
	for i := int64(1); ; i++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(lnPrec).SetInt64(i))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	return sum.SetMantExp(sum, int(k))
}

// lnDweight estimates the decimal weight of ln(u*10^-s) as PostgreSQL does
// (estimate_ln_dweight), from the leading base-10000 digits.
func lnDweight(u decimal128.Num, s int32) int {
	if u.Sign() <= 0 {
		return 0
	}
	x := u.BigInt()
	ten := big.NewInt(10)
	scaleP := new(big.Int).Exp(ten, big.NewInt(int64(s)), nil)
	x10 := new(big.Int).Mul(x, ten)
	nine := new(big.Int).Mul(scaleP, big.NewInt(9))
	eleven := new(big.Int).Mul(scaleP, big.NewInt(11))
	if x10.Cmp(nine) >= 0 && x10.Cmp(eleven) <= 0 {
		d := new(big.Int).Sub(x, scaleP)
		if d.Sign() == 0 {
			return 0
		}
		d.Abs(d)
		// Decimal weight of the most significant digit of d*10^-s.
		return len(d.String()) - 1 - int(s)
	}
	digits, dweight := leadingNBase(x, s)
	v := math.Log(float64(digits)) + float64(dweight)*2.302585092994046
	return int(math.Log10(math.Abs(v)))
}

// leadingNBase is PostgreSQL's view of x*10^-s in base 10000: the first
// digit, combined with the second when there is one, and the decimal
// weight of the last digit taken.
func leadingNBase(x *big.Int, s int32) (int64, int) {
	// Align the scale to whole base-10000 digits.
	s4 := (s + 3) / 4 * 4
	if s < 0 {
		s4 = 0
	}
	X := new(big.Int).Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s4-s)), nil))
	str := X.String()
	pad := (4 - len(str)%4) % 4
	for ; pad > 0; pad-- {
		str = "0" + str
	}
	ngroups := len(str) / 4
	weight := ngroups - 1 - int(s4/4)
	group := func(k int) int64 {
		var v int64
		for _, c := range str[4*k : 4*k+4] {
			v = v*10 + int64(c-'0')
		}
		return v
	}
	// Strip trailing zero groups (PostgreSQL does not store them).
	last := ngroups - 1
	for last > 0 && group(last) == 0 {
		last--
	}
	digits := group(0)
	dweight := weight * 4
	if last > 0 {
		digits = digits*10000 + group(1)
		dweight -= 4
	}
	return digits, dweight
}

func clampScale(rs int) int32 {
	return int32(min(max(rs, 0), 1000))
}

func numericLn(u decimal128.Num, s int32) (decimal128.Num, int32, error) {
	switch u.Sign() {
	case 0:
		return u, 0, errLogZero
	case -1:
		return u, 0, errLogNeg
	}
	rs := clampScale(max(16-lnDweight(u, s), int(s)))
	return roundFloat(bigLn(decFloat(u, s)), rs)
}

func numericLogBase(bu decimal128.Num, bs int32, u decimal128.Num, s int32) (decimal128.Num, int32, error) {
	if bu.Sign() == 0 || u.Sign() == 0 {
		return u, 0, errLogZero
	}
	if bu.Sign() < 0 || u.Sign() < 0 {
		return u, 0, errLogNeg
	}
	rs := clampScale(max(16-(lnDweight(u, s)-lnDweight(bu, bs)), int(bs), int(s)))
	lb := bigLn(decFloat(bu, bs))
	if lb.Sign() == 0 {
		return u, 0, errDivZero
	}
	r := bigLn(decFloat(u, s))
	return roundFloat(r.Quo(r, lb), rs)
}

func numericExp(u decimal128.Num, s int32) (decimal128.Num, int32, error) {
	x := decFloat(u, s)
	v, _ := x.Float64()
	v *= 0.434294481903252
	v = max(min(v, 2000), -2000)
	rs := clampScale(max(16-int(v), int(s)))
	if v > 40 {
		return u, 0, errNumOver
	}
	return roundFloat(bigExp(x), rs)
}
