package translate

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
)

// lowerJoin lowers a join: a hash join on the equalities between the two
// sides in its condition (the rest is a residual condition), or a nested
// loop join when there are none. The engine builds its hash table on the
// right input, so an inner or outer join puts the side estimated smaller
// there.
func (l *lowerer) lowerJoin(x *joinRel, need colSet) (engine.Operator, []colID, error) {
	if x.apply {
		return l.lowerApply(x, need)
	}
	left, right, typ := x.left, x.right, x.typ
	if swapped, ok := swapJoinType(typ); ok && estimateRows(left) < estimateRows(right) {
		left, right, typ = right, left, swapped
	}
	leftOut, rightOut := setOf(left.outCols()), setOf(right.outCols())
	var leftKeys, rightKeys []expr.Expr
	var nullSafe []bool
	var residual []expr.Expr
	for i, c := range conjuncts(x.cond) {
		// A null-aware join (NOT IN) has exactly one key: the IN
		// comparison, first in the condition; the rest is residual.
		if x.nullAware && (i > 0 || len(leftKeys) > 0) {
			residual = append(residual, c)
			continue
		}
		if lk, rk, safe, ok := equiKey(c, leftOut, rightOut); ok {
			leftKeys, rightKeys, nullSafe = append(leftKeys, lk), append(rightKeys, rk), append(nullSafe, safe)
			continue
		}
		residual = append(residual, c)
	}
	needL, needR := colSet{}, colSet{}
	split := func(s colSet) {
		for id := range s {
			if leftOut.has(id) {
				needL.add(id)
			}
			if rightOut.has(id) {
				needR.add(id)
			}
		}
	}
	split(need)
	if x.cond != nil {
		split(refsOf(x.cond))
	}
	lop, llayout, err := l.lower(left, needL)
	if err != nil {
		return nil, nil, err
	}
	rop, rlayout, err := l.lower(right, needR)
	if err != nil {
		lop.Close()
		return nil, nil, err
	}
	fail := func(err error) (engine.Operator, []colID, error) {
		lop.Close()
		rop.Close()
		return nil, nil, err
	}
	// Without an equality key, IN's NULL semantics are approximated: a
	// comparison that is NULL counts as no match.
	nullAware := x.nullAware && len(leftKeys) == 1 && !nullSafe[0]
	spec := exec.JoinSpec{Type: execJoinType(typ), NullSafe: nullSafe, NullAware: nullAware, Single: x.single}
	if spec.LeftKeys, err = l.remapAll(leftKeys, llayout); err != nil {
		return fail(err)
	}
	if spec.RightKeys, err = l.remapAll(rightKeys, rlayout); err != nil {
		return fail(err)
	}
	both := append(append([]colID(nil), llayout...), rlayout...)
	if len(residual) > 0 {
		if spec.Residual, err = l.remap(andOf(residual), both); err != nil {
			return fail(err)
		}
	}
	var op engine.Operator
	if len(leftKeys) > 0 {
		op, err = exec.NewHashJoin(lop, rop, spec, l.opts)
	} else {
		op, err = exec.NewNestedLoopJoin(lop, rop, spec, l.opts)
	}
	if err != nil {
		return fail(err)
	}
	switch typ {
	case joinSemi, joinAnti:
		return op, llayout, nil
	case joinMark:
		return op, append(append([]colID(nil), llayout...), x.mark), nil
	}
	return op, both, nil
}

// swapJoinType is the join type with the inputs exchanged.
func swapJoinType(t joinType) (joinType, bool) {
	switch t {
	case joinInner, joinFull:
		return t, true
	case joinLeft:
		return joinRight, true
	case joinRight:
		return joinLeft, true
	}
	return t, false
}

func execJoinType(t joinType) exec.JoinType {
	switch t {
	case joinLeft:
		return exec.JoinLeft
	case joinRight:
		return exec.JoinRight
	case joinFull:
		return exec.JoinFull
	case joinSemi:
		return exec.JoinSemi
	case joinAnti:
		return exec.JoinAnti
	case joinMark:
		return exec.JoinMark
	}
	return exec.JoinInner
}

// equiKey recognizes l = r (or IS NOT DISTINCT FROM) with each side over
// one input only, both of the same type.
func equiKey(c expr.Expr, left, right colSet) (lk, rk expr.Expr, nullSafe, ok bool) {
	call, isCall := c.(*expr.Call)
	if !isCall || len(call.Args) != 2 || (call.Fn != "=" && call.Fn != "is_not_distinct_from") {
		return nil, nil, false, false
	}
	a, b := call.Args[0], call.Args[1]
	if !arrow.TypeEqual(a.Type(), b.Type()) || !hashableKey(a.Type()) {
		return nil, nil, false, false
	}
	ra, rb := refsOf(a), refsOf(b)
	if len(ra) == 0 || len(rb) == 0 {
		return nil, nil, false, false
	}
	switch {
	case ra.subsetOf(left) && rb.subsetOf(right):
		return a, b, call.Fn != "=", true
	case rb.subsetOf(left) && ra.subsetOf(right):
		return b, a, call.Fn != "=", true
	}
	return nil, nil, false, false
}

// hashableKey reports whether equal values of type t always have equal
// key encodings (floats: 0 = -0 and NaN = NaN are handled by the
// encoding; lists and maps are not keys).
func hashableKey(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.STRUCT:
		return false
	}
	return true
}

// estimateRows is a rough row count of r from table statistics (snapshot
// summaries), for choosing a hash join's build side.
func estimateRows(r rel) float64 {
	switch x := r.(type) {
	case *scanRel:
		if x.snapshot == nil {
			return 0
		}
		if n, ok := summaryInt(x.snapshot.Summary, "total-records"); ok {
			return float64(n)
		}
		return 1e6
	case *oneRowRel:
		return 1
	case *sysRel, *metaRel, *changesRel:
		return 1000
	case *valuesRel:
		return float64(len(x.rows))
	case *filterRel:
		return estimateRows(x.in) / 4
	case *aggRel:
		if len(x.groups) == 0 {
			return 1
		}
		return estimateRows(x.in) / 10
	case *joinRel:
		l, r := estimateRows(x.left), estimateRows(x.right)
		switch x.typ {
		case joinSemi, joinAnti, joinMark:
			return l
		}
		if x.cond == nil {
			return l * r
		}
		return max(l, r)
	case *limitRel:
		if x.limit >= 0 {
			return min(float64(x.limit), estimateRows(x.in))
		}
		return estimateRows(x.in)
	case *setOpRel:
		n := 0.0
		for _, in := range x.ins {
			n += estimateRows(in)
		}
		return n
	case *tableFuncRel:
		return estimateRows(x.in) * 100
	}
	if cs := relChildren(r); len(cs) == 1 {
		return estimateRows(cs[0])
	}
	return 1e6
}
