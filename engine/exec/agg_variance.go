package exec

import (
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// varianceKind says which of the six variance aggregates a state computes.
type varianceKind struct {
	sample bool // divide by N-1 (NULL for one row), else by N
	sqrt   bool // standard deviation
}

func newVarianceKind(fn string) varianceKind {
	switch fn {
	case "stddev", "stddev_samp":
		return varianceKind{sample: true, sqrt: true}
	case "stddev_pop":
		return varianceKind{sqrt: true}
	case "variance", "var_samp":
		return varianceKind{sample: true}
	}
	return varianceKind{} // var_pop
}

// floatVarState is the variance family over float4/float8, accumulated
// as PostgreSQL does (Youngs-Cramer: N, Sx and Sxx in float8), so results
// match it to the bit.
type floatVarState struct {
	kind       varianceKind
	n, sx, sxx []float64
}

func (s *floatVarState) release() {}

func (s *floatVarState) grow(n int) {
	s.n, s.sx, s.sxx = growTo(s.n, n), growTo(s.sx, n), growTo(s.sxx, n)
}

func (s *floatVarState) update(g []int32, arg arrow.Array) error {
	var get func(i int) float64
	switch a := arg.(type) {
	case *array.Float32:
		v := a.Float32Values()
		get = func(i int) float64 { return float64(v[i]) }
	case *array.Float64:
		get = a.Value
	default:
		return fmt.Errorf("variance over %s", arg.DataType())
	}
	nulls := arg.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && arg.IsNull(i) {
			continue
		}
		x := get(i)
		n0, sx0 := s.n[k], s.sx[k]
		n, sx, sxx := n0+1, sx0+x, s.sxx[k]
		if n0 > 0 {
			t := x*n - sx
			sxx += t * t / (n * n0)
			if math.IsInf(sx, 0) || math.IsInf(sxx, 0) {
				if !math.IsInf(sx0, 0) && !math.IsInf(x, 0) {
					return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
				}
				sxx = math.NaN()
			}
		} else if math.IsNaN(x) || math.IsInf(x, 0) {
			sxx = math.NaN()
		}
		s.n[k], s.sx[k], s.sxx[k] = n, sx, sxx
	}
	return nil
}

func (s *floatVarState) result(mem memory.Allocator) (arrow.Array, error) {
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for k, n := range s.n {
		d := n
		if s.kind.sample {
			d = n - 1
		}
		if d <= 0 {
			b.AppendNull()
			continue
		}
		v := s.sxx[k] / d
		if s.kind.sqrt {
			v = math.Sqrt(v)
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}

// numericVarState is the variance family over int2/int4/int8/numeric,
// exact: N, the sum of the values and of their squares in big integers at
// the largest input scale, then the final division and square root with
// PostgreSQL's result scale and rounding (numeric_stddev_internal).
type numericVarState struct {
	kind  varianceKind
	n     []int64
	sx    []*big.Int // sum of x at scale sc
	sxx   []*big.Int // sum of x*x at scale 2*sc
	sc    []int32
	x, xx big.Int // scratch
}

func (s *numericVarState) release() {}

func (s *numericVarState) grow(n int) {
	for len(s.n) < n {
		s.n = append(s.n, 0)
		s.sx = append(s.sx, new(big.Int))
		s.sxx = append(s.sxx, new(big.Int))
		s.sc = append(s.sc, 0)
	}
}

var bigTen = big.NewInt(10)

func pow10Big(k int32) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(k)), nil) }

func (s *numericVarState) update(g []int32, arg arrow.Array) error {
	var get func(i int) int32 // sets s.x, returns its scale
	switch a := arg.(type) {
	case *array.Int16, *array.Int32, *array.Int64:
		get = func(i int) int32 { s.x.SetInt64(intAt(a, i)); return 0 }
	default:
		get = func(i int) int32 {
			u, sc := expr.DecimalValue(arg, i)
			if hi, lo := u.HighBits(), u.LowBits(); hi == 0 && lo < 1<<63 || hi == -1 && lo >= 1<<63 {
				s.x.SetInt64(int64(lo)) // fits an int64: no allocation
			} else {
				s.x.Set(u.BigInt())
			}
			return sc
		}
	}
	nulls := arg.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && arg.IsNull(i) {
			continue
		}
		sc := get(i)
		switch {
		case sc > s.sc[k]:
			// Rescale the sums to the new, larger scale.
			d := sc - s.sc[k]
			s.sx[k].Mul(s.sx[k], pow10Big(d))
			s.sxx[k].Mul(s.sxx[k], pow10Big(2*d))
			s.sc[k] = sc
		case sc < s.sc[k]:
			s.x.Mul(&s.x, pow10Big(s.sc[k]-sc))
		}
		s.xx.Mul(&s.x, &s.x)
		s.sx[k].Add(s.sx[k], &s.x)
		s.sxx[k].Add(s.sxx[k], &s.xx)
		s.n[k]++
	}
	return nil
}

