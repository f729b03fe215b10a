package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
)

// kernelFn evaluates a call over its arguments' vectors.
type kernelFn func(ev *evalCtx, args []vec) (vec, error)

type sint interface{ ~int16 | ~int32 | ~int64 }
type sfloat interface{ ~float32 | ~float64 }

var errDivZero = pgerr.New(pgerr.DivisionByZero, "division by zero")

func intRangeError(k kind) *pgerr.Error {
	switch k {
	case kInt2:
		return pgerr.New(pgerr.NumericValueOutOfRange, "smallint out of range")
	case kInt4:
		return pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
	}
	return pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
}

// intArith is + - * / % on one integer width. minV is the type's minimum.
func intArith[T sint](op string, t arrow.DataType, minV T) kernelFn {
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
		fail := func(err error) (vec, error) {
			buf.Release()
			if valid != nil {
				valid.Release()
			}
			return vec{}, err
		}
		switch op {
		case "+":
			for i := 0; i < n; i++ {
				x, y := a[i&ma], b[i&mb]
				r := x + y
				if (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0) && vb.valid(i) {
					return fail(rangeErr)
				}
				out[i] = r
			}
		case "-":
			for i := 0; i < n; i++ {
				x, y := a[i&ma], b[i&mb]
				r := x - y
				if (x >= 0) != (y >= 0) && (r >= 0) != (x >= 0) && vb.valid(i) {
					return fail(rangeErr)
				}
				out[i] = r
			}
		case "*":
			for i := 0; i < n; i++ {
				x, y := a[i&ma], b[i&mb]
				r := x * y
				if x != 0 && (r/x != y || (x == -1 && y == minV)) && vb.valid(i) {
					return fail(rangeErr)
				}
				out[i] = r
			}
		case "/":
			for i := 0; i < n; i++ {
				x, y := a[i&ma], b[i&mb]
				if y == 0 || (y == -1 && x == minV) {
					if !vb.valid(i) {
						out[i] = 0
						continue
					}
					if y == 0 {
						return fail(errDivZero)
					}
					return fail(rangeErr)
				}
				out[i] = x / y
			}
		case "%":
			for i := 0; i < n; i++ {
				x, y := a[i&ma], b[i&mb]
				if y == 0 || y == -1 {
					if y == 0 && vb.valid(i) {
						return fail(errDivZero)
					}
					out[i] = 0
					continue
				}
				out[i] = x % y
			}
		}
		return vec{arr: makeFixed(t, n, valid, nulls, buf), c: c}, nil
	}
}

var (
	errFloatOverflow  = pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	errFloatUnderflow = pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
)

func isInf[T sfloat](x T) bool { return math.IsInf(float64(x), 0) }

// floatArith is + - * / with PostgreSQL's overflow and underflow checks.
func floatArith[T sfloat](op string, t arrow.DataType) kernelFn {
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
		var err error
		for i := 0; i < n && err == nil; i++ {
			x, y := a[i&ma], b[i&mb]
			var r T
			switch op {
			case "+":
				r = x + y
				if isInf(r) && !isInf(x) && !isInf(y) {
					err = errFloatOverflow
				}
			case "-":
				r = x - y
				if isInf(r) && !isInf(x) && !isInf(y) {
					err = errFloatOverflow
				}
			case "*":
				r = x * y
				if isInf(r) && !isInf(x) && !isInf(y) {
					err = errFloatOverflow
				} else if r == 0 && x != 0 && y != 0 {
					err = errFloatUnderflow
				}
			case "/":
				if y == 0 && x == x { // NaN / 0 is NaN
					err = errDivZero
					break
				}
				r = x / y
				if isInf(r) && !isInf(x) {
					err = errFloatOverflow
				} else if r == 0 && x != 0 && !isInf(y) {
					err = errFloatUnderflow
				}
			}
			if err != nil && !vb.valid(i) {
				err = nil
			}
			out[i] = r
		}
		if err != nil {
			buf.Release()
			if valid != nil {
				valid.Release()
			}
			return vec{}, err
		}
		return vec{arr: makeFixed(t, n, valid, nulls, buf), c: c}, nil
	}
}

