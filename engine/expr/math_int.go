package expr

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
)

// div, gcd, lcm, width_bucket and scale.

// decIntDiv is div(a, b): the quotient truncated toward zero, scale 0.
func decIntDiv(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
	x, y, _, ok := alignScales(xs[0], ss[0], xs[1], ss[1])
	if !ok {
		return x, 0, errNumOver
	}
	if y.Sign() == 0 {
		return x, 0, errDivZero
	}
	return truncDiv(x, y), 0, nil
}

func gcdInt(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// gcdKernel is gcd or lcm over int4, int8 or numeric.
func gcdKernel(lcm bool, t, res arrow.DataType) (kernelFn, error) {
	switch kindOf(t) {
	case kInt4:
		return intGcd[int32](lcm, Int4, math.MaxInt32), nil
	case kInt8:
		return intGcd[int64](lcm, Int8, math.MaxInt64), nil
	case kDecimal, kNumeric:
		return decimalKernel(res, func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
			x, y, s, ok := alignScales(xs[0], ss[0], xs[1], ss[1])
			if !ok {
				return x, s, errNumOver
			}
			a, b := new(big.Int).Abs(x.BigInt()), new(big.Int).Abs(y.BigInt())
			g := new(big.Int).GCD(nil, nil, a, b)
			if lcm {
				if a.Sign() == 0 || b.Sign() == 0 {
					return decimal128.Num{}, s, nil
				}
				g = new(big.Int).Mul(a, new(big.Int).Quo(b, g))
			}
			r, ok := bigToDec(g)
			if !ok {
				return r, s, errNumOver
			}
			return r, s, nil
		}), nil
	}
	return nil, wrongArgs("gcd", []arrow.DataType{t, t})
}

func intGcd[T int32 | int64](lcm bool, t arrow.DataType, maxV uint64) kernelFn {
	rangeErr := intRangeError(kindOf(t))
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, t, args), nil
		}
		n, c := outLen(ev, args)
		a, b := values[T](args[0].arr), values[T](args[1].arr)
		ma, mb := args[0].idx(), args[1].idx()
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		buf, out := outBuf[T](ev.mem, n)
		for i := 0; i < n; i++ {
			out[i] = 0
			if !vb.valid(i) {
				continue
			}
			x, y := absU(int64(a[i&ma])), absU(int64(b[i&mb]))
			g := gcdInt(x, y)
			if lcm {
				if x == 0 || y == 0 {
					continue
				}
				q := y / g
				if x > maxV/q {
					g = maxV + 1
				} else {
					g = x * q
				}
			}
			if g > maxV {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				return vec{}, rangeErr
			}
			out[i] = T(g)
		}
		return vec{arr: makeFixed(t, n, valid, nulls, buf), c: c}, nil
	}
}

func widthBucketError(msg string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "%s", msg)
}

// floatWidthBucket is width_bucket(float8, float8, float8, int4).
func floatWidthBucket(x, lo, hi float64, count int32) (int32, error) {
	if count <= 0 {
		return 0, widthBucketError("count must be greater than zero")
	}
	if math.IsNaN(x) || math.IsNaN(lo) || math.IsNaN(hi) {
		return 0, widthBucketError("operand, lower bound, and upper bound cannot be NaN")
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, widthBucketError("lower and upper bounds must be finite")
	}
	var frac float64
	switch {
	case lo < hi:
		if x < lo {
			return 0, nil
		}
		if x >= hi {
			return bucketPastEnd(count)
		}
		if !math.IsInf(hi-lo, 0) {
			frac = (x - lo) / (hi - lo)
		} else {
			frac = (x/2 - lo/2) / (hi/2 - lo/2)
		}
	case lo > hi:
		if x > lo {
			return 0, nil
		}
		if x <= hi {
			return bucketPastEnd(count)
		}
		if !math.IsInf(lo-hi, 0) {
			frac = (lo - x) / (lo - hi)
		} else {
			frac = (lo/2 - x/2) / (lo/2 - hi/2)
		}
	default:
		return 0, widthBucketError("lower bound cannot equal upper bound")
	}
	r := int32(float64(count) * frac)
	if r >= count {
		r = count - 1
	}
	return r + 1, nil
}

