package expr

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
)

// Comparison kernels: = <> < <= > >= and IS [NOT] DISTINCT FROM, with
// PostgreSQL's orderings (NaN equal to itself and above every number, text
// by bytes, decimals exactly across scales).

type cmpOp uint8

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)

func cmpOpOf(fn string) cmpOp {
	switch fn {
	case "<>":
		return opNe
	case "<":
		return opLt
	case "<=":
		return opLe
	case ">":
		return opGt
	case ">=":
		return opGe
	}
	return opEq
}

// flip is the operator with its operands exchanged: a op b = b op.flip() a.
func (op cmpOp) flip() cmpOp {
	switch op {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return op
}

func (op cmpOp) test(c int) bool {
	switch op {
	case opEq:
		return c == 0
	case opNe:
		return c != 0
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	case opGt:
		return c > 0
	}
	return c >= 0
}

type ordered interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint64
}

// cmpInts compares two integer-like vectors of the same type, 64 rows
// per output word (compare_loops.go).
func cmpInts[T ordered](op cmpOp) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Bool, args), nil
		}
		n, c := outLen(ev, args)
		a, b := values[T](args[0].arr), values[T](args[1].arr)
		valid, nulls := andValidity(ev.mem, n, args)
		vbuf, w := newWords(ev.mem, n)
		switch {
		case args[1].c:
			cmpOrderedConst(w, n, a, b[0], op)
		case args[0].c:
			cmpOrderedConst(w, n, b, a[0], op.flip())
		default:
			cmpOrderedCols(w, n, a, b, op)
		}
		return vec{arr: finishWords(vbuf, w, n, valid, nulls), c: c}, nil
	}
}

// floatCmp orders floats as PostgreSQL: NaN = NaN, NaN above all numbers.
func floatCmp[T sfloat](x, y T) int {
	switch {
	case x != x:
		if y != y {
			return 0
		}
		return 1
	case y != y:
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func cmpFloats[T sfloat](op cmpOp) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Bool, args), nil
		}
		n, c := outLen(ev, args)
		a, b := values[T](args[0].arr), values[T](args[1].arr)
		ma, mb := args[0].idx(), args[1].idx()
		valid, nulls := andValidity(ev.mem, n, args)
		out := newBoolOut(ev.mem, n)
		for i := 0; i < n; i++ {
			if op.test(floatCmp(a[i&ma], b[i&mb])) {
				out.set(i)
			}
		}
		return vec{arr: out.finish(n, valid, nulls), c: c}, nil
	}
}

// rowCmp returns a three-way comparison of row i of two vectors.
type rowCmpFn func(i int) int

// rowComparer builds the three-way row comparison of two vectors of the
// given kinds (after Resolve's casts).
func rowComparer(l, r vec) rowCmpFn {
	kl, kr := kindOf(l.arr.DataType()), kindOf(r.arr.DataType())
	switch {
	case kl.isDecimal() && kr.isDecimal():
		a, b := decimalOf(l), decimalOf(r)
		return func(i int) int {
			x, sx := a.get(i)
			y, sy := b.get(i)
			return decCmp(x, sx, y, sy)
		}
	case kl == kText || kl == kBytea:
		a, b := binaryOf(l), binaryOf(r)
		return func(i int) int { return bytes.Compare(a.get(i), b.get(i)) }
	case kl == kFixed:
		a, b := fixedBinaryOf(l), fixedBinaryOf(r)
		return func(i int) int { return bytes.Compare(a.get(i), b.get(i)) }
	case kl == kBool:
		a, b := boolsOf(l), boolsOf(r)
		return func(i int) int {
			x, y := a.get(i), b.get(i)
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		}
	case kl == kFloat4:
		a, b, ma, mb := values[float32](l.arr), values[float32](r.arr), l.idx(), r.idx()
		return func(i int) int { return floatCmp(a[i&ma], b[i&mb]) }
	case kl == kFloat8:
		a, b, ma, mb := values[float64](l.arr), values[float64](r.arr), l.idx(), r.idx()
		return func(i int) int { return floatCmp(a[i&ma], b[i&mb]) }
	case kl == kInt2:
		return intRowCmp[int16](l, r)
	case kl == kInt4 || kl == kDate:
		return intRowCmp[int32](l, r)
	case kl == kInt8 || kl == kTime || kl == kTimestamp || kl == kTimestamptz:
		return intRowCmp[int64](l, r)
	case kl == kInterval:
		a, b, ma, mb := values[arrow.MonthDayNanoInterval](l.arr), values[arrow.MonthDayNanoInterval](r.arr), l.idx(), r.idx()
		return func(i int) int { return cmpIval(ivalOf(a[i&ma]), ivalOf(b[i&mb])) }
	}
	return nil
}

