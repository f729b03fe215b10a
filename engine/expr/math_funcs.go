package expr

import (
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
)

// Mathematical functions beyond the core catalogue. float8 arguments take
// int, float and numeric values (PostgreSQL casts those implicitly).
//
//	function                                  arguments                   result
//	exp ln log log10                          float8 | num                float8 | NumericType()
//	log                                       num base, num               NumericType() (only numeric)
//	sign                                      float8 | num                float8 | Decimal128(38,0)
//	cbrt degrees radians                      float8                      float8
//	sin cos tan cot asin acos atan            float8                      float8
//	sinh cosh tanh asinh acosh atanh          float8                      float8
//	atan2                                     float8, float8              float8
//	pi random                                 (none)                      float8 (random: per row, [0,1))
//	mod                                       int, int | num, num         as the % operator
//	div                                       num, num                    Decimal128(38,0) (truncated quotient)
//	gcd lcm                                   int4 | int8 | num pairs     that type (num: scale max(S1,S2))
//	width_bucket                              float8 x, lo, hi, int4 n    int4
//	                                          num x, lo, hi, int4 n       int4
//	scale min_scale                           num                         int4 (display scale; smallest exact scale)
//	trim_scale                                num                         NumericType() (trailing zeros dropped)

var float8Unary = map[string]func(float64) (float64, error){
	"exp":     floatExp,
	"ln":      floatLog(math.Log),
	"log":     floatLog(math.Log10),
	"log10":   floatLog(math.Log10),
	"sign":    floatSign,
	"cbrt":    func(x float64) (float64, error) { return math.Cbrt(x), nil },
	"degrees": func(x float64) (float64, error) { return checkFloat(x*(180/math.Pi), x) },
	"radians": func(x float64) (float64, error) { return checkFloat(x*(math.Pi/180), x) },
	"sin":     floatTrig(math.Sin),
	"cos":     floatTrig(math.Cos),
	"tan":     floatTrig(math.Tan),
	"cot":     floatTrig(func(x float64) float64 { return 1 / math.Tan(x) }),
	"asin":    floatInverseTrig(math.Asin),
	"acos":    floatInverseTrig(math.Acos),
	"atan":    func(x float64) (float64, error) { return math.Atan(x), nil },
	"sinh":    func(x float64) (float64, error) { return math.Sinh(x), nil },
	"cosh":    func(x float64) (float64, error) { return math.Cosh(x), nil },
	"tanh":    func(x float64) (float64, error) { return math.Tanh(x), nil },
	"asinh":   func(x float64) (float64, error) { return math.Asinh(x), nil },
	"acosh": func(x float64) (float64, error) {
		if x < 1 {
			return 0, errInputRange
		}
		return math.Acosh(x), nil
	},
	"atanh": func(x float64) (float64, error) {
		if x < -1 || x > 1 {
			return 0, errInputRange
		}
		return math.Atanh(x), nil
	},
}

var errInputRange = pgerr.New(pgerr.NumericValueOutOfRange, "input is out of range")

// checkFloat fails with overflow when a finite input gave an infinite result.
func checkFloat(r, x float64) (float64, error) {
	if math.IsInf(r, 0) && !math.IsInf(x, 0) {
		return 0, errFloatOverflow
	}
	return r, nil
}

func floatExp(x float64) (float64, error) {
	switch {
	case math.IsNaN(x):
		return x, nil
	case math.IsInf(x, 1):
		return x, nil
	case math.IsInf(x, -1):
		return 0, nil
	}
	r := math.Exp(x)
	if math.IsInf(r, 0) {
		return 0, errFloatOverflow
	}
	if r == 0 {
		return 0, errFloatUnderflow
	}
	return r, nil
}

func floatLog(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		switch {
		case x == 0:
			return 0, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of zero")
		case x < 0:
			return 0, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of a negative number")
		}
		return f(x), nil
	}
}

func floatSign(x float64) (float64, error) {
	switch {
	case x > 0:
		return 1, nil
	case x < 0:
		return -1, nil
	}
	return 0, nil
}

