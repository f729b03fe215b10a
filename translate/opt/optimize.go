package opt

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// orderJoins rebuilds each cluster of inner joins so that every join has
// a condition linking it to the tables joined before, when one exists:
// FROM a, b, c WHERE a.x = c.x AND c.y = b.y joins a with c first, not a
// with b (a cross product). Tables keep their FROM order otherwise.
func orderJoins(r plan.Rel) plan.Rel {
	if j, ok := r.(*plan.Join); ok && j.Typ == plan.JoinInner && !j.Apply {
		var leaves []plan.Rel
		var conds []expr.Expr
		var flatten func(r plan.Rel)
		flatten = func(r plan.Rel) {
			if j, ok := r.(*plan.Join); ok && j.Typ == plan.JoinInner && !j.Apply {
				flatten(j.Left)
				flatten(j.Right)
				conds = append(conds, plan.Conjuncts(j.Cond)...)
				return
			}
			leaves = append(leaves, orderJoins(r))
		}
		flatten(j)
		if len(leaves) > 2 {
			return buildJoins(leaves, conds)
		}
		nj := *j
		nj.Left, nj.Right = leaves[0], leaves[1]
		return &nj
	}
	return plan.MapChildren(r, orderJoins)
}

// buildJoins joins leaves left-deep, each next leaf the first one linked
// to what is joined so far by a condition.
func buildJoins(leaves []plan.Rel, conds []expr.Expr) plan.Rel {
	used := make([]bool, len(conds))
	red := planReductions(leaves, conds)
	idx := make([]int, len(leaves))
	for i := range idx {
		idx[i] = i
	}
	joined := make([]bool, len(leaves))
	joined[0] = true
	cur := red.apply(0, joined)
	// The columns joined so far: a restricted leaf's semi join outputs
	// only the leaf's own.
	have := plan.SetOf(plan.ProducedCols(leaves[0]))
	rest := leaves[1:]
	restIdx := idx[1:]
	// The sets each step compares, computed once: recomputing them made a
	// join of a few hundred tables take seconds.
	leafCols := make([]plan.ColSet, len(leaves))
	for i, leaf := range leaves {
		leafCols[i] = plan.SetOf(plan.ProducedCols(leaf))
	}
	condRefs := make([]plan.ColSet, len(conds))
	for k, c := range conds {
		condRefs[k] = plan.RefsOf(c)
	}
	for len(rest) > 0 {
		pick := 0
		for i := range rest {
			cols := leafCols[restIdx[i]]
			linked := false
			for k := range conds {
				refs := condRefs[k]
				if !used[k] && refs.Intersects(cols) && refs.Intersects(have) {
					linked = true
					break
				}
			}
			if linked {
				pick = i
				break
			}
		}
		li := restIdx[pick]
		joined[li] = true
		leaf := red.apply(li, joined)
		rest = append(append([]plan.Rel(nil), rest[:pick]...), rest[pick+1:]...)
		restIdx = append(append([]int(nil), restIdx[:pick]...), restIdx[pick+1:]...)
		for id := range leafCols[li] {
			have.Add(id)
		}
		var on []expr.Expr
		for k, c := range conds {
			if !used[k] && condRefs[k].SubsetOf(have) {
				used[k] = true
				on = append(on, c)
			}
		}
		cur = &plan.Join{Typ: plan.JoinInner, Left: cur, Right: leaf, Cond: plan.AndOf(on)}
	}
	var left []expr.Expr
	for k, c := range conds {
		if !used[k] {
			left = append(left, c) // outer references: keep above
		}
	}
	return withFilter(cur, left)
}

