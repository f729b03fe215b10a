package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// Row constructors in comparisons: (a, b) = (c, d), ROW(a, b) < ROW(c, d),
// (a, b) IN ((1, 2), (3, 4)), (a, b) IS [NOT] DISTINCT FROM (c, d),
// ROW(a, b) IS [NOT] NULL, and (a, b) op (SELECT x, y ...). A row is never
// a value of its own here: each comparison becomes the element-wise
// expression PostgreSQL defines, with its NULL semantics (= is the AND of
// the element comparisons, <> their OR, < <= > >= compare
// lexicographically and are NULL at the first pair that is NULL). A row
// used as a value (a select-list item, an aggregate argument) stays a
// 0A000 error.

// rowElems returns the elements of n when it is a row constructor, or of
// a scalar subquery of several columns (bound as a single-row left join);
// ok is false for anything else.
func (b *Binder) rowElems(n *pg.Node) (elems []Bound, ok bool, err error) {
	if r := n.GetRowExpr(); r != nil {
		elems, err = b.exprs(r.Args)
		return elems, true, err
	}
	sl := n.GetSubLink()
	if sl == nil || sl.SubLinkType != pg.SubLinkType_EXPR_SUBLINK || sl.Subselect.GetSelectStmt() == nil {
		return nil, false, nil
	}
	if b.where == "JOIN conditions" && !b.outerJoinSubqueries {
		return nil, true, b.ErrAt(pgerr.NotYetPlural("subqueries in the conditions of outer joins"), sl.Location)
	}
	where, inAgg := b.where, b.inAgg
	resume := b.suspendOuterJoinSubqueries()
	p, err := b.bindSubquery(sl.Subselect.GetSelectStmt())
	resume()
	b.where, b.inAgg = where, inAgg
	if err != nil {
		return nil, true, err
	}
	b.addPending(pendingJoin{typ: plan.JoinLeft, right: p.Root, single: true, apply: len(plan.FreeRefs(p.Root)) > 0})
	for i, id := range p.Out {
		r := b.ref(id)
		r.T, r.Name = b.typeOfOutput(p, i), p.Cols[i].Name
		elems = append(elems, r)
	}
	return elems, true, nil
}

// isRowNode reports whether n is a row constructor.
func isRowNode(n *pg.Node) bool { return n != nil && n.GetRowExpr() != nil }

// rowOperator binds l op r when either side is a row constructor; ok is
// false when neither is.
func (b *Binder) rowOperator(a *pg.A_Expr, op string) (Bound, bool, error) {
	if !isRowNode(a.Lexpr) && !isRowNode(a.Rexpr) {
		return Bound{}, false, nil
	}
	l, lok, err := b.rowElems(a.Lexpr)
	if err != nil {
		return Bound{}, true, err
	}
	r, rok, err := b.rowElems(a.Rexpr)
	if err != nil {
		return Bound{}, true, err
	}
	if !lok || !rok {
		return Bound{}, true, b.ErrAt(pgerr.NotYet("comparing a row constructor with a value that is not a row"), a.Location)
	}
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		fn, join := "is_distinct_from", "or"
		if a.Kind == pg.A_Expr_Kind_AEXPR_NOT_DISTINCT {
			fn, join = "is_not_distinct_from", "and"
		}
		r, err := b.rowElementwise(fn, join, l, r, a.Location)
		return r, true, err
	}
	res, err := b.rowCompare(op, l, r, a.Location)
	return res, true, err
}

