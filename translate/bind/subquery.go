package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// Subqueries in expressions.
//
// An uncorrelated scalar subquery or EXISTS becomes a plan.Subquery: lower
// runs its plan once, before the statement's operators start, and puts
// the value in its place (PostgreSQL's InitPlan). IN / ANY / ALL and every
// correlated subquery become joins to the relation the expression is
// evaluated over: the Binder records them as pending joins, and the clause
// being bound puts them below the node that uses their result (a mark
// join's boolean, a left join's value). Correlated subqueries are
// decorrelated: the conditions of their WHERE that refer to the outer
// query move into the join condition (and an aggregate subquery groups
// by the inner side of those conditions). Forms that cannot be
// decorrelated that way are reported as not supported.

// pendingJoin is a join a subquery in an expression needs below the node
// that evaluates the expression.
type pendingJoin struct {
	typ       plan.JoinType
	right     plan.Rel
	cond      expr.Expr
	mark      plan.ColID
	nullAware bool
	single    bool
	// srf, when set, is a set-returning function of the select list to
	// evaluate over the relation instead of a join.
	srf *plan.TableFunc
	// apply: a correlated right side run once per row (lower/apply.go).
	apply bool
}

// wrapPending puts one pending join (or set-returning function) over r.
func wrapPending(r plan.Rel, p pendingJoin) plan.Rel {
	if p.srf != nil {
		f := *p.srf
		f.In = r
		return &f
	}
	return &plan.Join{Typ: p.typ, Left: r, Right: p.right, Cond: p.cond, Mark: p.mark, NullAware: p.nullAware, Single: p.single, Apply: p.apply}
}

// testExpr binds the left operand of IN / ANY / ALL. Above an
// aggregation (the subquery is hidden from it, expr.go) the operand
// is an expression of the query's groups, as any other there: GROUP BY
// g % 3 with SELECT g % 3 IN (SELECT ...) compares the group's value.
func (b *Binder) testExpr(n *pg.Node) (Bound, error) {
	if b.agg != nil || b.hiddenAgg == nil {
		return b.Expr(n)
	}
	b.agg, b.hiddenAgg = b.hiddenAgg, nil
	defer func() { b.hiddenAgg, b.agg = b.agg, nil }()
	return b.Expr(n)
}

// applyPending puts the pending joins of the clause just bound over r.
func (b *Binder) applyPending(r plan.Rel) plan.Rel {
	for _, p := range b.pending {
		r = wrapPending(r, p)
	}
	b.pending = nil
	return r
}

// applyPendingPre puts the joins of subqueries inside aggregate arguments
// below the aggregation.
func (b *Binder) applyPendingPre(r plan.Rel) plan.Rel {
	for _, p := range b.pendingPre {
		r = wrapPending(r, p)
	}
	b.pendingPre = nil
	return r
}

func (b *Binder) addPending(p pendingJoin) {
	if b.inAgg {
		b.pendingPre = append(b.pendingPre, p)
		return
	}
	b.pending = append(b.pending, p)
}

// bindSubquery binds a subquery whose enclosing scope is the current one.
func (b *Binder) bindSubquery(sel *pg.SelectStmt) (*plan.Select, error) {
	return b.BindSelect(sel)
}

// bindSubqueryIn binds a subquery whose enclosing scope is parent.
func (b *Binder) bindSubqueryIn(parent *scope, sel *pg.SelectStmt) (*plan.Select, error) {
	saved := b.scope
	b.scope = parent
	defer func() { b.scope = saved }()
	return b.BindSelect(sel)
}