// unaryNum is neg or abs over any number type.
func unaryNum(op string, t arrow.DataType) kernelFn {
	k := kindOf(t)
	switch k {
	case kInt2:
		return unaryInt[int16](op, t, math.MinInt16)
	case kInt4:
		return unaryInt[int32](op, t, math.MinInt32)
	case kInt8:
		return unaryInt[int64](op, t, math.MinInt64)
	case kFloat4:
		return unaryFloat[float32](op, t)
	case kFloat8:
		return unaryFloat[float64](op, t)
	}
	return decimalKernel(t, func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
		x := xs[0]
		if op == "neg" || x.Sign() < 0 {
			x = x.Negate()
		}
		return x, ss[0], nil
	})
}

func unaryInt[T sint](op string, t arrow.DataType, minV T) kernelFn {
	rangeErr := intRangeError(kindOf(t))
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, t, args), nil
		}
		n, c := outLen(ev, args)
		a, ma := values[T](args[0].arr), args[0].idx()
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		buf, out := outBuf[T](ev.mem, n)
		for i := 0; i < n; i++ {
			x := a[i&ma]
			if x == minV && (op == "neg" || x < 0) && vb.valid(i) {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				return vec{}, rangeErr
			}
			if op == "neg" || x < 0 {
				x = -x
			}
			out[i] = x
		}
		return vec{arr: makeFixed(t, n, valid, nulls, buf), c: c}, nil
	}
}

func unaryFloat[T sfloat](op string, t arrow.DataType) kernelFn {
	return mapFloat[T, T](t, func(x T) (T, error) {
		if op == "neg" {
			return -x, nil
		}
		return T(math.Abs(float64(x))), nil
	})
}

// mapFloat applies f to every valid value of a float argument.
func mapFloat[T, R sfloat](t arrow.DataType, f func(T) (R, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, t, args), nil
		}
		n, c := outLen(ev, args)
		a, ma := values[T](args[0].arr), args[0].idx()
		valid, nulls := andValidity(ev.mem, n, args[:1])
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		buf, out := outBuf[R](ev.mem, n)
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				out[i] = 0
				continue
			}
			r, err := f(a[i&ma])
			if err != nil {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				return vec{}, err
			}
			out[i] = r
		}
		return vec{arr: makeFixed(t, n, valid, nulls, buf), c: c}, nil
	}
}

// decOf reads Decimal128 or NumericType values.
type decOf struct {
	vals    []decimal128.Num
	s       int32
	raw     [][numericWidth]byte
	numeric bool
	m       int
}

func decimalOf(v vec) decOf {
	if na, ok := v.arr.(*NumericArray); ok {
		return decOf{raw: values[[numericWidth]byte](na.Storage()), numeric: true, m: v.idx()}
	}
	if v.arr.DataType().ID() != arrow.DECIMAL128 {
		return decOf{m: v.idx()}
	}
	return decOf{vals: values[decimal128.Num](v.arr), s: v.arr.DataType().(*arrow.Decimal128Type).Scale, m: v.idx()}
}

func (d decOf) get(i int) (decimal128.Num, int32) {
	i &= d.m
	if d.numeric {
		return decodeNumeric(d.raw[i][:])
	}
	return d.vals[i], d.s
}

// decOut collects a Decimal128 or NumericType result.
type decOut struct {
	t       arrow.DataType
	numeric bool
	s       int32
	p       int32
	buf     *memory.Buffer
	vals    []decimal128.Num
	raw     [][numericWidth]byte
}

func newDecOut(mem memory.Allocator, t arrow.DataType, n int) *decOut {
	o := &decOut{t: t}
	if IsNumericType(t) {
		o.numeric = true
		o.buf, o.raw = outBuf[[numericWidth]byte](mem, n)
		return o
	}
	dt := t.(*arrow.Decimal128Type)
	o.s, o.p = dt.Scale, dt.Precision
	o.buf, o.vals = outBuf[decimal128.Num](mem, n)
	return o
}

// set stores u*10^-s at row i, rescaled to the column's scale.
func (o *decOut) set(i int, u decimal128.Num, s int32) error {
	if o.numeric {
		if s > 255 || s < 0 {
			return errNumOver
		}
		encodeNumeric(o.raw[i][:0], u, s)
		return nil
	}
	r, ok := decRescale(u, s, o.s)
	if !ok {
		return errNumOver
	}
	o.vals[i] = r
	return nil
}

