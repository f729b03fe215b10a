package expr

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// decimalArithTyped is + - * on two Decimal128 arguments whose result
// is a Decimal128 of the operation's natural scale (the larger scale for
// + and -, the sum for *), as arithDecimalResult types them: one loop
// over the raw values, without the per-value scale bookkeeping of
// decimalKernel. Values of up to 18 digits (money and its products) take
// 64-bit paths; the rest the general 128-bit ones, with the same overflow
// errors.
func decimalArithTyped(op string, lt, rt, res *arrow.Decimal128Type) (kernelFn, bool) {
	switch op {
	case "*":
		if res.Scale != lt.Scale+rt.Scale {
			return nil, false
		}
	case "+", "-":
		if res.Scale != max(lt.Scale, rt.Scale) {
			return nil, false
		}
	default:
		return nil, false
	}
	// Scale multipliers bringing each side to the result's scale (+ -).
	ml, mr := pow10(res.Scale-lt.Scale), pow10(res.Scale-rt.Scale)
	one := decimal128.FromI64(1)
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, res, args), nil
		}
		n, c := outLen(ev, args)
		a, b := values[decimal128.Num](args[0].arr), values[decimal128.Num](args[1].arr)
		ia, ib := args[0].idx(), args[1].idx()
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		buf, out := outBuf[decimal128.Num](ev.mem, n)
		fail := func(err error) (vec, error) {
			buf.Release()
			if valid != nil {
				valid.Release()
			}
			return vec{}, err
		}
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				out[i] = decimal128.Num{}
				continue
			}
			x, y := a[i&ia], b[i&ib]
			var r decimal128.Num
			var ok bool
			if op == "*" {
				r, ok = mulSmall(x, y)
				if !ok {
					r, ok = decMul(x, y)
				}
			} else {
				if ml != one {
					if x, ok = decMul(x, ml); !ok {
						return fail(errNumOver)
					}
				}
				if mr != one {
					if y, ok = decMul(y, mr); !ok {
						return fail(errNumOver)
					}
				}
				if op == "-" {
					y = y.Negate()
				}
				r, ok = decAdd(x, y)
			}
			if !ok {
				return fail(errNumOver)
			}
			out[i] = r
		}
		return vec{arr: makeFixed(res, n, valid, nulls, buf), c: c}, nil
	}, true
}

// mulSmall multiplies two values of at most 18 digits (|v| < 10^18 fits
// an int64 and the product stays below 10^36): no range check needed.
// ok is false when either value is larger.
func mulSmall(x, y decimal128.Num) (decimal128.Num, bool) {
	const lim = 1_000_000_000_000_000_000
	xh, xl, yh, yl := x.HighBits(), x.LowBits(), y.HighBits(), y.LowBits()
	xv, yv := int64(xl), int64(yl)
	if xh != xv>>63 || yh != yv>>63 || xv >= lim || xv <= -lim || yv >= lim || yv <= -lim {
		return decimal128.Num{}, false
	}
	neg := (xv < 0) != (yv < 0)
	hi, lo := bits.Mul64(absU(xv), absU(yv))
	r := decimal128.New(int64(hi), lo)
	if neg {
		r = r.Negate()
	}
	return r, true
}