// pushDown returns r with preds (conditions over r's output) applied as
// low as they can go.
func pushDown(r plan.Rel, preds []expr.Expr) plan.Rel {
	switch x := r.(type) {
	case *plan.Filter:
		more := []expr.Expr(nil)
		for _, c := range plan.Conjuncts(x.Pred) {
			more = append(more, factorOr(c)...)
		}
		return pushDown(x.In, append(append([]expr.Expr(nil), preds...), more...))
	case *plan.Join:
		return pushIntoJoin(x, preds)
	case *plan.Project:
		pass := plan.ColSet{}
		for i, e := range x.Exprs {
			if c, ok := e.(*expr.Col); ok && plan.ColID(c.Idx) == x.Cols[i] {
				pass.Add(x.Cols[i])
			}
		}
		var down, above []expr.Expr
		for _, p := range preds {
			if plan.RefsOf(p).SubsetOf(pass) {
				down = append(down, p)
			} else {
				above = append(above, p)
			}
		}
		nx := *x
		nx.In = pushDown(x.In, down)
		return withFilter(&nx, above)
	case *plan.Sort:
		nx := *x
		nx.In = pushDown(x.In, preds)
		return &nx
	case *plan.Agg:
		pass := plan.ColSet{}
		for i, g := range x.Groups {
			if c, ok := g.(*expr.Col); ok && plan.ColID(c.Idx) == x.GroupCols[i] {
				pass.Add(x.GroupCols[i])
			}
		}
		var down, above []expr.Expr
		for _, p := range preds {
			if len(x.Groups) > 0 && plan.RefsOf(p).SubsetOf(pass) {
				down = append(down, p)
			} else {
				above = append(above, p)
			}
		}
		nx := *x
		nx.In = pushDown(x.In, down)
		return withFilter(&nx, above)
	case *plan.Limit:
		nx := *x
		nx.In = pushDown(x.In, nil)
		return withFilter(&nx, preds)
	case *plan.Window:
		nx := *x
		nx.In = pushDown(x.In, nil)
		return withFilter(&nx, preds)
	case *plan.TableFunc:
		// Conditions on the input rows alone hold before the function
		// runs: PostgreSQL calls a LATERAL function only for the rows the
		// WHERE clause keeps, so jsonb_each(t.j) ... WHERE
		// jsonb_typeof(t.j) = 'object' never sees an array.
		var down, above []expr.Expr
		if x.In != nil {
			pass := plan.SetOf(plan.ProducedCols(x.In))
			for _, p := range preds {
				if plan.RefsOf(p).SubsetOf(pass) {
					down = append(down, p)
				} else {
					above = append(above, p)
				}
			}
		} else {
			above = preds
		}
		nx := *x
		if x.In != nil {
			nx.In = pushDown(x.In, down)
		}
		return withFilter(&nx, above)
	case *plan.Recursive:
		nx := *x
		nx.Anchor = pushDown(x.Anchor, nil)
		nx.Recursive = pushDown(x.Recursive, nil)
		return withFilter(&nx, preds)
	case *plan.SetOp:
		nx := *x
		nx.Ins = make([]plan.Rel, len(x.Ins))
		for i, in := range x.Ins {
			nx.Ins[i] = pushDown(in, nil)
		}
		return withFilter(&nx, preds)
	}
	return withFilter(r, preds)
}

