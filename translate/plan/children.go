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
// what it would map. When nothing changes, Map returns r itself (no copy),
// so a pass that rewrites little allocates little. Leaves without
// expressions (scans, sources) are returned as they are. It is the one
// place that knows every node's fields: a new node kind adds its case
// here, in Children and in Exprs.
func Map(r Rel, child func(Rel) Rel, ex func(expr.Expr) expr.Expr) Rel {
	changed := false
	in := func(c Rel) Rel {
		if child == nil {
			return c
		}
		n := child(c)
		if n != c {
			changed = true
		}
		return n
	}
	one := func(e expr.Expr) expr.Expr { // an optional expression stays nil
		if e == nil || ex == nil {
			return e
		}
		n := ex(e)
		if n != e {
			changed = true
		}
		return n
	}
	list := func(es []expr.Expr) []expr.Expr {
		if ex == nil {
			return es
		}
		var out []expr.Expr
		for i, e := range es {
			n := ex(e)
			if n != e && out == nil {
				out = append(make([]expr.Expr, 0, len(es)), es[:i]...)
			}
			if out != nil {
				out = append(out, n)
			}
		}
		if out == nil {
			return es
		}
		changed = true
		return out
	}
	keys := func(ks []SortKey) []SortKey {
		if ex == nil {
			return ks
		}
		var out []SortKey
		for i, k := range ks {
			n := ex(k.E)
			if n != k.E && out == nil {
				out = append(make([]SortKey, 0, len(ks)), ks[:i]...)
			}
			if out != nil {
				k.E = n
				out = append(out, k)
			}
		}
		if out == nil {
			return ks
		}
		changed = true
		return out
	}
	switch x := r.(type) {
	case *Values:
		n := *x
		n.Rows = nil
		for i, row := range x.Rows {
			nr := list(row)
			if n.Rows == nil && changed {
				n.Rows = append(make([][]expr.Expr, 0, len(x.Rows)), x.Rows[:i]...)
			}
			if n.Rows != nil {
				n.Rows = append(n.Rows, nr)
			}
		}
		if !changed {
			return r
		}
		return &n
	case *Filter:
		n := *x
		n.In, n.Pred = in(x.In), one(x.Pred)
		if !changed {
			return r
		}
		return &n
	case *Project:
		n := *x
		n.In, n.Exprs = in(x.In), list(x.Exprs)
		if !changed {
			return r
		}
		return &n
	case *Agg:
		n := *x
		n.In, n.Groups = in(x.In), list(x.Groups)
		aggs := make([]AggCall, len(x.Aggs))
		for i, a := range x.Aggs {
			aggs[i] = a
			aggs[i].Arg, aggs[i].Filter = one(a.Arg), one(a.Filter)
			aggs[i].Args, aggs[i].OrderBy = list(a.Args), keys(a.OrderBy)
		}
		if !changed {
			return r
		}
		n.Aggs = aggs
		return &n
	case *Join:
		n := *x
		n.Left, n.Right, n.Cond = in(x.Left), in(x.Right), one(x.Cond)
		if !changed {
			return r
		}
		return &n
	case *Sort:
		n := *x
		n.In, n.Keys = in(x.In), keys(x.Keys)
		if !changed {
			return r
		}
		return &n
	case *Limit:
		n := *x
		n.In = in(x.In)
		if !changed {
			return r
		}
		return &n
	case *Window:
		n := *x
		n.In, n.Partition, n.Order = in(x.In), list(x.Partition), keys(x.Order)
		calls := make([]WindowCall, len(x.Calls))
		for i, c := range x.Calls {
			calls[i] = c
			calls[i].Args, calls[i].Filter = list(c.Args), one(c.Filter)
		}
		if !changed {
			return r
		}
		n.Calls = calls
		return &n
	case *TableFunc:
		n := *x
		n.In, n.Args = in(x.In), list(x.Args)
		if !changed {
			return r
		}
		return &n
	case *SetOp:
		n := *x
		n.Ins = make([]Rel, len(x.Ins))
		for i, c := range x.Ins {
			n.Ins[i] = in(c)
		}
		if !changed {
			return r
		}
		return &n
	case *Recursive:
		n := *x
		n.Anchor, n.Recursive = in(x.Anchor), in(x.Recursive)
		if !changed {
			return r
		}
		return &n
	}
	return r
}
