package expr

import (
	"math"
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
	// The same as int64s for the 64-bit path (0: more than 18 digits, only
	// the 128-bit path applies).
	ml64, mr64 := int64(0), int64(0)
	if fitsInt64(ml) {
		ml64 = int64(ml.LowBits())
	}
	if fitsInt64(mr) {
		mr64 = int64(mr.LowBits())
	}
	one := decimal128.FromI64(1)
	// slow is the 128-bit path of one row.
	slow := func(x, y decimal128.Num) (decimal128.Num, bool) {
		if op == "*" {
			if r, ok := mulSmall(x, y); ok {
				return r, true
			}
			return decMul(x, y)
		}
		var ok bool
		if ml != one {
			if x, ok = decMul(x, ml); !ok {
				return x, false
			}
		}
		if mr != one {
			if y, ok = decMul(y, mr); !ok {
				return y, false
			}
		}
		if op == "-" {
			y = y.Negate()
		}
		return decAdd(x, y)
	}
	neg := op == "-"
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
		// The whole batch in int64 when every value and every step fits
		// (money and its products); otherwise row by row: each row takes
		// the 64-bit path when its operands and result fit 64 bits (a
		// result that does is far inside 38 digits), else a NULL row is
		// skipped and a valid one takes the 128-bit path. The 64-bit paths
		// also run over NULL rows, whose slots are zeroed after.
		fast := false
		switch {
		case ia == 0 && ib == 0:
		case op == "*":
			fast = mulBatch64(out, a, b, ia, ib)
		default:
			fast = addBatch64(out, a, b, ia, ib, ml64, mr64, neg)
		}
		for i := 0; i < n && !fast; i++ {
			x, y := a[i&ia], b[i&ib]
			var r decimal128.Num
			var ok bool
			if op == "*" {
				r, ok = mul64(x, y)
			} else {
				r, ok = add64(x, y, ml64, mr64, neg)
			}
			if !ok {
				if !vb.valid(i) {
					out[i] = decimal128.Num{}
					continue
				}
				if r, ok = slow(x, y); !ok {
					buf.Release()
					if valid != nil {
						valid.Release()
					}
					return vec{}, errNumOver
				}
			}
			out[i] = r
		}
		if nulls > 0 {
			for i := range out {
				if !vb.valid(i) {
					out[i] = decimal128.Num{}
				}
			}
		}
		return vec{arr: makeFixed(res, n, valid, nulls, buf), c: c}, nil
	}, true
}

// The batch kernels below compute every row in int64 without a branch
// per row: each operand's fit in 64 bits and each step's overflow are
// folded into one flag, and false (the batch needs the per-row path)
// when any did not fit. out is then partly written and is overwritten.
// A constant operand (index mask 0) is checked and scaled once.

// bad64 is nonzero when v does not fit an int64.
func bad64(v decimal128.Num) int64 { return v.HighBits() ^ int64(v.LowBits())>>63 }

// mulChk is x*y and a word that is nonzero when the product overflows
// an int64 (the high word of the signed 128-bit product is not the sign
// extension of the low one).
func mulChk(x, y int64) (int64, int64) {
	hi, lo := bits.Mul64(uint64(x), uint64(y))
	hi -= uint64(x>>63) & uint64(y)
	hi -= uint64(y>>63) & uint64(x)
	r := int64(lo)
	return r, int64(hi) ^ r>>63
}

// mulBatch64 is out[i] = a[i&ia] * b[i&ib] over len(out) rows.
func mulBatch64(out, a, b []decimal128.Num, ia, ib int) bool {
	if ia == 0 {
		a, b = b, a // the constant second
	}
	if ia == 0 || ib == 0 {
		if bad64(b[0]) != 0 {
			return false
		}
		y := int64(b[0].LowBits())
		a = a[:len(out)]
		var bad int64
		for i, x := range a {
			xv := int64(x.LowBits())
			r, o := mulChk(xv, y)
			bad |= bad64(x) | o
			out[i] = decOf64(r)
		}
		return bad == 0
	}
	a, b = a[:len(out)], b[:len(out)]
	var bad int64
	for i, x := range a {
		y := b[i]
		r, o := mulChk(int64(x.LowBits()), int64(y.LowBits()))
		bad |= bad64(x) | bad64(y) | o
		out[i] = decOf64(r)
	}
	return bad == 0
}