func bucketPastEnd(count int32) (int32, error) {
	if count == math.MaxInt32 {
		return 0, intRangeError(kInt4)
	}
	return count + 1, nil
}

func floatWidthBucketKernel() kernelFn {
	return bucketKernel(func(args []vec) func(i int) (int32, error) {
		x, lo, hi := values[float64](args[0].arr), values[float64](args[1].arr), values[float64](args[2].arr)
		cnt := values[int32](args[3].arr)
		mx, ml, mh, mc := args[0].idx(), args[1].idx(), args[2].idx(), args[3].idx()
		return func(i int) (int32, error) {
			return floatWidthBucket(x[i&mx], lo[i&ml], hi[i&mh], cnt[i&mc])
		}
	})
}

// decWidthBucketKernel is width_bucket over numeric: exact arithmetic.
func decWidthBucketKernel() kernelFn {
	return bucketKernel(func(args []vec) func(i int) (int32, error) {
		x, lo, hi := decimalOf(args[0]), decimalOf(args[1]), decimalOf(args[2])
		cnt := values[int32](args[3].arr)
		mc := args[3].idx()
		return func(i int) (int32, error) {
			count := cnt[i&mc]
			if count <= 0 {
				return 0, widthBucketError("count must be greater than zero")
			}
			xv, lv, hv := decRat(x.get(i)), decRat(lo.get(i)), decRat(hi.get(i))
			var num, den *big.Rat
			switch c := lv.Cmp(hv); {
			case c < 0:
				if xv.Cmp(lv) < 0 {
					return 0, nil
				}
				if xv.Cmp(hv) >= 0 {
					return bucketPastEnd(count)
				}
				num, den = new(big.Rat).Sub(xv, lv), new(big.Rat).Sub(hv, lv)
			case c > 0:
				if xv.Cmp(lv) > 0 {
					return 0, nil
				}
				if xv.Cmp(hv) <= 0 {
					return bucketPastEnd(count)
				}
				num, den = new(big.Rat).Sub(lv, xv), new(big.Rat).Sub(lv, hv)
			default:
				return 0, widthBucketError("lower bound cannot equal upper bound")
			}
			q := new(big.Rat).Quo(num.Mul(num, new(big.Rat).SetInt64(int64(count))), den)
			b := new(big.Int).Quo(q.Num(), q.Denom())
			return int32(b.Int64()) + 1, nil
		}
	})
}

func decRat(u decimal128.Num, s int32) *big.Rat {
	r := new(big.Rat).SetInt(u.BigInt())
	return r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil)))
}

// bucketKernel is a strict int4 kernel from a per-row function.
func bucketKernel(mk func(args []vec) func(i int) (int32, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Int4, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		f := mk(args)
		buf, out := outBuf[int32](ev.mem, n)
		for i := 0; i < n; i++ {
			out[i] = 0
			if !vb.valid(i) {
				continue
			}
			r, err := f(i)
			if err != nil {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				return vec{}, err
			}
			out[i] = r
		}
		return vec{arr: makeFixed(Int4, n, valid, nulls, buf), c: c}, nil
	}
}

// decScaleKernel is scale(numeric), or min_scale(numeric): the smallest
// scale that holds the value exactly.
func decScaleKernel(minimal bool) kernelFn {
	return bucketKernel(func(args []vec) func(i int) (int32, error) {
		d := decimalOf(args[0])
		return func(i int) (int32, error) {
			u, s := d.get(i)
			if minimal {
				_, s = trimScale(u, s)
			}
			return s, nil
		}
	})
}

// trimScale drops the trailing fractional zeros of u*10^-s.
func trimScale(u decimal128.Num, s int32) (decimal128.Num, int32) {
	ten := decimal128.FromI64(10)
	for s > 0 {
		q, r := u.Div(ten)
		if r.Sign() != 0 {
			break
		}
		u, s = q, s-1
	}
	return u, s
}
