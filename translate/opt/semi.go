package opt

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

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
func sinkSemiJoins(root plan.Rel) plan.Rel {
	uses := map[plan.ColID]int{}
	plan.Visit(root, func(r plan.Rel) {
		for _, e := range plan.Exprs(r) {
			for id := range plan.RefsOf(e) {
				uses[id]++
			}
		}
	})
	var walk func(r plan.Rel) plan.Rel
	walk = func(r plan.Rel) plan.Rel {
		r = plan.MapChildren(r, walk)
		f, ok := r.(*plan.Filter)
		if !ok {
			return r
		}
		j, ok := f.In.(*plan.Join)
		if !ok || j.Typ != plan.JoinMark || j.Apply || uses[j.Mark] != 1 {
			return r
		}
		inner, ok := j.Left.(*plan.Join)
		if !ok || inner.Typ != plan.JoinInner || inner.Apply {
			return r
		}
		var rest []expr.Expr
		found := false
		for _, c := range plan.Conjuncts(f.Pred) {
			if col, ok := c.(*expr.Col); ok && plan.ColID(col.Idx) == j.Mark && !found {
				found = true
				continue
			}
			rest = append(rest, c)
		}
		if !found {
			return r
		}
		semi := &plan.Join{Typ: plan.JoinSemi, Left: j.Left, Right: j.Right, Cond: j.Cond}
		sunk, moved := sinkSemi(semi)
		if !moved {
			return r
		}
		return withFilter(sunk, rest)
	}
	return plan.MapChildren(root, walk)
}

// sinkSemi pushes semi, whose left input is an inner join, into the side
// of that join its condition reads, as far down as it goes. It reports
// whether it moved.
func sinkSemi(semi *plan.Join) (plan.Rel, bool) {
	inner, ok := semi.Left.(*plan.Join)
	if !ok || inner.Typ != plan.JoinInner || inner.Apply {
		return semi, false
	}
	refs := plan.RefsOf(semi.Cond)
	leftOut, rightOut := plan.SetOf(inner.Left.OutCols()), plan.SetOf(inner.Right.OutCols())
	reads := func(side plan.ColSet) bool {
		for id := range refs {
			if side.Has(id) {
				return true
			}
		}
		return false
	}
	nj := *inner
	switch {
	case !reads(rightOut) && reads(leftOut):
		s := *semi
		s.Left = inner.Left
		nj.Left, _ = sinkSemi(&s)
	case !reads(leftOut) && reads(rightOut):
		s := *semi
		s.Left = inner.Right
		nj.Right, _ = sinkSemi(&s)
	default:
		return semi, false
	}
	return &nj, true
}
