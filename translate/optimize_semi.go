package translate

import "github.com/icegate/icegate/engine/expr"

// sinkSemiJoins moves the semi joins of IN / EXISTS conditions below the
// inner joins of the FROM clause, next to the input their keys come
// from. The binder puts the mark join of `o.k IN (SELECT ...)` over the
// whole FROM clause, so TPC-H Q18 joined 6M lineitem rows with orders and
// customer before the 56 orders of its IN list removed all but 392 of
// them; filtering orders first joins 56.
//
// A filter on the mark of a mark join whose mark nothing else reads is a
// semi join (rows whose mark is FALSE or NULL are dropped alike). Inner
// joins commute with it: semi(A JOIN B) = semi(A) JOIN B when the semi
// join's condition reads no column of B. The root is left alone, since
// the statement's output columns are not visible here.
func sinkSemiJoins(root rel) rel {
	uses := map[colID]int{}
	visitRel(root, func(r rel) {
		for _, e := range relExprs(r) {
			for id := range refsOf(e) {
				uses[id]++
			}
		}
	})
	var walk func(r rel) rel
	walk = func(r rel) rel {
		r = mapChildren(r, walk)
		f, ok := r.(*filterRel)
		if !ok {
			return r
		}
		j, ok := f.in.(*joinRel)
		if !ok || j.typ != joinMark || j.apply || uses[j.mark] != 1 {
			return r
		}
		inner, ok := j.left.(*joinRel)
		if !ok || inner.typ != joinInner || inner.apply {
			return r
		}
		var rest []expr.Expr
		found := false
		for _, c := range conjuncts(f.pred) {
			if col, ok := c.(*expr.Col); ok && colID(col.Idx) == j.mark && !found {
				found = true
				continue
			}
			rest = append(rest, c)
		}
		if !found {
			return r
		}
		semi := &joinRel{typ: joinSemi, left: j.left, right: j.right, cond: j.cond}
		sunk, moved := sinkSemi(semi)
		if !moved {
			return r
		}
		return withFilter(sunk, rest)
	}
	return mapChildren(root, walk)
}

// sinkSemi pushes semi, whose left input is an inner join, into the side
// of that join its condition reads, as far down as it goes. It reports
// whether it moved.
func sinkSemi(semi *joinRel) (rel, bool) {
	inner, ok := semi.left.(*joinRel)
	if !ok || inner.typ != joinInner || inner.apply {
		return semi, false
	}
	refs := refsOf(semi.cond)
	leftOut, rightOut := setOf(inner.left.outCols()), setOf(inner.right.outCols())
	reads := func(side colSet) bool {
		for id := range refs {
			if side.has(id) {
				return true
			}
		}
		return false
	}
	nj := *inner
	switch {
	case !reads(rightOut) && reads(leftOut):
		s := *semi
		s.left = inner.left
		nj.left, _ = sinkSemi(&s)
	case !reads(leftOut) && reads(rightOut):
		s := *semi
		s.left = inner.right
		nj.right, _ = sinkSemi(&s)
	default:
		return semi, false
	}
	return &nj, true
}
