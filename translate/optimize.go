package translate

import (
	"strconv"

	"github.com/icegate/icegate/engine/expr"
)

// optimize rewrites a bound relational tree before lowering. Today it
// pushes predicates down: WHERE conditions move below projections, sorts
// and group keys, into the inputs of joins they concern, and the
// conditions over both sides of an inner join become its join condition
// (so FROM a, b WHERE a.x = b.y is a hash join). Then an aggregation a
// join looks groups up in is restricted to the keys looked up
// (optimize_keys.go). Nodes are copied, never changed: a prepared
// statement lowers its tree again at each Execute.
func optimize(r rel) rel {
	return restrictKeys(sinkSemiJoins(pushDown(orderJoins(pushDown(r, nil)), nil)))
}

// orderJoins rebuilds each cluster of inner joins so that every join has
// a condition linking it to the tables joined before, when one exists:
// FROM a, b, c WHERE a.x = c.x AND c.y = b.y joins a with c first, not a
// with b (a cross product). Tables keep their FROM order otherwise.
func orderJoins(r rel) rel {
	if j, ok := r.(*joinRel); ok && j.typ == joinInner && !j.apply {
		var leaves []rel
		var conds []expr.Expr
		var flatten func(r rel)
		flatten = func(r rel) {
			if j, ok := r.(*joinRel); ok && j.typ == joinInner && !j.apply {
				flatten(j.left)
				flatten(j.right)
				conds = append(conds, conjuncts(j.cond)...)
				return
			}
			leaves = append(leaves, orderJoins(r))
		}
		flatten(j)
		if len(leaves) > 2 {
			return buildJoins(leaves, conds)
		}
		nj := *j
		nj.left, nj.right = leaves[0], leaves[1]
		return &nj
	}
	return mapChildren(r, orderJoins)
}

