package expr

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Typed comparison of Decimal128 vectors. Two columns of one scale compare
// their 128-bit unscaled values; a column and a constant compare after the
// constant is brought to the column's scale once per batch (exactly: a
// constant with more digits than the column holds moves the bound to the
// nearest representable value, see decConstAt); columns of different
// scales rescale row by row. NumericType values (a scale per value) take
// the generic row comparer.

// cmpDecimal is the kernel of op over two decimal vectors.
func cmpDecimal(op cmpOp) kernelFn {
	generic := cmpGeneric(op)
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Bool, args), nil
		}
		l, r := args[0], args[1]
		lt, lok := l.arr.DataType().(*arrow.Decimal128Type)
		rt, rok := r.arr.DataType().(*arrow.Decimal128Type)
		n, c := outLen(ev, args)
		if !lok || !rok || c {
			return generic(ev, args)
		}
		a, b := values[decimal128.Num](l.arr), values[decimal128.Num](r.arr)
		valid, nulls := andValidity(ev.mem, n, args)
		vbuf, w := newWords(ev.mem, n)
		switch {
		case r.c:
			cmpDecConst(w, n, a, lt.Scale, b[0], rt.Scale, op)
		case l.c:
			cmpDecConst(w, n, b, rt.Scale, a[0], lt.Scale, op.flip())
		case lt.Scale == rt.Scale:
			cmpDecCols(w, n, a, b, op)
		default:
			for k := range w {
				base := k << 6
				var m uint64
				for i := base; i < min(base+64, n); i++ {
					m |= b2u(op.test(decCmp(a[i], lt.Scale, b[i], rt.Scale))) << (i - base)
				}
				w[k] = m
			}
		}
		return vec{arr: finishWords(vbuf, w, n, valid, nulls), c: c}, nil
	}
}

// decBound is a constant brought to a column's scale for one operator.
type decBound struct {
	v  decimal128.Num
	op cmpOp
	// fixed, when set, is the answer for every row: the constant lies
	// beyond every value of the column's type (all) or equality can never
	// hold (none).
	fixed bool
	all   bool
}

// decConstAt brings x (scale sx) to scale s for "column op x". When x is
// not a multiple of 10^(sx-s) the column value v can never equal it, and
// with q = floor(x / 10^(sx-s)): v < x and v <= x are v <= q, v > x and
// v >= x are v > q. When x*10^(s-sx) passes 128 bits it is beyond every
// column value.
func decConstAt(x decimal128.Num, sx, s int32, op cmpOp) decBound {
	if sx == s {
		return decBound{v: x, op: op}
	}
	xb := x.BigInt()
	if sx < s {
		xb.Mul(xb, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s-sx)), nil))
		if xb.BitLen() > 127 {
			pos := xb.Sign() > 0
			switch op {
			case opEq:
				return decBound{fixed: true}
			case opNe:
				return decBound{fixed: true, all: true}
			case opLt, opLe:
				return decBound{fixed: true, all: pos}
			}
			return decBound{fixed: true, all: !pos}
		}
		return decBound{v: decimal128.FromBigInt(xb), op: op}
	}
	m := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(sx-s)), nil)
	q, rem := new(big.Int).DivMod(xb, m, new(big.Int)) // Euclidean: rem >= 0, q = floor
	qd := decimal128.FromBigInt(q)
	if rem.Sign() == 0 {
		return decBound{v: qd, op: op}
	}
	switch op {
	case opEq:
		return decBound{fixed: true}
	case opNe:
		return decBound{fixed: true, all: true}
	case opLt, opLe:
		return decBound{v: qd, op: opLe}
	}
	return decBound{v: qd, op: opGt}
}

// cmpDecConst sets bit i of w when a[i] (scale sa) op x (scale sx).
func cmpDecConst(w []uint64, n int, a []decimal128.Num, sa int32, x decimal128.Num, sx int32, op cmpOp) {
	bd := decConstAt(x, sx, sa, op)
	if bd.fixed {
		var m uint64
		if bd.all {
			m = ^uint64(0)
		}
		for k := range w {
			w[k] = m
		}
		return
	}
	a = a[:n]
	x, op = bd.v, bd.op
	for k := range w {
		base := k << 6
		blk := a[base:min(base+64, n)]
		var m uint64
		switch op {
		case opEq, opNe:
			for j, v := range blk {
				m |= b2u(v == x) << j
			}
			if op == opNe {
				m = ^m
			}
		case opLt:
			for j, v := range blk {
				m |= b2u(v.Less(x)) << j
			}
		case opLe:
			for j, v := range blk {
				m |= b2u(!x.Less(v)) << j
			}
		case opGt:
			for j, v := range blk {
				m |= b2u(x.Less(v)) << j
			}
		case opGe:
			for j, v := range blk {
				m |= b2u(!v.Less(x)) << j
			}
		}
		w[k] = m
	}
}

// cmpDecCols sets bit i of w when a[i] op b[i] (one scale).
func cmpDecCols(w []uint64, n int, a, b []decimal128.Num, op cmpOp) {
	a, b = a[:n], b[:n]
	if op == opGt || op == opGe {
		a, b, op = b, a, op.flip()
	}
	for k := range w {
		base := k << 6
		end := min(base+64, n)
		x, y := a[base:end], b[base:end]
		y = y[:len(x)]
		var m uint64
		switch op {
		case opEq, opNe:
			for j, v := range x {
				m |= b2u(v == y[j]) << j
			}
			if op == opNe {
				m = ^m
			}
		case opLt:
			for j, v := range x {
				m |= b2u(v.Less(y[j])) << j
			}
		case opLe:
			for j, v := range x {
				m |= b2u(!y[j].Less(v)) << j
			}
		}
		w[k] = m
	}
}