// pushIntoJoin distributes conditions over a join's inputs and condition.
func pushIntoJoin(x *plan.Join, preds []expr.Expr) plan.Rel {
	lo, ro := plan.SetOf(x.Left.OutCols()), plan.SetOf(x.Right.OutCols())
	both := plan.SetOf(x.Left.OutCols())
	for id := range ro {
		both.Add(id)
	}
	var lp, rp, cond, above []expr.Expr
	for _, p := range preds {
		refs := plan.RefsOf(p)
		switch {
		case refs.SubsetOf(lo) && (x.Typ == plan.JoinInner || x.Typ == plan.JoinLeft || x.Typ == plan.JoinSemi || x.Typ == plan.JoinAnti || x.Typ == plan.JoinMark):
			lp = append(lp, p)
		case refs.SubsetOf(ro) && (x.Typ == plan.JoinInner || x.Typ == plan.JoinRight):
			rp = append(rp, p)
		case refs.SubsetOf(both) && x.Typ == plan.JoinInner:
			cond = append(cond, p)
			if d, ok := impliedByOr(p, lo); ok {
				lp = append(lp, factorOr(d)...)
			}
			if d, ok := impliedByOr(p, ro); ok {
				rp = append(rp, factorOr(d)...)
			}
		default:
			above = append(above, p)
		}
	}
	// The join's own condition: for an inner join, parts over one side
	// filter that side; for an outer join, parts over the inner side only.
	for _, c := range plan.Conjuncts(x.Cond) {
		refs := plan.RefsOf(c)
		switch {
		case len(refs) > 0 && refs.SubsetOf(lo) && (x.Typ == plan.JoinInner || x.Typ == plan.JoinRight):
			lp = append(lp, c)
		case len(refs) > 0 && refs.SubsetOf(ro) && (x.Typ == plan.JoinInner || x.Typ == plan.JoinLeft || x.Typ == plan.JoinSemi || x.Typ == plan.JoinAnti):
			rp = append(rp, c)
		default:
			cond = append(cond, c)
		}
	}
	nx := *x
	nx.Left = pushDown(x.Left, lp)
	nx.Right = pushDown(x.Right, rp)
	nx.Cond = plan.AndOf(cond)
	return withFilter(&nx, above)
}

func withFilter(r plan.Rel, preds []expr.Expr) plan.Rel {
	if len(preds) == 0 {
		return r
	}
	// Optimizing twice derives the same implied conditions again
	// (or.go): keep one of each.
	seen := make(map[string]bool, len(preds))
	uniq := preds[:0:0]
	for _, p := range preds {
		if k := plan.FormatExpr(p); !seen[k] {
			seen[k] = true
			uniq = append(uniq, p)
		}
	}
	return &plan.Filter{In: r, Pred: plan.AndOf(uniq)}
}

// factorOr pulls the conditions every branch of an OR shares out of it:
// (a AND b) OR (a AND c) is a AND (b OR c). TPC-H Q19's join key sits in
// each branch of an OR; factored out, it becomes a hash join key. The
// bounds the remaining OR implies join them (boundsOfOr, or.go).
func factorOr(e expr.Expr) []expr.Expr {
	out := factorCommon(e)
	last := out[len(out)-1]
	derived, exact := boundsOfOr(last)
	if exact {
		return append(out[:len(out)-1:len(out)-1], derived...)
	}
	return append(append(out[:len(out)-1:len(out)-1], derived...), last)
}

// factorCommon is factorOr's first half: the shared conditions, then
// what remains of the OR (last).
func factorCommon(e expr.Expr) []expr.Expr {
	call, ok := e.(*expr.Call)
	if !ok || call.Fn != "or" || len(call.Args) < 2 {
		return []expr.Expr{e}
	}
	branches := make([][]expr.Expr, len(call.Args))
	for i, a := range call.Args {
		branches[i] = plan.Conjuncts(a)
	}
	var common []expr.Expr
	for _, c := range branches[0] {
		key := plan.FormatExpr(c)
		inAll := true
		for _, b := range branches[1:] {
			found := false
			for _, x := range b {
				if plan.FormatExpr(x) == key {
					found = true
					break
				}
			}
			if !found {
				inAll = false
				break
			}
		}
		if inAll {
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return []expr.Expr{e}
	}
	shared := map[string]bool{}
	for _, c := range common {
		shared[plan.FormatExpr(c)] = true
	}
	rest := make([]expr.Expr, 0, len(branches))
	for _, b := range branches {
		var keep []expr.Expr
		for _, x := range b {
			if !shared[plan.FormatExpr(x)] {
				keep = append(keep, x)
			}
		}
		if len(keep) == 0 {
			return common // one branch is just the shared part: the OR is true
		}
		rest = append(rest, plan.AndOf(keep))
	}
	return append(common, &expr.Call{Fn: "or", Args: rest, T: expr.Bool})
}