// buildJoins joins leaves left-deep, each next leaf the first one linked
// to what is joined so far by a condition.
func buildJoins(leaves []rel, conds []expr.Expr) rel {
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
	have := setOf(producedCols(leaves[0]))
	rest := leaves[1:]
	restIdx := idx[1:]
	// The sets each step compares, computed once: recomputing them made a
	// join of a few hundred tables take seconds.
	leafCols := make([]colSet, len(leaves))
	for i, leaf := range leaves {
		leafCols[i] = setOf(producedCols(leaf))
	}
	condRefs := make([]colSet, len(conds))
	for k, c := range conds {
		condRefs[k] = refsOf(c)
	}
	for len(rest) > 0 {
		pick := 0
		for i := range rest {
			cols := leafCols[restIdx[i]]
			linked := false
			for k := range conds {
				refs := condRefs[k]
				if !used[k] && refs.intersects(cols) && refs.intersects(have) {
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
		rest = append(append([]rel(nil), rest[:pick]...), rest[pick+1:]...)
		restIdx = append(append([]int(nil), restIdx[:pick]...), restIdx[pick+1:]...)
		for id := range leafCols[li] {
			have.add(id)
		}
		var on []expr.Expr
		for k, c := range conds {
			if !used[k] && condRefs[k].subsetOf(have) {
				used[k] = true
				on = append(on, c)
			}
		}
		cur = &joinRel{typ: joinInner, left: cur, right: leaf, cond: andOf(on)}
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
func pushDown(r rel, preds []expr.Expr) rel {
	switch x := r.(type) {
	case *filterRel:
		more := []expr.Expr(nil)
		for _, c := range conjuncts(x.pred) {
			more = append(more, factorOr(c)...)
		}
		return pushDown(x.in, append(append([]expr.Expr(nil), preds...), more...))
	case *joinRel:
		return pushIntoJoin(x, preds)
	case *projectRel:
		pass := colSet{}
		for i, e := range x.exprs {
			if c, ok := e.(*expr.Col); ok && colID(c.Idx) == x.cols[i] {
				pass.add(x.cols[i])
			}
		}
		var down, above []expr.Expr
		for _, p := range preds {
			if refsOf(p).subsetOf(pass) {
				down = append(down, p)
			} else {
				above = append(above, p)
			}
		}
		nx := *x
		nx.in = pushDown(x.in, down)
		return withFilter(&nx, above)
	case *sortRel:
		nx := *x
		nx.in = pushDown(x.in, preds)
		return &nx
	case *aggRel:
		pass := colSet{}
		for i, g := range x.groups {
			if c, ok := g.(*expr.Col); ok && colID(c.Idx) == x.groupCols[i] {
				pass.add(x.groupCols[i])
			}
		}
		var down, above []expr.Expr
		for _, p := range preds {
			if len(x.groups) > 0 && refsOf(p).subsetOf(pass) {
				down = append(down, p)
			} else {
				above = append(above, p)
			}
		}
		nx := *x
		nx.in = pushDown(x.in, down)
		return withFilter(&nx, above)
	case *limitRel:
		nx := *x
		nx.in = pushDown(x.in, nil)
		return withFilter(&nx, preds)
	case *windowRel:
		nx := *x
		nx.in = pushDown(x.in, nil)
		return withFilter(&nx, preds)
	case *tableFuncRel:
		nx := *x
		nx.in = pushDown(x.in, nil)
		return withFilter(&nx, preds)
	case *recursiveRel:
		nx := *x
		nx.anchor = pushDown(x.anchor, nil)
		nx.recursive = pushDown(x.recursive, nil)
		return withFilter(&nx, preds)
	case *setOpRel:
		nx := *x
		nx.ins = make([]rel, len(x.ins))
		for i, in := range x.ins {
			nx.ins[i] = pushDown(in, nil)
		}
		return withFilter(&nx, preds)
	}
	return withFilter(r, preds)
}

// pushIntoJoin distributes conditions over a join's inputs and condition.
func pushIntoJoin(x *joinRel, preds []expr.Expr) rel {
	lo, ro := setOf(x.left.outCols()), setOf(x.right.outCols())
	both := setOf(x.left.outCols())
	for id := range ro {
		both.add(id)
	}
	var lp, rp, cond, above []expr.Expr
	for _, p := range preds {
		refs := refsOf(p)
		switch {
		case refs.subsetOf(lo) && (x.typ == joinInner || x.typ == joinLeft || x.typ == joinSemi || x.typ == joinAnti || x.typ == joinMark):
			lp = append(lp, p)
		case refs.subsetOf(ro) && (x.typ == joinInner || x.typ == joinRight):
			rp = append(rp, p)
		case refs.subsetOf(both) && x.typ == joinInner:
			cond = append(cond, p)
			if d, ok := impliedByOr(p, lo); ok {
				lp = append(lp, d)
			}
			if d, ok := impliedByOr(p, ro); ok {
				rp = append(rp, d)
			}
		default:
			above = append(above, p)
		}
	}
	// The join's own condition: for an inner join, parts over one side
	// filter that side; for an outer join, parts over the inner side only.
	for _, c := range conjuncts(x.cond) {
		refs := refsOf(c)
		switch {
		case len(refs) > 0 && refs.subsetOf(lo) && (x.typ == joinInner || x.typ == joinRight):
			lp = append(lp, c)
		case len(refs) > 0 && refs.subsetOf(ro) && (x.typ == joinInner || x.typ == joinLeft || x.typ == joinSemi || x.typ == joinAnti):
			rp = append(rp, c)
		default:
			cond = append(cond, c)
		}
	}
	nx := *x
	nx.left = pushDown(x.left, lp)
	nx.right = pushDown(x.right, rp)
	nx.cond = andOf(cond)
	return withFilter(&nx, above)
}

func withFilter(r rel, preds []expr.Expr) rel {
	if len(preds) == 0 {
		return r
	}
	// Optimizing twice derives the same implied conditions again
	// (optimize_or.go): keep one of each.
	seen := make(map[string]bool, len(preds))
	uniq := preds[:0:0]
	for _, p := range preds {
		if k := fmtExpr(p); !seen[k] {
			seen[k] = true
			uniq = append(uniq, p)
		}
	}
	return &filterRel{in: r, pred: andOf(uniq)}
}

// summaryInt reads an integer field of a snapshot summary.
func summaryInt(summary map[string]string, key string) (int64, bool) {
	v, ok := summary[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// factorOr pulls the conditions every branch of an OR shares out of it:
// (a AND b) OR (a AND c) is a AND (b OR c). TPC-H Q19's join key sits in
// each branch of an OR; factored out, it becomes a hash join key.
func factorOr(e expr.Expr) []expr.Expr {
	call, ok := e.(*expr.Call)
	if !ok || call.Fn != "or" || len(call.Args) < 2 {
		return []expr.Expr{e}
	}
	branches := make([][]expr.Expr, len(call.Args))
	for i, a := range call.Args {
		branches[i] = conjuncts(a)
	}
	var common []expr.Expr
	for _, c := range branches[0] {
		key := fmtExpr(c)
		inAll := true
		for _, b := range branches[1:] {
			found := false
			for _, x := range b {
				if fmtExpr(x) == key {
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
		shared[fmtExpr(c)] = true
	}
	rest := make([]expr.Expr, 0, len(branches))
	for _, b := range branches {
		var keep []expr.Expr
		for _, x := range b {
			if !shared[fmtExpr(x)] {
				keep = append(keep, x)
			}
		}
		if len(keep) == 0 {
			return common // one branch is just the shared part: the OR is true
		}
		rest = append(rest, andOf(keep))
	}
	return append(common, &expr.Call{Fn: "or", Args: rest, T: expr.Bool})
}
