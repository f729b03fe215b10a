package plan

import "github.com/icegate/icegate/engine/expr"

// Visit calls visit on r and every node below it.
func Visit(r Rel, visit func(Rel)) {
	visit(r)
	for _, c := range Children(r) {
		Visit(c, visit)
	}
}

func Children(r Rel) []Rel {
	switch x := r.(type) {
	case *Filter:
		return []Rel{x.In}
	case *Project:
		return []Rel{x.In}
	case *Agg:
		return []Rel{x.In}
	case *Join:
		return []Rel{x.Left, x.Right}
	case *Sort:
		return []Rel{x.In}
	case *Limit:
		return []Rel{x.In}
	case *Window:
		return []Rel{x.In}
	case *SetOp:
		return x.Ins
	case *TableFunc:
		return []Rel{x.In}
	case *Recursive:
		return []Rel{x.Anchor, x.Recursive}
	}
	return nil
}

// Exprs lists the expressions a node evaluates.
func Exprs(r Rel) []expr.Expr {
	var out []expr.Expr
	switch x := r.(type) {
	case *Values:
		for _, row := range x.Rows {
			out = append(out, row...)
		}
	case *Filter:
		out = append(out, x.Pred)
	case *Project:
		out = append(out, x.Exprs...)
	case *Agg:
		out = append(out, x.Groups...)
		for _, a := range x.Aggs {
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
	case *Join:
		if x.Cond != nil {
			out = append(out, x.Cond)
		}
	case *Sort:
		for _, k := range x.Keys {
			out = append(out, k.E)
		}
	case *Window:
		out = append(out, x.Partition...)
		for _, k := range x.Order {
			out = append(out, k.E)
		}
		for _, c := range x.Calls {
			out = append(out, c.Args...)
			if c.Filter != nil {
				out = append(out, c.Filter)
			}
		}
	case *TableFunc:
		out = append(out, x.Args...)
	}
	return out
}

// MapChildren copies r with fn applied to its inputs.
func MapChildren(r Rel, fn func(Rel) Rel) Rel {
	switch x := r.(type) {
	case *Filter:
		n := *x
		n.In = fn(x.In)
		return &n
	case *Project:
		n := *x
		n.In = fn(x.In)
		return &n
	case *Agg:
		n := *x
		n.In = fn(x.In)
		return &n
	case *Join:
		n := *x
		n.Left, n.Right = fn(x.Left), fn(x.Right)
		return &n
	case *Sort:
		n := *x
		n.In = fn(x.In)
		return &n
	case *Limit:
		n := *x
		n.In = fn(x.In)
		return &n
	case *Window:
		n := *x
		n.In = fn(x.In)
		return &n
	case *TableFunc:
		n := *x
		n.In = fn(x.In)
		return &n
	case *SetOp:
		n := *x
		n.Ins = make([]Rel, len(x.Ins))
		for i, in := range x.Ins {
			n.Ins[i] = fn(in)
		}
		return &n
	case *Recursive:
		n := *x
		n.Anchor, n.Recursive = fn(x.Anchor), fn(x.Recursive)
		return &n
	}
	return r
}
