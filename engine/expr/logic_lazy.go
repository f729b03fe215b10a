package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// logicNode is AND (isAnd) or OR over two or more operands, evaluated
// left to right: each later operand runs only over the rows the earlier
// ones left undecided (AND: TRUE or NULL so far; OR: FALSE or NULL), as
// PostgreSQL stops at the first FALSE (TRUE) operand of a row. So a guard
// keeps its operand from failing on the rows it rules out (x <> 0 AND
// 1 / x > 1 never divides by zero), and an expensive operand runs over the
// few rows a selective one before it lets through.
//
// An operand that cannot raise an error (safe) may still run over every
// row when most rows are undecided: gathering them would cost more than
// it saves. The three-valued result is the same either way.
type logicNode struct {
	isAnd bool
	args  []node
	safe  []bool
}

// compactSafeBelow: a safe operand runs over the undecided rows only
// when they are at most 1/compactSafeBelow of the rows.
const compactSafeBelow = 3

func (c *compiler) compileLogic(e *Call, args []node) node {
	ln := &logicNode{isAnd: e.Fn == "and", args: args, safe: make([]bool, len(args))}
	for i, a := range e.Args {
		_, fail := PredicateCost(a)
		ln.safe[i] = !fail
	}
	return ln
}

func (ln *logicNode) eval(ev *evalCtx) (vec, error) {
	n := ev.n
	nw := wordsFor(n)
	// t: the rows TRUE so far; f: the rows FALSE so far; the others NULL.
	tbuf, t := newWords(ev.mem, n)
	fw := make([]uint64, nw)
	if ln.isAnd {
		for k := range t {
			t[k] = ^uint64(0)
		}
	} else {
		clear(t)
		for k := range fw {
			fw[k] = ^uint64(0)
		}
	}
	clearTail(t, n)
	clearTail(fw, n)
	var sel []int32
	var vw, okw []uint64 // scratch: a compacted operand's result, scattered
	for i, a := range ln.args {
		// decided: the rows whose result is known (AND: FALSE; OR: TRUE).
		decided := fw
		if !ln.isAnd {
			decided = t
		}
		und := n
		if i > 0 {
			und = n - CountWords(decided)
		}
		if und == 0 {
			break
		}
		if und == n || (ln.safe[i] && und*compactSafeBelow > n) {
			v, err := a.eval(ev)
			if err != nil {
				tbuf.Release()
				return vec{}, err
			}
			vals, valid := logicWords(v, n)
			combineLogic(ln.isAnd, t, fw, vals, valid, n)
			v.arr.Release()
			continue
		}
		if vw == nil {
			vw, okw = make([]uint64, nw), make([]uint64, nw)
		}
		for k, x := range decided {
			vw[k] = ^x
		}
		clearTail(vw, n)
		sel = AppendSetRows(sel[:0], vw)
		sub := subEval(ev, sel)
		v, err := a.eval(sub)
		sub.release()
		if err != nil {
			tbuf.Release()
			return vec{}, err
		}
		clear(vw)
		clear(okw)
		scatterLogic(v, sel, vw, okw)
		v.arr.Release()
		combineLogic(ln.isAnd, t, fw, vw, okw, n)
	}
	vbuf, valid := newWords(ev.mem, n)
	for k := range valid {
		valid[k] = t[k] | fw[k]
	}
	clearTail(valid, n)
	nulls := n - CountWords(valid)
	if nulls == 0 {
		vbuf.Release()
		vbuf = nil
	}
	return vec{arr: makeFixed(Bool, n, vbuf, nulls, tbuf)}, nil
}

// logicWords is a boolean operand over n rows as value and validity
// words (nil validity: no NULLs); a constant is spread over every row.
func logicWords(v vec, n int) (vals, valid []uint64) {
	nw := wordsFor(n)
	switch {
	case v.arr.DataType().ID() == arrow.NULL:
		return make([]uint64, nw), make([]uint64, nw)
	case v.c:
		vals = make([]uint64, nw)
		if v.arr.IsNull(0) {
			return vals, make([]uint64, nw)
		}
		if v.arr.(*array.Boolean).Value(0) {
			for k := range vals {
				vals[k] = ^uint64(0)
			}
		}
		return vals, nil
	}
	return wordsOf(boolsOf(v).b, v.arr.Data().Offset(), n), ValidWords(v.arr)
}

// scatterLogic sets the bits of rows sel[p] in vals and valid from row p
// of v (a result over the rows sel).
func scatterLogic(v vec, sel []int32, vals, valid []uint64) {
	if v.arr.DataType().ID() == arrow.NULL {
		return
	}
	if v.c {
		if v.arr.IsNull(0) {
			return
		}
		on := v.arr.(*array.Boolean).Value(0)
		for _, r := range sel {
			valid[r>>6] |= 1 << (r & 63)
			if on {
				vals[r>>6] |= 1 << (r & 63)
			}
		}
		return
	}
	bits := boolsOf(v)
	ok := nullableValidity(v)
	for p, r := range sel {
		if !ok.valid(p) {
			continue
		}
		valid[r>>6] |= 1 << (r & 63)
		if bits.get(p) {
			vals[r>>6] |= 1 << (r & 63)
		}
	}
}

// combineLogic folds one operand (vals, valid: nil = no NULLs) into the
// TRUE rows t and FALSE rows f of an AND or OR over n rows.
func combineLogic(isAnd bool, t, f, vals, valid []uint64, n int) {
	for k := range t {
		v, ok := vals[k], ^uint64(0)
		if valid != nil {
			ok = valid[k]
		}
		if isAnd {
			t[k] &= v & ok
			f[k] |= ^v & ok
		} else {
			t[k] |= v & ok
			f[k] &= ^v & ok
		}
	}
	clearTail(t, n)
	clearTail(f, n)
}