// addBatch64 is out[i] = a[i&ia]*ml + b[i&ib]*mr (minus the second term
// when neg) over len(out) rows; a multiplier of 0 (past 18 digits) has
// no 64-bit path.
func addBatch64(out, a, b []decimal128.Num, ia, ib int, ml, mr int64, neg bool) bool {
	if ml == 0 || mr == 0 {
		return false
	}
	n := len(out)
	// A constant side becomes a scaled int64 term k added to every row.
	if ia == 0 || ib == 0 {
		c, col, mc, m := a[0], b, ml, mr
		if ib == 0 {
			c, col, mc, m = b[0], a, mr, ml
		}
		col = col[:n]
		if bad64(c) != 0 {
			return false
		}
		k, o := mulChk(int64(c.LowBits()), mc)
		if o != 0 {
			return false
		}
		// Row value: k + s*col*m with s = -1 for a column subtracted
		// (neg with the column second), or col*m - k for a constant
		// subtracted.
		sub := neg && ib != 0 // column subtracted from the constant
		if neg && ib == 0 {
			if k == math.MinInt64 {
				return false
			}
			k = -k
		}
		var bad, ovf int64
		for i, x := range col {
			xv := int64(x.LowBits())
			bad |= bad64(x)
			if m != 1 {
				var o int64
				xv, o = mulChk(xv, m)
				bad |= o
			}
			if sub {
				ovf |= xv & -xv // only math.MinInt64 has the sign bit here
				xv = -xv
			}
			r := k + xv
			ovf |= (k ^ r) & (xv ^ r)
			out[i] = decOf64(r)
		}
		return bad == 0 && ovf >= 0
	}
	a, b = a[:n], b[:n]
	var bad, ovf int64
	for i, x := range a {
		y := b[i]
		xv, yv := int64(x.LowBits()), int64(y.LowBits())
		bad |= bad64(x) | bad64(y)
		if ml != 1 {
			var o int64
			xv, o = mulChk(xv, ml)
			bad |= o
		}
		if mr != 1 {
			var o int64
			yv, o = mulChk(yv, mr)
			bad |= o
		}
		if neg {
			ovf |= yv & -yv
			yv = -yv
		}
		r := xv + yv
		ovf |= (xv ^ r) & (yv ^ r)
		out[i] = decOf64(r)
	}
	return bad == 0 && ovf >= 0
}

// int64Of returns v as an int64 and whether it fits one.
func int64Of(v decimal128.Num) (int64, bool) {
	x := int64(v.LowBits())
	return x, v.HighBits() == x>>63
}

// decOf64 is the decimal of an int64: the high word sign-extends it.
func decOf64(x int64) decimal128.Num { return decimal128.New(x>>63, uint64(x)) }

// mul64 multiplies two values whose product fits an int64; ok is false
// when either value or the product does not.
func mul64(x, y decimal128.Num) (decimal128.Num, bool) {
	xv, okx := int64Of(x)
	yv, oky := int64Of(y)
	if !okx || !oky {
		return decimal128.Num{}, false
	}
	hi, lo := bits.Mul64(absU(xv), absU(yv))
	if hi != 0 || lo>>63 != 0 {
		return decimal128.Num{}, false
	}
	r := int64(lo)
	if (xv < 0) != (yv < 0) {
		r = -r
	}
	return decOf64(r), true
}

// add64 is x*mx + y*my (x*mx - y*my when neg) when every step fits an
// int64; ok is false otherwise, or when a multiplier is 0 (too large).
func add64(x, y decimal128.Num, mx, my int64, neg bool) (decimal128.Num, bool) {
	xv, okx := int64Of(x)
	yv, oky := int64Of(y)
	if !okx || !oky || mx == 0 || my == 0 {
		return decimal128.Num{}, false
	}
	if mx != 1 {
		hi, lo := bits.Mul64(absU(xv), uint64(mx))
		if hi != 0 || lo>>63 != 0 {
			return decimal128.Num{}, false
		}
		if xv < 0 {
			xv = -int64(lo)
		} else {
			xv = int64(lo)
		}
	}
	if my != 1 {
		hi, lo := bits.Mul64(absU(yv), uint64(my))
		if hi != 0 || lo>>63 != 0 {
			return decimal128.Num{}, false
		}
		if yv < 0 {
			yv = -int64(lo)
		} else {
			yv = int64(lo)
		}
	}
	if neg {
		if yv == math.MinInt64 {
			return decimal128.Num{}, false
		}
		yv = -yv
	}
	r := xv + yv
	if (xv^r)&(yv^r) < 0 {
		return decimal128.Num{}, false // the int64 sum overflowed
	}
	return decOf64(r), true
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
