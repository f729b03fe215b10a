package expr

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
)

// power(numeric, numeric) for integral exponents, with PostgreSQL 16's
// result scale: at least 16 significant digits judged from the estimated
// decimal weight of the result, and no less than either input's display
// scale. Other exponents go through exp(y * ln(x)) (decPowerReal).

// nbaseDigits returns the base-10000 digits of |u|*10^-s (leading and
// trailing zero digits stripped) and the weight of the first one.
func nbaseDigits(u decimal128.Num, s int32) ([]int, int) {
	if u.Sign() < 0 {
		u = u.Negate()
	}
	var buf [48]byte
	d := appendUint128(buf[:0], u)
	pad := (4 - int(s)%4) % 4
	for k := 0; k < pad; k++ {
		d = append(d, '0')
	}
	frac := (int(s) + pad) / 4
	lead := len(d) % 4
	if lead == 0 {
		lead = 4
	}
	var digits []int
	for i := 0; i < len(d); {
		w := 4
		if i == 0 {
			w = lead
		}
		v := 0
		for _, c := range d[i : i+w] {
			v = v*10 + int(c-'0')
		}
		digits = append(digits, v)
		i += w
	}
	weight := len(digits) - 1 - frac
	for len(digits) > 0 && digits[0] == 0 {
		digits = digits[1:]
		weight--
	}
	for len(digits) > 0 && digits[len(digits)-1] == 0 {
		digits = digits[:len(digits)-1]
	}
	return digits, weight
}

func decPower(b decimal128.Num, sb int32, e decimal128.Num, se int32) (decimal128.Num, int32, error) {
	// The exponent must be an integer that fits in int32.
	ei, rem := e, decimal128.Num{}
	if se > 0 {
		ei, rem = e.Div(pow10(se))
	}
	if rem.Sign() != 0 || !fitsInt64(ei) || int64(ei.LowBits()) > math.MaxInt32 || int64(ei.LowBits()) < math.MinInt32 {
		if b.Sign() < 0 && rem.Sign() != 0 {
			return b, 0, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
		}
		return decPowerReal(b, sb, e, se)
	}
	exp := int64(ei.LowBits())
	if b.Sign() == 0 && exp < 0 {
		return b, 0, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	}
	var f float64
	if digits, weight := nbaseDigits(b, sb); len(digits) > 0 {
		f0 := float64(digits[0])
		p := weight * 4
		for i := 1; i < len(digits) && i*4 < 16; i++ {
			f0 = f0*10000 + float64(digits[i])
			p -= 4
		}
		f = float64(exp) * (math.Log10(f0) + float64(p))
	}
	if f > 40 {
		return b, 0, errNumOver
	}
	rs := int32(16 - int(f))
	rs = max(rs, sb, se, 0)
	rs = min(rs, 1000)
	// Exact value, then rounded half away from zero at rs.
	ten := big.NewInt(10)
	absExp := exp
	if absExp < 0 {
		absExp = -absExp
	}
	pw := new(big.Int).Exp(b.BigInt(), big.NewInt(absExp), nil)
	scale := int64(sb) * absExp // pw * 10^-scale = |base|^|exp| with sign
	var num, den *big.Int
	if exp >= 0 {
		num, den = pw, new(big.Int).Exp(ten, big.NewInt(scale), nil)
	} else {
		num, den = new(big.Int).Exp(ten, big.NewInt(scale), nil), pw
	}
	// result = num / den, at scale rs.
	num.Mul(num, new(big.Int).Exp(ten, big.NewInt(int64(rs)), nil))
	neg := (num.Sign() < 0) != (den.Sign() < 0)
	num.Abs(num)
	den = new(big.Int).Abs(den)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Lsh(r, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	n, ok := bigToDec(q)
	if !ok {
		return n, rs, errNumOver
	}
	return n, rs, nil
}

// decPowerReal is x^y for x >= 0 and any y, as exp(y * ln(x)) with
// PostgreSQL's result scale (power_var): 16 significant digits judged from
// the estimated decimal weight of the result, at least either input's
// scale, at most 1000; a result too small for that scale is zero.
func decPowerReal(x decimal128.Num, sx int32, y decimal128.Num, sy int32) (decimal128.Num, int32, error) {
	if x.Sign() == 0 {
		if y.Sign() < 0 {
			return x, 0, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
		}
		return decimal128.Num{}, clampScale(max(16, int(sx), int(sy))), nil
	}
	ln := bigLn(decFloat(x, sx))
	ln.Mul(ln, decFloat(y, sy))
	val, _ := ln.Float64()
	if math.Abs(val) > 131072*4*1.01 {
		if val > 0 {
			return x, 0, errNumOver
		}
		return decimal128.Num{}, 1000, nil
	}
	val *= 0.434294481903252 // decimal weight of the result
	if val > 40 {
		return x, 0, errNumOver
	}
	rs := clampScale(max(16-int(val), int(sx), int(sy)))
	return roundFloat(bigExp(ln), rs)
}

func decPowerKernel() kernelFn {
	return decimalKernel(NumericType(), func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
		return decPower(xs[0], ss[0], xs[1], ss[1])
	})
}