// rowCompare binds l op r over two rows of elements.
func (b *Binder) rowCompare(op string, l, r []Bound, loc int32) (Bound, error) {
	if op == "!=" {
		op = "<>"
	}
	if len(l) != len(r) {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "unequal number of entries in row expressions"), loc)
	}
	if len(l) == 0 {
		return Bound{}, b.ErrAt(pgerr.NotYet("comparing empty rows"), loc)
	}
	switch op {
	case "=":
		return b.rowElementwise("=", "and", l, r, loc)
	case "<>":
		return b.rowElementwise("<>", "or", l, r, loc)
	case "<", "<=", ">", ">=":
	default:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "could not determine interpretation of row comparison operator %s", op).
			WithHint("Row comparison operators must be associated with btree operator families."), loc)
	}
	// The first pair that is not equal decides; a NULL pair before it
	// makes the result NULL. The last pair decides alone.
	c := &expr.Case{T: expr.Bool}
	for i := range l {
		cmp, err := b.call(op, []Bound{l[i], r[i]}, loc)
		if err != nil {
			return Bound{}, err
		}
		if err := b.checkBoolResult(op, cmp, loc); err != nil {
			return Bound{}, err
		}
		if i == len(l)-1 {
			c.Else = cmp.E
			break
		}
		eq, err := b.call("=", []Bound{l[i], r[i]}, loc)
		if err != nil {
			return Bound{}, err
		}
		undecided := &expr.Call{Fn: "coalesce", Args: []expr.Expr{
			&expr.Call{Fn: "not", Args: []expr.Expr{eq.E}, T: expr.Bool},
			&expr.Lit{V: true, T: expr.Bool}}, T: expr.Bool}
		c.Whens = append(c.Whens, expr.When{Cond: undecided, Then: cmp.E})
	}
	return Bound{E: c, T: plan.TBool}, nil
}

// rowElementwise combines fn over each pair of elements with join (and,
// or).
func (b *Binder) rowElementwise(fn, join string, l, r []Bound, loc int32) (Bound, error) {
	if len(l) != len(r) {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "unequal number of entries in row expressions"), loc)
	}
	args := make([]expr.Expr, len(l))
	for i := range l {
		c, err := b.call(fn, []Bound{l[i], r[i]}, loc)
		if err != nil {
			return Bound{}, err
		}
		if err := b.checkBoolResult(fn, c, loc); err != nil {
			return Bound{}, err
		}
		args[i] = c.E
	}
	if len(args) == 1 {
		return Bound{E: args[0], T: plan.TBool}, nil
	}
	return Bound{E: &expr.Call{Fn: join, Args: args, T: expr.Bool}, T: plan.TBool}, nil
}

func (b *Binder) checkBoolResult(op string, c Bound, loc int32) error {
	if c.T.OID != plan.TBool.OID {
		return b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "row comparison operator must yield type boolean, not type %s", c.T), loc)
	}
	return nil
}

// rowInList binds (a, b) [NOT] IN ((1, 2), (3, 4)): the OR of the row
// equalities (NOT of it for NOT IN).
func (b *Binder) rowInList(a *pg.A_Expr, op string) (Bound, error) {
	l, _, err := b.rowElems(a.Lexpr)
	if err != nil {
		return Bound{}, err
	}
	items := a.Rexpr.GetList().GetItems()
	var alts []expr.Expr
	for _, it := range items {
		r, ok, err := b.rowElems(it)
		if err != nil {
			return Bound{}, err
		}
		if !ok {
			return Bound{}, b.ErrAt(pgerr.NotYet("comparing a row constructor with a value that is not a row"), a.Location)
		}
		eq, err := b.rowCompare("=", l, r, a.Location)
		if err != nil {
			return Bound{}, err
		}
		alts = append(alts, eq.E)
	}
	var e expr.Expr
	switch len(alts) {
	case 0:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "syntax error: empty IN list"), a.Location)
	case 1:
		e = alts[0]
	default:
		e = &expr.Call{Fn: "or", Args: alts, T: expr.Bool}
	}
	if op != "=" {
		e = &expr.Call{Fn: "not", Args: []expr.Expr{e}, T: expr.Bool}
	}
	return Bound{E: e, T: plan.TBool}, nil
}