func floatTrig(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if math.IsNaN(x) {
			return x, nil
		}
		if math.IsInf(x, 0) {
			return 0, errInputRange
		}
		return f(x), nil
	}
}

func floatInverseTrig(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if math.IsNaN(x) {
			return x, nil
		}
		if x < -1 || x > 1 {
			return 0, errInputRange
		}
		return f(x), nil
	}
}

// toFloat8 reports whether a value of type t goes to a float8 parameter.
func toFloat8(t arrow.DataType) bool {
	k := kindOf(t)
	return k.isNumber() || k == kNull
}

func resolveMath(fn string, args []arrow.DataType) (Resolved, bool, error) {
	n := len(args)
	floats := func(k int) Resolved {
		out := make([]arrow.DataType, k)
		for i := range out {
			out[i] = Float8
		}
		return Resolved{Args: out, Result: Float8}
	}
	allNum := func() bool {
		for _, a := range args {
			if !toFloat8(a) {
				return false
			}
		}
		return true
	}
	// anyDecimal: a numeric argument and no float one (the numeric variant).
	anyDecimal := func() bool {
		dec := false
		for _, a := range args {
			k := kindOf(a)
			if k.isFloat() {
				return false
			}
			dec = dec || k.isDecimal()
		}
		return dec
	}
	var r Resolved
	switch fn {
	case "exp", "ln", "log", "log10", "sign":
		if n == 2 && fn == "log" && allNum() && !kindOf(args[0]).isFloat() && !kindOf(args[1]).isFloat() {
			return Resolved{Args: []arrow.DataType{asDecimal(args[0]), asDecimal(args[1])}, Result: NumericType()}, true, nil
		}
		if n != 1 || !allNum() {
			break
		}
		if anyDecimal() {
			if fn == "sign" {
				return Resolved{Args: []arrow.DataType{args[0]}, Result: &arrow.Decimal128Type{Precision: 38, Scale: 0}}, true, nil
			}
			return Resolved{Args: []arrow.DataType{args[0]}, Result: NumericType()}, true, nil
		}
		return floats(1), true, nil
	case "atan2":
		if n == 2 && allNum() {
			return floats(2), true, nil
		}
	case "pi", "random":
		if n == 0 {
			return floats(0), true, nil
		}
	case "mod":
		if n != 2 || !allNum() || kindOf(args[0]).isFloat() || kindOf(args[1]).isFloat() {
			break
		}
		res, err := resolveArith("%", args[0], args[1])
		if err != nil {
			break
		}
		return res, true, nil
	case "div":
		if n == 2 && allNum() && !kindOf(args[0]).isFloat() && !kindOf(args[1]).isFloat() {
			return Resolved{Args: []arrow.DataType{asDecimal(args[0]), asDecimal(args[1])}, Result: &arrow.Decimal128Type{Precision: 38, Scale: 0}}, true, nil
		}
	case "gcd", "lcm":
		if n != 2 || !allNum() || kindOf(args[0]).isFloat() || kindOf(args[1]).isFloat() {
			break
		}
		if anyDecimal() {
			l, rt := asDecimal(args[0]), asDecimal(args[1])
			return Resolved{Args: []arrow.DataType{l, rt}, Result: arithDecimalResult("%", l, rt)}, true, nil
		}
		t := Int4
		if kindOf(args[0]) == kInt8 || kindOf(args[1]) == kInt8 {
			t = Int8
		}
		return Resolved{Args: []arrow.DataType{t, t}, Result: t}, true, nil
	case "width_bucket":
		if n != 4 || !allNum() || !castsImplicitly(args[3], Int4) {
			break
		}
		if anyDecimal() || !kindOf(args[0]).isFloat() && !kindOf(args[1]).isFloat() && !kindOf(args[2]).isFloat() && (kindOf(args[0]).isDecimal() || kindOf(args[1]).isDecimal() || kindOf(args[2]).isDecimal()) {
			return Resolved{Args: []arrow.DataType{asDecimal(args[0]), asDecimal(args[1]), asDecimal(args[2]), Int4}, Result: Int4}, true, nil
		}
		return Resolved{Args: []arrow.DataType{Float8, Float8, Float8, Int4}, Result: Int4}, true, nil
	case "scale", "min_scale", "trim_scale":
		if n == 1 && (kindOf(args[0]).isDecimal() || kindOf(args[0]).isInt()) {
			res := Int4
			if fn == "trim_scale" {
				res = NumericType()
			}
			return Resolved{Args: []arrow.DataType{asDecimal(args[0])}, Result: res}, true, nil
		}
	default:
		if _, ok := float8Unary[fn]; !ok {
			return r, false, nil
		}
		if n == 1 && allNum() {
			return floats(1), true, nil
		}
	}
	return r, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// asDecimal is the numeric type an argument of a numeric parameter takes:
// decimals stay, ints become numeric of scale 0.
func asDecimal(t arrow.DataType) arrow.DataType {
	k := kindOf(t)
	switch {
	case k.isDecimal():
		return t
	case k.isInt():
		return intAsDecimal(k)
	}
	return NumericType()
}

func kernelMath(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	n := len(ts)
	dec := n > 0 && kindOf(ts[0]).isDecimal()
	switch fn {
	case "exp", "ln", "log", "log10":
		if n == 2 || dec {
			k, err := numericLogKernel(fn, n)
			return k, true, err
		}
	case "sign":
		if dec {
			return decimalKernel(res, func(xs []decimal128.Num, _ []int32) (decimal128.Num, int32, error) {
				return decimal128.FromI64(int64(xs[0].Sign())), 0, nil
			}), true, nil
		}
	case "atan2":
		return float2Kernel(func(y, x float64) (float64, error) { return math.Atan2(y, x), nil }), true, nil
	case "pi":
		return func(ev *evalCtx, args []vec) (vec, error) {
			return floatConst(ev, math.Pi), nil
		}, true, nil
	case "random":
		return randomKernel, true, nil
	case "mod":
		if n != 2 {
			return nil, true, wrongArgs(fn, ts)
		}
		k, err := arithKernel("%", ts[0], ts[1], res)
		return k, true, err
	case "div":
		return decimalKernel(res, decIntDiv), true, nil
	case "gcd", "lcm":
		k, err := gcdKernel(fn == "lcm", ts[0], res)
		return k, true, err
	case "width_bucket":
		if dec {
			return decWidthBucketKernel(), true, nil
		}
		return floatWidthBucketKernel(), true, nil
	case "scale", "min_scale":
		return decScaleKernel(fn == "min_scale"), true, nil
	case "trim_scale":
		return decimalKernel(res, func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
			u, s := trimScale(xs[0], ss[0])
			return u, s, nil
		}), true, nil
	}
	f, ok := float8Unary[fn]
	if !ok {
		return nil, false, nil
	}
	if n != 1 || kindOf(ts[0]) != kFloat8 {
		return nil, true, wrongArgs(fn, ts)
	}
	return mapFloat[float64, float64](Float8, f), true, nil
}

// floatConst is a one-row float8 constant.
func floatConst(ev *evalCtx, v float64) vec {
	buf, out := outBuf[float64](ev.mem, 1)
	out[0] = v
	return vec{arr: makeFixed(Float8, 1, nil, 0, buf), c: true}
}

// randomKernel is random(): a fresh value for every row.
func randomKernel(ev *evalCtx, _ []vec) (vec, error) {
	buf, out := outBuf[float64](ev.mem, ev.n)
	for i := range out {
		out[i] = rand.Float64()
	}
	return vec{arr: makeFixed(Float8, ev.n, nil, 0, buf)}, nil
}

// float2Kernel applies f to two float8 arguments.
func float2Kernel(f func(a, b float64) (float64, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
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
			r, err := f(a[i&ma], b[i&mb])
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
}
