package translate

import (
	"strconv"

	"github.com/icegate/icegate/engine/expr"
)

// optimize rewrites a bound relational tree before lowering. Today it
// pushes predicates down: WHERE conditions move below projections, sorts
// and group keys, into the inputs of joins they concern, and the
// conditions over both sides of an inner join become its join condition
// (so FROM a, b WHERE a.x = b.y is a hash join). Nodes are copied, never
// changed: a prepared statement lowers its tree again at each Execute.
func optimize(r rel) rel {
	return pushDown(r, nil)
}

// pushDown returns r with preds (conditions over r's output) applied as
// low as they can go.
func pushDown(r rel, preds []expr.Expr) rel {
	switch x := r.(type) {
	case *filterRel:
		return pushDown(x.in, append(append([]expr.Expr(nil), preds...), conjuncts(x.pred)...))
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
	return &filterRel{in: r, pred: andOf(preds)}
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