// subLink binds a subquery expression.
func (b *Binder) subLink(sl *pg.SubLink) (Bound, error) {
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil {
		return Bound{}, b.ErrAt(pgerr.NotYet("this subquery"), sl.Location)
	}
	if b.where == "JOIN conditions" && !b.outerJoinSubqueries {
		return Bound{}, b.ErrAt(pgerr.NotYetPlural("subqueries in the conditions of outer joins"), sl.Location)
	}
	// The test expression of IN / ANY is bound in the outer query, before
	// the subquery.
	var test Bound
	if sl.Testexpr != nil {
		if sl.Testexpr.GetRowExpr() != nil {
			return b.rowSubLink(sl)
		}
		var err error
		if test, err = b.testExpr(sl.Testexpr); err != nil {
			return Bound{}, err
		}
	}
	where, inAgg := b.where, b.inAgg
	resume := b.suspendOuterJoinSubqueries()
	p, err := b.bindSubquery(sel)
	resume()
	b.where, b.inAgg = where, inAgg
	if err != nil {
		return Bound{}, err
	}
	free := plan.FreeRefs(p.Root)
	switch sl.SubLinkType {
	case pg.SubLinkType_EXISTS_SUBLINK:
		if len(free) == 0 {
			return Bound{E: &plan.Subquery{Plan: p, Exists: true, T: expr.Bool}, T: plan.TBool, Name: "exists", strong: true}, nil
		}
		return b.markJoin(p, free, nil, "", false, sl.Location)
	case pg.SubLinkType_EXPR_SUBLINK:
		if len(p.Out) != 1 {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "subquery must return only one column"), sl.Location)
		}
		t := plan.Type{OID: p.Cols[0].TypeOID, Typmod: p.Cols[0].Typmod}
		if len(free) == 0 {
			return Bound{E: &plan.Subquery{Plan: p, T: p.Output[0].Type()}, T: t, Name: p.Cols[0].Name, strong: true}, nil
		}
		return b.scalarJoin(p, free, sl.Location)
	case pg.SubLinkType_ANY_SUBLINK, pg.SubLinkType_ALL_SUBLINK:
		if len(p.Out) != 1 {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "subquery has too many columns"), sl.Location)
		}
		op := "="
		if len(sl.OperName) > 0 {
			op = sl.OperName[len(sl.OperName)-1].GetString_().GetSval()
		}
		all := sl.SubLinkType == pg.SubLinkType_ALL_SUBLINK
		if all {
			neg, ok := negatedOp[op]
			if !ok {
				return Bound{}, b.ErrAt(pgerr.NotYet("ALL with operator "+op), sl.Location)
			}
			op = neg
		}
		r, err := b.markJoin(p, free, &test, op, true, sl.Location)
		if err != nil || !all {
			return r, err
		}
		return b.call("not", []Bound{r}, sl.Location)
	case pg.SubLinkType_ARRAY_SUBLINK:
		return b.arraySubLink(p, free, sl.Location)
	}
	return Bound{}, b.ErrAt(pgerr.NotYet("this kind of subquery"), sl.Location)
}

// negatedOp maps a comparison to the one that is true exactly when it is
// false (x op ALL (s) is NOT (x negop ANY (s))).
var negatedOp = map[string]string{"=": "<>", "<>": "=", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}

// markJoin binds EXISTS (free refs: correlated) or test op ANY (p) as a
// mark join to the current input and returns its boolean.
func (b *Binder) markJoin(p *plan.Select, free plan.ColSet, test *Bound, op string, nullAware bool, loc int32) (Bound, error) {
	right := p.Root
	var conds []expr.Expr
	var key expr.Expr
	if test != nil {
		key = p.Output[0]
	}
	apply := false
	if len(free) > 0 {
		inner, projected, ok := unwrapForJoin(p, test == nil)
		var pulled plan.Rel
		var pulledConds []expr.Expr
		if ok {
			pulled, pulledConds, ok = pullCorrelated(b, inner, free)
		}
		if ok && test != nil && plan.RefsOf(projected).Intersects(free) {
			ok = false
		}
		if ok {
			right, conds = pulled, pulledConds
			if test != nil {
				key = projected
			}
		} else {
			apply = true // run the subquery per outer row
		}
	}
	if test != nil {
		kb := Bound{E: key, T: b.typeOfOutput(p, 0)}
		cmp, err := b.binaryOp(op, *test, kb, loc)
		if err != nil {
			return Bound{}, err
		}
		if cmp.T.OID != plan.TBool.OID {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "op ANY/ALL (array) requires operator to yield boolean"), loc)
		}
		conds = append([]expr.Expr{cmp.E}, conds...)
	}
	mark := b.newCol("mark", plan.TBool, expr.Bool)
	b.addPending(pendingJoin{typ: plan.JoinMark, right: right, cond: plan.AndOf(conds), mark: mark, nullAware: nullAware && test != nil, apply: apply})
	r := b.ref(mark)
	r.Name = "exists"
	if test != nil {
		r.Name, r.strong = "?column?", false
	}
	return r, nil
}

// binaryOp binds l op r.
func (b *Binder) binaryOp(op string, l, r Bound, loc int32) (Bound, error) {
	return b.call(op, []Bound{l, r}, loc)
}

func (b *Binder) typeOfOutput(p *plan.Select, i int) plan.Type {
	return plan.Type{OID: p.Cols[i].TypeOID, Typmod: p.Cols[i].Typmod}
}