func (s *numericVarState) result(mem memory.Allocator) (arrow.Array, error) {
	b := expr.NewNumericBuilder(mem)
	defer b.Release()
	for k, n := range s.n {
		if n == 0 || s.kind.sample && n <= 1 {
			b.AppendNull()
			continue
		}
		u, sc, err := s.final(k)
		if err != nil {
			return nil, err
		}
		b.Append(u, sc)
	}
	return b.NewArray(), nil
}

// final computes group k's result as unscaled value and scale.
func (s *numericVarState) final(k int) (decimal128.Num, int32, error) {
	n := big.NewInt(s.n[k])
	// numerator = N*sum(x*x) - sum(x)^2, at scale 2*sc.
	num := new(big.Int).Mul(n, s.sxx[k])
	num.Sub(num, new(big.Int).Mul(s.sx[k], s.sx[k]))
	numScale := 2 * s.sc[k]
	if num.Sign() <= 0 {
		// Round-off can make it negative; PostgreSQL answers 0 then.
		return decimal128.Num{}, 0, nil
	}
	den := new(big.Int).Mul(n, n)
	if s.kind.sample {
		den.Mul(n, big.NewInt(s.n[k]-1))
	}
	rscale := divResultScale(num, numScale, den, 0)
	// q = round(num / 10^numScale / den, rscale), half away from zero.
	q := new(big.Int).Mul(num, pow10Big(rscale-numScale))
	q = roundQuo(q, den)
	if s.kind.sqrt {
		// sqrt(q*10^-rscale) at rscale digits, correctly rounded: the
		// integer root at one more digit, rounded on that digit.
		t := new(big.Int).Mul(q, pow10Big(rscale+2))
		t.Sqrt(t)
		q = roundQuo(t, bigTen)
	}
	return fitNumeric(q, rscale)
}

// fitNumeric makes q*10^-scale a numeric value of at most 38 digits.
// PostgreSQL's numeric has no such limit: where its result has more
// digits (a large scale from inputs of large scale), the last fractional
// digits are rounded off (half away from zero) rather than failing.
func fitNumeric(q *big.Int, scale int32) (decimal128.Num, int32, error) {
	if excess := int32(len(q.String())) - 38; excess > 0 && scale > 0 {
		excess = min(excess, scale)
		q = roundQuo(q, pow10Big(excess))
		scale -= excess
	}
	if len(q.String()) > 38 {
		return decimal128.Num{}, 0, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
	}
	return decimal128.FromBigInt(q), scale, nil
}

// roundQuo is a/b rounded half away from zero, for a >= 0 and b > 0.
func roundQuo(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Lsh(r, 1).Cmp(b) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// nbaseLead is the weight and first digit of a positive a*10^-sc in
// PostgreSQL's base-10000 numeric digits.
func nbaseLead(a *big.Int, sc int32) (weight int, first int64) {
	e := len(a.String()) - 1 - int(sc) // decimal exponent of the leading digit
	weight = e / 4
	if e < 0 && e%4 != 0 {
		weight--
	}
	shift := int32(sc) + int32(4*weight) // first = floor(a / 10^shift)
	f := new(big.Int)
	if shift >= 0 {
		f.Quo(a, pow10Big(shift))
	} else {
		f.Mul(a, pow10Big(-shift))
	}
	return weight, f.Int64()
}

// divResultScale is PostgreSQL's select_div_scale for positive operands:
// at least 16 significant digits, at least either input's display scale.
func divResultScale(a *big.Int, sa int32, b *big.Int, sb int32) int32 {
	w1, f1 := nbaseLead(a, sa)
	w2, f2 := nbaseLead(b, sb)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale := int32(16 - qweight*4)
	rscale = max(rscale, sa, sb, 0)
	return min(rscale, 1000)
}