// rowNullTest binds ROW(...) IS [NOT] NULL: IS NULL when every element is
// NULL, IS NOT NULL when none is.
func (b *Binder) rowNullTest(nt *pg.NullTest) (Bound, error) {
	elems, _, err := b.rowElems(nt.Arg)
	if err != nil {
		return Bound{}, err
	}
	fn := "isnull"
	if nt.Nulltesttype == pg.NullTestType_IS_NOT_NULL {
		fn = "isnotnull"
	}
	args := make([]expr.Expr, len(elems))
	for i, x := range elems {
		c, err := b.call(fn, []Bound{x.resolveUnknownIn(b)}, nt.Location)
		if err != nil {
			return Bound{}, err
		}
		args[i] = c.E
	}
	switch len(args) {
	case 0:
		return Bound{E: &expr.Lit{V: fn == "isnull", T: expr.Bool}, T: plan.TBool}, nil
	case 1:
		return Bound{E: args[0], T: plan.TBool}, nil
	}
	return Bound{E: &expr.Call{Fn: "and", Args: args, T: expr.Bool}, T: plan.TBool}, nil
}

// rowInSubquery binds (a, b) IN (SELECT x, y ...) (op "=", ANY) and
// (a, b) NOT IN / <> ALL (SELECT ...) (negate). With rows, IN is true when
// some row of the subquery equals, else NULL when some row's comparison is
// NULL, else false: two mark joins, one for each question.
func (b *Binder) rowInSubquery(sl *pg.SubLink, op string, negate bool) (Bound, error) {
	tests, _, err := b.rowElems(sl.Testexpr)
	if err != nil {
		return Bound{}, err
	}
	if op != "=" {
		return Bound{}, b.ErrAt(pgerr.NotYet("row comparison "+op+" with ANY or ALL"), sl.Location)
	}
	var marks [2]Bound
	for k := range marks {
		where, inAgg := b.where, b.inAgg
		p, err := b.bindSubquery(sl.Subselect.GetSelectStmt())
		b.where, b.inAgg = where, inAgg
		if err != nil {
			return Bound{}, err
		}
		switch {
		case len(p.Out) > len(tests):
			return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "subquery has too many columns"), sl.Location)
		case len(p.Out) < len(tests):
			return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "subquery has too few columns"), sl.Location)
		}
		right := make([]Bound, len(p.Out))
		for i, id := range p.Out {
			right[i] = b.ref(id)
			right[i].T = b.typeOfOutput(p, i)
		}
		eq, err := b.rowElementwise("=", "and", tests, right, sl.Location)
		if err != nil {
			return Bound{}, err
		}
		cond := eq.E
		if k == 1 {
			cond = &expr.Call{Fn: "isnull", Args: []expr.Expr{cond}, T: expr.Bool}
		}
		mark := b.newCol("mark", plan.TBool, expr.Bool)
		b.addPending(pendingJoin{typ: plan.JoinMark, right: p.Root, cond: cond, mark: mark, apply: len(plan.FreeRefs(p.Root)) > 0})
		marks[k] = b.ref(mark)
	}
	c := &expr.Case{T: expr.Bool, Whens: []expr.When{
		{Cond: marks[0].E, Then: &expr.Lit{V: !negate, T: expr.Bool}},
		{Cond: marks[1].E, Then: &expr.Lit{V: nil, T: expr.Bool}},
	}, Else: &expr.Lit{V: negate, T: expr.Bool}}
	return Bound{E: c, T: plan.TBool}, nil
}

// rowSubLink binds a subquery whose test expression is a row constructor:
// (a, b) IN / = ANY / <> ALL (SELECT ...).
func (b *Binder) rowSubLink(sl *pg.SubLink) (Bound, error) {
	op := "="
	if len(sl.OperName) > 0 {
		op = sl.OperName[len(sl.OperName)-1].GetString_().GetSval()
	}
	if op == "!=" {
		op = "<>"
	}
	switch {
	case sl.SubLinkType == pg.SubLinkType_ANY_SUBLINK && op == "=":
		return b.rowInSubquery(sl, "=", false)
	case sl.SubLinkType == pg.SubLinkType_ALL_SUBLINK && op == "<>":
		return b.rowInSubquery(sl, "=", true)
	}
	return Bound{}, b.ErrAt(pgerr.NotYet("row comparison "+op+" with ANY or ALL"), sl.Location)
}
