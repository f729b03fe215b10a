package opt

import (
	"slices"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// reduceShrink is how much smaller than a leaf a filtered leaf must be
// estimated for planReductions to restrict the first with the second.
const reduceShrink = 10

// reductions are the semi joins planReductions chose for the leaves of
// a cluster of inner joins.
type reductions struct {
	leaves []plan.Rel
	// by[i] lists the leaves restricting leaf i and the equalities.
	by [][]reduction
	// full[i] is leaf i with all its restrictions, to restrict others.
	full []plan.Rel
}

type reduction struct {
	leaf int
	eq   expr.Expr
}

// planReductions chooses, for the large leaves of a cluster of inner
// joins, semi joins against much smaller filtered leaves that an equality
// links them to: a row of the large leaf without a match there cannot be
// in the result. TPC-H Q7 joins supplier, lineitem, orders and customer
// before the two nations its condition keeps; supplier restricted to
// those nations brings lineitem's join 146k rows instead of 1.8M.
// Smaller leaves are restricted first, so a restriction passes along a
// chain (region -> nation -> customer in Q5). The small leaf is read
// twice, so only filtered scans whose conditions are deterministic and
// cannot raise an error qualify, copied so that no operator is shared.
func planReductions(leaves []plan.Rel, conds []expr.Expr) *reductions {
	r := &reductions{leaves: leaves, by: make([][]reduction, len(leaves)), full: slices.Clone(leaves)}
	est := make([]float64, len(leaves))
	order := make([]int, len(leaves))
	restricted := make([]bool, len(leaves))
	for i, leaf := range leaves {
		est[i], order[i] = plan.EstimateRows(leaf), i
		_, restricted[i] = reducerCopy(leaf)
		if _, isScan := leaf.(*plan.Scan); isScan {
			restricted[i] = false // a whole table restricts nothing
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case est[a] < est[b]:
			return -1
		case est[a] > est[b]:
			return 1
		}
		return 0
	})
	for _, i := range order {
		for _, j := range order {
			if i == j || !restricted[j] || est[j]*reduceShrink > est[i] {
				continue
			}
			eq := linkingEquality(conds, leaves[i], leaves[j])
			if eq == nil {
				continue
			}
			src, ok := reducerCopy(r.full[j])
			if !ok {
				continue
			}
			r.by[i] = append(r.by[i], reduction{leaf: j, eq: eq})
			r.full[i] = &plan.Join{Typ: plan.JoinSemi, Left: r.full[i], Right: src, Cond: eq}
			restricted[i] = true
		}
	}
	return r
}

// apply is leaf i restricted by the leaves not joined yet: a leaf joined
// before it restricts it through the join itself.
func (r *reductions) apply(i int, joined []bool) plan.Rel {
	out := r.leaves[i]
	for _, red := range r.by[i] {
		if joined[red.leaf] {
			continue
		}
		src, ok := reducerCopy(r.full[red.leaf])
		if !ok {
			continue
		}
		out = &plan.Join{Typ: plan.JoinSemi, Left: out, Right: src, Cond: red.eq}
	}
	return out
}

// linkingEquality is the conjunction of the plain equalities of conds
// between a column of a and one of b, nil if none.
func linkingEquality(conds []expr.Expr, a, b plan.Rel) expr.Expr {
	ac, bc := plan.SetOf(a.OutCols()), plan.SetOf(b.OutCols())
	var eqs []expr.Expr
	for _, c := range conds {
		if _, _, nullSafe, ok := plan.EquiKey(c, ac, bc); ok && !nullSafe {
			eqs = append(eqs, c)
		}
	}
	if len(eqs) == 0 {
		return nil
	}
	return plan.AndOf(eqs)
}

// reducerCopy copies r, a scan under deterministic, error-free filters or
// such a leaf already restricted by planReductions, with new nodes; it
// reports false for anything else.
func reducerCopy(r plan.Rel) (plan.Rel, bool) {
	switch x := r.(type) {
	case *plan.Scan:
		c := *x
		return &c, true
	case *plan.Filter:
		for _, p := range plan.Conjuncts(x.Pred) {
			if !safeExpr(p) {
				return nil, false
			}
		}
		in, ok := reducerCopy(x.In)
		if !ok {
			return nil, false
		}
		c := *x
		c.In = in
		return &c, true
	case *plan.Join:
		if x.Typ != plan.JoinSemi || x.Apply {
			return nil, false
		}
		l, ok := reducerCopy(x.Left)
		if !ok {
			return nil, false
		}
		rr, ok := reducerCopy(x.Right)
		if !ok {
			return nil, false
		}
		c := *x
		c.Left, c.Right = l, rr
		return &c, true
	}
	return nil, false
}
