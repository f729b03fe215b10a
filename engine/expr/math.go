package expr

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
)

// Mathematical functions: round trunc ceil floor sqrt power, on float8 and
// numeric, with PostgreSQL's rounding (rint for float8: half to even;
// half away from zero for numeric) and errors.

func floatRounder(fn string) func(float64) (float64, error) {
	switch fn {
	case "round":
		return func(x float64) (float64, error) { return math.RoundToEven(x), nil }
	case "trunc":
		return func(x float64) (float64, error) { return math.Trunc(x), nil }
	case "ceil", "ceiling":
		return func(x float64) (float64, error) { return math.Ceil(x), nil }
	case "floor":
		return func(x float64) (float64, error) { return math.Floor(x), nil }
	case "sqrt":
		return func(x float64) (float64, error) {
			if x < 0 {
				return 0, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
			}
			return math.Sqrt(x), nil
		}
	}
	return nil
}

// decRound rounds u*10^-s to scale t (t may be negative) by mode:
// 'r' half away from zero, 't' toward zero, 'c' up, 'f' down. The result
// has scale max(t, 0).
func decRound(u decimal128.Num, s, t int32, mode byte) (decimal128.Num, int32, bool) {
	rs := max(t, 0)
	if t >= s {
		r, ok := decRescale(u, s, rs)
		return r, rs, ok
	}
	d := s - t
	if d > 38 {
		if mode == 'c' && u.Sign() > 0 || mode == 'f' && u.Sign() < 0 {
			// Rounds to +-10^-t: only representable when small.
			return decimal128.Num{}, rs, false
		}
		return decimal128.Num{}, rs, true
	}
	m := pow10(d)
	var q decimal128.Num
	switch mode {
	case 'r':
		q = roundDiv(u, m)
	default:
		q = truncDiv(u, m)
		_, rem := u.Div(m)
		if rem.Sign() != 0 {
			if mode == 'c' && u.Sign() > 0 {
				q = q.Add(decimal128.FromI64(1))
			} else if mode == 'f' && u.Sign() < 0 {
				q = q.Sub(decimal128.FromI64(1))
			}
		}
	}
	// q is at scale t; bring to rs.
	if t < 0 {
		var ok bool
		q, ok = decMul(q, pow10(-t))
		if !ok {
			return q, rs, false
		}
	}
	return q, rs, true
}

func roundMode(fn string) byte {
	switch fn {
	case "trunc":
		return 't'
	case "ceil", "ceiling":
		return 'c'
	case "floor":
		return 'f'
	}
	return 'r'
}

// decRoundKernel is round/trunc/ceil/floor(numeric) to scale 0.
func decRoundKernel(fn string, t arrow.DataType) kernelFn {
	mode := roundMode(fn)
	return decimalKernel(t, func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
		r, s, ok := decRound(xs[0], ss[0], 0, mode)
		if !ok {
			return r, s, errNumOver
		}
		return r, s, nil
	})
}

// decRoundToKernel is round/trunc(numeric, int4).
func decRoundToKernel(fn string) kernelFn {
	mode := roundMode(fn)
	inner := decimalKernel(NumericType(), func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
		t := int32(xs[1].LowBits())
		r, s, ok := decRound(xs[0], ss[0], t, mode)
		if !ok {
			return r, s, errNumOver
		}
		return r, s, nil
	})
	toDec := castNumber(kDecimal, &arrow.Decimal128Type{Precision: 10, Scale: 0})
	return func(ev *evalCtx, args []vec) (vec, error) {
		// Present the int4 scale argument as a decimal so one kernel reads both.
		sc, err := toDec(ev, args[1:2])
		if err != nil {
			return vec{}, err
		}
		defer sc.arr.Release()
		return inner(ev, []vec{args[0], sc})
	}
}

// decSqrt is PostgreSQL's sqrt(numeric) with its result scale.
func decSqrt(u decimal128.Num, s int32) (decimal128.Num, int32, error) {
	if u.Sign() < 0 {
		return u, 0, pgerr.New(pgerr.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
	}
	w, _ := decWeight(u, s)
	sweight := (w+1)*4/2 - 1
	rs := int32(16 - sweight)
	rs = max(rs, s, 0)
	rs = min(rs, 1000)
	if u.Sign() == 0 {
		return u, rs, nil
	}
	// X = u * 10^(2(rs+1) - s); r = floor(sqrt(X)); round off the extra digit.
	e := int64(2*(rs+1) - s)
	x := u.BigInt()
	x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil))
	r := new(big.Int).Sqrt(x)
	r.Add(r, big.NewInt(5))
	r.Quo(r, big.NewInt(10))
	n, ok := bigToDec(r)
	if !ok {
		return n, rs, errNumOver
	}
	return n, rs, nil
}

func decSqrtKernel() kernelFn {
	return decimalKernel(NumericType(), func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
		return decSqrt(xs[0], ss[0])
	})
}

// floatPower is power(float8, float8) with PostgreSQL's checks.
func floatPower(ev *evalCtx, args []vec) (vec, error) {
	if constNull(args) {
		return nullResult(ev, Float8, args), nil
	}
	n, c := outLen(ev, args)
	a, b := values[float64](args[0].arr), values[float64](args[1].arr)
	ma, mb := args[0].idx(), args[1].idx()
	valid, nulls := andValidity(ev.mem, n, args)
	vb := bitmap{m: -1}
	if valid != nil {
		vb.b = valid.Bytes()
	}
	buf, out := outBuf[float64](ev.mem, n)
	for i := 0; i < n; i++ {
		if !vb.valid(i) {
			out[i] = 0
			continue
		}
		x, y := a[i&ma], b[i&mb]
		var err error
		switch {
		case x == 0 && y < 0:
			err = pgerr.New(pgerr.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
		case x < 0 && math.Floor(y) != y && !math.IsInf(y, 0):
			err = pgerr.New(pgerr.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
		}
		r := math.Pow(x, y)
		if err == nil && math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			err = errFloatOverflow
		}
		if err == nil && r == 0 && x != 0 && !math.IsInf(y, 0) && !math.IsInf(x, 0) {
			err = errFloatUnderflow
		}
		if err != nil {
			buf.Release()
			if valid != nil {
				valid.Release()
			}
			return vec{}, err
		}
		out[i] = r
	}
	return vec{arr: makeFixed(Float8, n, valid, nulls, buf), c: c}, nil
}
