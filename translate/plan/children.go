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
func MapChildren(r Rel, fn func(Rel) Rel) Rel { return Map(r, fn, nil) }

// Map copies r with child applied to each of its inputs and ex to each of
// the expressions it evaluates (those Exprs lists); a nil function keeps
// what it would map. Leaves without expressions (scans, sources) are
// returned as they are. It is the one place that knows every node's
// fields: a new node kind adds its case here, in Children and in Exprs.
func Map(r Rel, child func(Rel) Rel, ex func(expr.Expr) expr.Expr) Rel {
	if child == nil {
		child = func(r Rel) Rel { return r }
	}
	if ex == nil {
		ex = func(e expr.Expr) expr.Expr { return e }
	}
	opt := func(e expr.Expr) expr.Expr { // an optional expression stays nil
		if e == nil {
			return nil
		}
		return ex(e)
	}
	list := func(es []expr.Expr) []expr.Expr {
		if es == nil {
			return nil
		}
		out := make([]expr.Expr, len(es))
		for i, e := range es {
			out[i] = ex(e)
		}
		return out
	}
	keys := func(ks []SortKey) []SortKey {
		if ks == nil {
			return nil
		}
		out := make([]SortKey, len(ks))
		for i, k := range ks {
			out[i] = k
			out[i].E = ex(k.E)
		}
		return out
	}
	switch x := r.(type) {
	case *Values:
		n := *x
		n.Rows = make([][]expr.Expr, len(x.Rows))
		for i, row := range x.Rows {
			n.Rows[i] = list(row)
		}
		return &n
	case *Filter:
		n := *x
		n.In, n.Pred = child(x.In), ex(x.Pred)
		return &n
	case *Project:
		n := *x
		n.In, n.Exprs = child(x.In), list(x.Exprs)
		return &n
	case *Agg:
		n := *x
		n.In, n.Groups = child(x.In), list(x.Groups)
		n.Aggs = make([]AggCall, len(x.Aggs))
		for i, a := range x.Aggs {
			n.Aggs[i] = a
			n.Aggs[i].Arg, n.Aggs[i].Filter = opt(a.Arg), opt(a.Filter)
			n.Aggs[i].Args, n.Aggs[i].OrderBy = list(a.Args), keys(a.OrderBy)
		}
		return &n
	case *Join:
		n := *x
		n.Left, n.Right, n.Cond = child(x.Left), child(x.Right), opt(x.Cond)
		return &n
	case *Sort:
		n := *x
		n.In, n.Keys = child(x.In), keys(x.Keys)
		return &n
	case *Limit:
		n := *x
		n.In = child(x.In)
		return &n
	case *Window:
		n := *x
		n.In, n.Partition, n.Order = child(x.In), list(x.Partition), keys(x.Order)
		n.Calls = make([]WindowCall, len(x.Calls))
		for i, c := range x.Calls {
			n.Calls[i] = c
			n.Calls[i].Args, n.Calls[i].Filter = list(c.Args), opt(c.Filter)
		}
		return &n
	case *TableFunc:
		n := *x
		n.In, n.Args = child(x.In), list(x.Args)
		return &n
	case *SetOp:
		n := *x
		n.Ins = make([]Rel, len(x.Ins))
		for i, in := range x.Ins {
			n.Ins[i] = child(in)
		}
		return &n
	case *Recursive:
		n := *x
		n.Anchor, n.Recursive = child(x.Anchor), child(x.Recursive)
		return &n
	}
	return r
}