func (o *decOut) zero(i int) {
	if o.numeric {
		o.raw[i] = [numericWidth]byte{}
		return
	}
	o.vals[i] = decimal128.Num{}
}

func (o *decOut) finish(n int, valid *memory.Buffer, nulls int) arrow.Array {
	if o.numeric {
		st := makeFixed(&arrow.FixedSizeBinaryType{ByteWidth: numericWidth}, n, valid, nulls, o.buf)
		defer st.Release()
		return array.NewExtensionArrayWithStorage(theNumericType, st)
	}
	return makeFixed(o.t, n, valid, nulls, o.buf)
}

func (o *decOut) release() { o.buf.Release() }

// decimalKernel builds a strict kernel over decimal arguments from a
// per-row function of (unscaled, scale) pairs.
func decimalKernel(t arrow.DataType, f func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, t, args), nil
		}
		n, c := outLen(ev, args)
		rd := make([]decOf, len(args))
		for j, a := range args {
			rd[j] = decimalOf(a)
		}
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		out := newDecOut(ev.mem, t, n)
		xs := make([]decimal128.Num, len(args))
		ss := make([]int32, len(args))
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				out.zero(i)
				continue
			}
			for j := range rd {
				xs[j], ss[j] = rd[j].get(i)
			}
			u, s, err := f(xs, ss)
			if err == nil {
				err = out.set(i, u, s)
			}
			if err != nil {
				out.release()
				if valid != nil {
					valid.Release()
				}
				return vec{}, err
			}
		}
		return vec{arr: out.finish(n, valid, nulls), c: c}, nil
	}
}

// decimalArith is + - * / % on decimals.
func decimalArith(op string, t arrow.DataType) kernelFn {
	return decimalKernel(t, func(xs []decimal128.Num, ss []int32) (decimal128.Num, int32, error) {
		a, b, sa, sb := xs[0], xs[1], ss[0], ss[1]
		switch op {
		case "+", "-":
			x, y, s, ok := alignScales(a, sa, b, sb)
			if !ok {
				return x, s, errNumOver
			}
			if op == "-" {
				y = y.Negate()
			}
			r, ok := decAdd(x, y)
			if !ok {
				return r, s, errNumOver
			}
			return r, s, nil
		case "*":
			r, ok := decMul(a, b)
			if !ok {
				return r, 0, errNumOver
			}
			return r, sa + sb, nil
		case "/":
			if b.Sign() == 0 {
				return b, 0, errDivZero
			}
			return decDiv(a, sa, b, sb)
		case "%":
			if b.Sign() == 0 {
				return b, 0, errDivZero
			}
			return decMod(a, sa, b, sb)
		}
		return decimal128.Num{}, 0, pgerr.New(pgerr.InternalError, "unknown decimal operator %s", op)
	})
}

// arithKernel picks the kernel of a binary arithmetic operator whose
// arguments have been cast as Resolve says.
func arithKernel(op string, l, r, res arrow.DataType) (kernelFn, error) {
	kl, kr := kindOf(l), kindOf(r)
	if kl.isDecimal() && kr.isDecimal() {
		dl, okl := l.(*arrow.Decimal128Type)
		dr, okr := r.(*arrow.Decimal128Type)
		dres, okres := res.(*arrow.Decimal128Type)
		if okl && okr && okres {
			if k, ok := decimalArithTyped(op, dl, dr, dres); ok {
				return k, nil
			}
		}
		return decimalArith(op, res), nil
	}
	if !arrow.TypeEqual(l, r) && kl != kr {
		return nil, operatorError(op, []arrow.DataType{l, r})
	}
	switch kl {
	case kInt2:
		return intArith[int16](op, l, math.MinInt16), nil
	case kInt4:
		return intArith[int32](op, l, math.MinInt32), nil
	case kInt8:
		return intArith[int64](op, l, math.MinInt64), nil
	case kFloat4:
		if op == "%" {
			break
		}
		return floatArith[float32](op, l), nil
	case kFloat8:
		if op == "%" {
			break
		}
		return floatArith[float64](op, l), nil
	}
	return nil, operatorError(op, []arrow.DataType{l, r})
}