func intRowCmp[T ordered](l, r vec) rowCmpFn {
	a, b, ma, mb := values[T](l.arr), values[T](r.arr), l.idx(), r.idx()
	return func(i int) int {
		x, y := a[i&ma], b[i&mb]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
}

// cmpGeneric compares through rowComparer (decimals, strings, bool...).
func cmpGeneric(op cmpOp) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Bool, args), nil
		}
		n, c := outLen(ev, args)
		cmp := rowComparer(args[0], args[1])
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		out := newBoolOut(ev.mem, n)
		for i := 0; i < n; i++ {
			if vb.valid(i) && op.test(cmp(i)) {
				out.set(i)
			}
		}
		return vec{arr: out.finish(n, valid, nulls), c: c}, nil
	}
}

// compareKernel picks the comparison kernel for two argument types.
func compareKernel(fn string, l, r arrow.DataType) (kernelFn, error) {
	op := cmpOpOf(fn)
	kl, kr := kindOf(l), kindOf(r)
	if kl == kNull || kr == kNull {
		return func(ev *evalCtx, args []vec) (vec, error) { return nullResult(ev, Bool, args), nil }, nil
	}
	if !(kl.isDecimal() && kr.isDecimal()) && kl != kr {
		return nil, operatorError(fn, []arrow.DataType{l, r})
	}
	switch kl {
	case kInt2:
		return cmpInts[int16](op), nil
	case kInt4, kDate:
		return cmpInts[int32](op), nil
	case kInt8, kTime, kTimestamp, kTimestamptz:
		return cmpInts[int64](op), nil
	case kFloat4:
		return cmpFloats[float32](op), nil
	case kFloat8:
		return cmpFloats[float64](op), nil
	case kDecimal, kNumeric:
		return cmpDecimal(op), nil
	case kText, kBytea:
		return cmpBytes(op), nil
	case kFixed, kBool, kInterval:
		return cmpGeneric(op), nil
	}
	return nil, operatorError(fn, []arrow.DataType{l, r})
}

// distinctKernel is IS DISTINCT FROM (not=false) / IS NOT DISTINCT FROM.
func distinctKernel(not bool, l, r arrow.DataType) (kernelFn, error) {
	if kindOf(l) != kNull && kindOf(r) != kNull {
		if _, err := compareKernel("=", l, r); err != nil {
			return nil, err
		}
	}
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		out := newBoolOut(ev.mem, n)
		va, vb := nullableValidity(args[0]), nullableValidity(args[1])
		var cmp rowCmpFn
		if args[0].arr.DataType().ID() != arrow.NULL && args[1].arr.DataType().ID() != arrow.NULL {
			cmp = rowComparer(args[0], args[1])
		}
		for i := 0; i < n; i++ {
			x, y := va.valid(i), vb.valid(i)
			var distinct bool
			switch {
			case !x && !y:
				distinct = false
			case x != y:
				distinct = true
			default:
				distinct = cmp(i) != 0
			}
			if distinct != not {
				out.set(i)
			}
		}
		return vec{arr: out.finish(n, nil, 0), c: c}, nil
	}, nil
}

// nullableValidity is validityOf that also treats Null-typed vectors as
// all NULL.
func nullableValidity(v vec) bitmap {
	if v.arr.DataType().ID() == arrow.NULL {
		return bitmap{b: []byte{0}, m: 0}
	}
	return validityOf(v)
}