// unwrapForJoin returns the relation below a subquery's projection and
// the projected expression of its first output. For EXISTS, ORDER BY,
// DISTINCT and a LIMIT of at least one row do not matter and are dropped.
func unwrapForJoin(p *plan.Select, exists bool) (plan.Rel, expr.Expr, bool) {
	r := p.Root
	for {
		switch x := r.(type) {
		case *plan.Limit:
			if !exists || x.Offset > 0 || x.Limit == 0 {
				return nil, nil, false
			}
			r = x.In
			continue
		case *plan.Sort:
			r = x.In
			continue
		case *plan.Agg:
			if len(x.Aggs) > 0 || !exists {
				if len(x.Aggs) == 0 && plan.SameIDs(x.GroupCols, p.Out) {
					r = x.In // DISTINCT: IN does not care about duplicates
					continue
				}
				return nil, nil, false
			}
			r = x.In
			continue
		case *plan.Project:
			var first expr.Expr
			for i, id := range x.Cols {
				if len(p.Out) > 0 && id == p.Out[0] {
					first = x.Exprs[i]
					break
				}
			}
			if _, isAgg := x.In.(*plan.Agg); isAgg {
				return nil, nil, false
			}
			return x.In, first, true
		}
		return nil, nil, false
	}
}

// scalarJoin binds a correlated scalar subquery as a left join that
// yields at most one row per outer row.
func (b *Binder) scalarJoin(p *plan.Select, free plan.ColSet, loc int32) (Bound, error) {
	proj, ok := p.Root.(*plan.Project)
	if !ok {
		if s, isSort := p.Root.(*plan.Sort); isSort {
			proj, ok = s.In.(*plan.Project)
		}
	}
	if !ok {
		return b.applyScalar(p), nil
	}
	value := proj.Exprs[plan.IndexOf(proj.Cols, p.Out[0])]
	t := b.typeOfOutput(p, 0)
	if _, noFrom := proj.In.(*plan.OneRow); noFrom && p.Root == plan.Rel(proj) {
		// (SELECT expr) without FROM is one row: the expression itself,
		// evaluated over the outer row.
		return Bound{E: value, T: t, Name: p.Cols[0].Name, strong: true}, nil
	}
	if ag, isAgg := proj.In.(*plan.Agg); isAgg && len(ag.Groups) == 0 {
		for _, e := range plan.Exprs(ag) {
			if plan.RefsOf(e).Intersects(free) {
				return b.applyScalar(p), nil // an aggregate over outer values
			}
		}
		inner, conds, ok := pullCorrelated(b, ag.In, free)
		if !ok {
			return b.applyScalar(p), nil
		}
		// Group by the inner side of each correlated equality.
		innerIDs := plan.SetOf(plan.ProducedCols(inner))
		na := &plan.Agg{In: inner, Aggs: append([]plan.AggCall(nil), ag.Aggs...), AggCols: append([]plan.ColID(nil), ag.AggCols...)}
		var joinConds []expr.Expr
		for _, c := range conds {
			in, out, ok := splitEquality(c, innerIDs, free)
			if !ok {
				return b.applyScalar(p), nil
			}
			g := b.newCol("key", pgTypeOfArrow(in.Type()), in.Type())
			na.Groups = append(na.Groups, in)
			na.GroupCols = append(na.GroupCols, g)
			eq := &expr.Call{Fn: "=", Args: []expr.Expr{out, b.ref(g).E}, T: expr.Bool}
			joinConds = append(joinConds, eq)
		}
		marker := b.newCol("matched", plan.TInt8, expr.Int8)
		na.Aggs = append(na.Aggs, plan.AggCall{Fn: "count", Name: "count", T: expr.Int8, PGType: plan.TInt8})
		na.AggCols = append(na.AggCols, marker)
		// Over no rows, count is 0 and the other aggregates NULL: the
		// value of an outer row without a group.
		empty, err := plan.RewriteExpr(value, func(e expr.Expr) (expr.Expr, error) {
			c, ok := e.(*expr.Col)
			if !ok {
				return e, nil
			}
			for i, id := range ag.AggCols {
				if plan.ColID(c.Idx) == id {
					if ag.Aggs[i].Fn == "count" {
						return &expr.Lit{V: int64(0), T: c.T}, nil
					}
					return &expr.Lit{V: nil, T: c.T}, nil
				}
			}
			return e, nil
		})
		if err != nil {
			return Bound{}, err
		}
		b.addPending(pendingJoin{typ: plan.JoinLeft, right: na, cond: plan.AndOf(joinConds), single: true})
		v := &expr.Case{T: value.Type(), Whens: []expr.When{{
			Cond: &expr.Call{Fn: "isnotnull", Args: []expr.Expr{b.ref(marker).E}, T: expr.Bool}, Then: value}}, Else: empty}
		return Bound{E: v, T: t, Name: p.Cols[0].Name, strong: true}, nil
	}
	inner, conds, ok := pullCorrelated(b, proj.In, free)
	if !ok {
		return b.applyScalar(p), nil
	}
	marker := b.newCol("matched", plan.TBool, expr.Bool)
	right := &plan.Project{In: inner, Exprs: append(refsTo(b, inner.OutCols()), &expr.Lit{V: true, T: expr.Bool}), Cols: append(append([]plan.ColID(nil), inner.OutCols()...), marker)}
	b.addPending(pendingJoin{typ: plan.JoinLeft, right: right, cond: plan.AndOf(conds), single: true})
	v := &expr.Case{T: value.Type(), Whens: []expr.When{{
		Cond: &expr.Call{Fn: "isnotnull", Args: []expr.Expr{b.ref(marker).E}, T: expr.Bool}, Then: value}},
		Else: &expr.Lit{V: nil, T: value.Type()}}
	return Bound{E: v, T: t, Name: p.Cols[0].Name, strong: true}, nil
}

