package translate

import "github.com/icegate/icegate/engine/expr"

// visitRel calls visit on r and every node below it.
func visitRel(r rel, visit func(rel)) {
	visit(r)
	for _, c := range relChildren(r) {
		visitRel(c, visit)
	}
}

func relChildren(r rel) []rel {
	switch x := r.(type) {
	case *filterRel:
		return []rel{x.in}
	case *projectRel:
		return []rel{x.in}
	case *aggRel:
		return []rel{x.in}
	case *joinRel:
		return []rel{x.left, x.right}
	case *sortRel:
		return []rel{x.in}
	case *limitRel:
		return []rel{x.in}
	case *windowRel:
		return []rel{x.in}
	case *setOpRel:
		return x.ins
	case *tableFuncRel:
		return []rel{x.in}
	case *recursiveRel:
		return []rel{x.anchor, x.recursive}
	}
	return nil
}

// relExprs lists the expressions a node evaluates.
func relExprs(r rel) []expr.Expr {
	var out []expr.Expr
	switch x := r.(type) {
	case *valuesRel:
		for _, row := range x.rows {
			out = append(out, row...)
		}
	case *filterRel:
		out = append(out, x.pred)
	case *projectRel:
		out = append(out, x.exprs...)
	case *aggRel:
		out = append(out, x.groups...)
		for _, a := range x.aggs {
			if a.Arg != nil {
				out = append(out, a.Arg)
			}
			out = append(out, a.Args...)
			if a.Filter != nil {
				out = append(out, a.Filter)
			}
			for _, k := range a.OrderBy {
				out = append(out, k.E)
			}
		}
	case *joinRel:
		if x.cond != nil {
			out = append(out, x.cond)
		}
	case *sortRel:
		for _, k := range x.keys {
			out = append(out, k.E)
		}
	case *windowRel:
		out = append(out, x.partition...)
		for _, k := range x.order {
			out = append(out, k.E)
		}
		for _, c := range x.calls {
			out = append(out, c.args...)
			if c.filter != nil {
				out = append(out, c.filter)
			}
		}
	case *tableFuncRel:
		out = append(out, x.args...)
	}
	return out
}

// mapChildren copies r with fn applied to its inputs.
func mapChildren(r rel, fn func(rel) rel) rel {
	switch x := r.(type) {
	case *filterRel:
		n := *x
		n.in = fn(x.in)
		return &n
	case *projectRel:
		n := *x
		n.in = fn(x.in)
		return &n
	case *aggRel:
		n := *x
		n.in = fn(x.in)
		return &n
	case *joinRel:
		n := *x
		n.left, n.right = fn(x.left), fn(x.right)
		return &n
	case *sortRel:
		n := *x
		n.in = fn(x.in)
		return &n
	case *limitRel:
		n := *x
		n.in = fn(x.in)
		return &n
	case *windowRel:
		n := *x
		n.in = fn(x.in)
		return &n
	case *tableFuncRel:
		n := *x
		n.in = fn(x.in)
		return &n
	case *setOpRel:
		n := *x
		n.ins = make([]rel, len(x.ins))
		for i, in := range x.ins {
			n.ins[i] = fn(in)
		}
		return &n
	case *recursiveRel:
		n := *x
		n.anchor, n.recursive = fn(x.anchor), fn(x.recursive)
		return &n
	}
	return r
}