// applyScalar binds a correlated scalar subquery that cannot be
// decorrelated: it runs once per outer row (a left join that fails on a
// second row).
func (b *Binder) applyScalar(p *plan.Select) Bound {
	b.addPending(pendingJoin{typ: plan.JoinLeft, right: p.Root, single: true, apply: true})
	r := b.ref(p.Out[0])
	r.T, r.Name = b.typeOfOutput(p, 0), p.Cols[0].Name
	return r
}

// splitEquality splits inner = outer (either order) into its sides.
func splitEquality(c expr.Expr, inner, outer plan.ColSet) (in, out expr.Expr, ok bool) {
	call, isCall := c.(*expr.Call)
	if !isCall || call.Fn != "=" || len(call.Args) != 2 {
		return nil, nil, false
	}
	l, r := call.Args[0], call.Args[1]
	lr, rr := plan.RefsOf(l), plan.RefsOf(r)
	switch {
	case len(lr) > 0 && lr.SubsetOf(inner) && rr.SubsetOf(outer):
		return l, r, true
	case len(rr) > 0 && rr.SubsetOf(inner) && lr.SubsetOf(outer):
		return r, l, true
	}
	return nil, nil, false
}

// lateralJoin joins left to a LATERAL subquery that refers to its
// columns: the references must be in the subquery's WHERE conditions,
// which become the join condition.
func (b *Binder) lateralJoin(left plan.Rel, p *plan.Select, typ plan.JoinType) (plan.Rel, error) {
	free := plan.FreeRefs(p.Root)
	if len(free) == 0 {
		return &plan.Join{Typ: typ, Left: left, Right: p.Root}, nil
	}
	right, conds, ok := pullCorrelated(b, p.Root, free)
	if !ok {
		return &plan.Join{Typ: typ, Left: left, Right: p.Root, Apply: true}, nil
	}
	return &plan.Join{Typ: typ, Left: left, Right: right, Cond: plan.AndOf(conds)}, nil
}

// pullCorrelated removes from r the WHERE conditions that refer to
// columns in free and returns them; the projections above them pass the
// inner columns those conditions use. It fails when free columns are
// used anywhere else.
func pullCorrelated(b *Binder, r plan.Rel, free plan.ColSet) (plan.Rel, []expr.Expr, bool) {
	switch x := r.(type) {
	case *plan.Filter:
		in, pulled, ok := pullCorrelated(b, x.In, free)
		if !ok {
			return nil, nil, false
		}
		var keep []expr.Expr
		for _, c := range plan.Conjuncts(x.Pred) {
			if plan.RefsOf(c).Intersects(free) {
				pulled = append(pulled, c)
			} else {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			return in, pulled, true
		}
		return &plan.Filter{In: in, Pred: plan.AndOf(keep)}, pulled, true
	case *plan.Project:
		for _, e := range x.Exprs {
			if plan.RefsOf(e).Intersects(free) {
				return nil, nil, false
			}
		}
		in, pulled, ok := pullCorrelated(b, x.In, free)
		if !ok {
			return nil, nil, false
		}
		np := &plan.Project{In: in, Exprs: append([]expr.Expr(nil), x.Exprs...), Cols: append([]plan.ColID(nil), x.Cols...)}
		have := plan.SetOf(np.Cols)
		produced := plan.SetOf(plan.ProducedCols(in))
		for _, c := range pulled {
			for id := range plan.RefsOf(c) {
				if produced.Has(id) && !have.Has(id) {
					np.Exprs = append(np.Exprs, b.ref(id).E)
					np.Cols = append(np.Cols, id)
					have.Add(id)
				}
			}
		}
		return np, pulled, true
	case *plan.Join:
		if x.Typ == plan.JoinInner {
			if x.Cond != nil && plan.RefsOf(x.Cond).Intersects(free) {
				return nil, nil, false
			}
			l, pl, ok := pullCorrelated(b, x.Left, free)
			if !ok {
				return nil, nil, false
			}
			rr, pr, ok := pullCorrelated(b, x.Right, free)
			if !ok {
				return nil, nil, false
			}
			return &plan.Join{Typ: x.Typ, Left: l, Right: rr, Cond: x.Cond}, append(pl, pr...), true
		}
	}
	if plan.FreeRefs(r).Intersects(free) {
		return nil, nil, false
	}
	return r, nil, true
}
