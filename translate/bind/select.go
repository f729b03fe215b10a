package bind

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// target is one output column while binding: its AST (nil for an expanded
// *), name and bound expression.
type target struct {
	node *pg.Node
	name string
	e    Bound
	// untyped: an untyped literal ('abc', NULL) PostgreSQL would leave
	// unknown; a set operation gives it the other side's type.
	untyped bool
}

// BindSelect binds a query: a SELECT, VALUES, or a set operation of them,
// with its WITH clause. The statement's own query (the rows a client
// receives) also gets its object identifier columns printed as names
// (regOutput).
func (b *Binder) BindSelect(sel *pg.SelectStmt) (*plan.Select, error) {
	b.cols.depth++
	p, err := b.bindQuery(sel)
	b.cols.depth--
	if err == nil {
		err = b.selectColumnChecks(p) // privilege_column.go
	}
	if err != nil || b.stmt.Node.GetSelectStmt() != sel {
		return p, err
	}
	return b.regOutput(p)
}

// bindQuery binds a query for BindSelect.
func (b *Binder) bindQuery(sel *pg.SelectStmt) (*plan.Select, error) {
	if sel.WithClause != nil {
		pop, err := b.pushWith(sel.WithClause)
		if err != nil {
			return nil, err
		}
		defer pop()
	}
	if err := b.checkLocking(sel); err != nil {
		return nil, err
	}
	switch {
	case sel.Op != pg.SetOperation_SETOP_NONE:
		return b.bindSetOp(sel)
	case len(sel.ValuesLists) > 0:
		return b.bindValues(sel)
	}
	return b.bindSelectCore(sel)
}

// bindSelectCore binds one SELECT ... FROM ... WHERE ... GROUP BY ...
// HAVING ... ORDER BY ... LIMIT in PostgreSQL's order of evaluation:
//
//	from -> where -> aggregate -> having -> window -> project ->
//	distinct -> sort -> limit
//
// Sort keys that are not output columns are computed by the projection
// as extra columns the result does not show.
func (b *Binder) bindSelectCore(sel *pg.SelectStmt) (*plan.Select, error) {
	if err := b.checkSelectFeatures(sel); err != nil {
		return nil, err
	}
	saved := b.enterQuery()
	defer b.leaveQuery(saved)

	cur, err := b.bindFrom(sel.FromClause)
	if err != nil {
		return nil, err
	}
	if sel.WhereClause != nil {
		b.where = "WHERE"
		w, err := b.Expr(sel.WhereClause)
		b.where = ""
		if err != nil {
			return nil, err
		}
		pred, err := b.asBool(w, "WHERE", NodeLocation(sel.WhereClause))
		if err != nil {
			return nil, err
		}
		if b.LitErr != nil {
			return nil, b.LitErr
		}
		cur = &plan.Filter{In: b.applyPending(cur), Pred: pred}
	}

	hasAgg := len(sel.GroupClause) > 0 || sel.HavingClause != nil
	for _, n := range sel.TargetList {
		hasAgg = hasAgg || containsAggregate(n)
	}
	for _, n := range sel.SortClause {
		hasAgg = hasAgg || containsAggregate(n)
	}
	var agg *aggScope
	if hasAgg {
		agg = &aggScope{}
		if err := b.bindGroupBy(sel, agg); err != nil {
			return nil, err
		}
		cur = b.applyPending(cur)
		b.agg = agg
	}
	b.win = &windowScope{named: map[string]*pg.WindowDef{}}
	for _, n := range sel.WindowClause {
		wd := n.GetWindowDef()
		if _, dup := b.win.named[wd.Name]; dup {
			return nil, b.ErrAt(pgerr.New(pgerr.WindowingError, "window \"%s\" is already defined", wd.Name), wd.Location)
		}
		b.win.named[wd.Name] = wd
	}

	targets, err := b.bindTargets(sel.TargetList)
	if err != nil {
		return nil, err
	}
	if b.LitErr != nil {
		return nil, b.LitErr
	}
	var having expr.Expr
	if sel.HavingClause != nil {
		h, err := b.Expr(sel.HavingClause)
		if err != nil {
			return nil, err
		}
		if having, err = b.asBool(h, "HAVING", NodeLocation(sel.HavingClause)); err != nil {
			return nil, err
		}
	}
	var distinctOn []*pg.Node
	for _, d := range sel.DistinctClause {
		if d != nil && d.Node != nil {
			distinctOn = append(distinctOn, &pg.Node{Node: &pg.Node_SortBy{SortBy: &pg.SortBy{Node: d, Location: -1}}})
		}
	}
	distinct := len(sel.DistinctClause) > 0 && len(distinctOn) == 0
	if distinct {
		for i, t := range targets {
			if isJSONB(t.e) {
				targets[i].e = jsonbGroupable(t.e) // jsonb_ops.go
			} else if !hashableType(t.e.T) {
				return nil, pgerr.NotYet("SELECT DISTINCT on type " + t.e.T.String())
			}
		}
	}
	p := &plan.Select{Cols: []pgtypes.Column{}} // a SELECT always describes its rows, even with no columns
	var outExprs []expr.Expr
	for _, t := range targets {
		outExprs = append(outExprs, t.e.E)
		o := b.originOf(t.e.E)
		p.Cols = append(p.Cols, pgtypes.Column{Name: t.name, TypeOID: t.e.T.OID, Typmod: t.e.T.Typmod, TableOID: o.Table, AttNum: o.Att})
		p.Untyped = append(p.Untyped, t.untyped)
	}
	sortKeys, junk, err := b.bindOrderBy(sel.SortClause, targets, distinct)
	if err != nil {
		return nil, err
	}
	onKeys, onJunk, err := b.bindOrderBy(distinctOn, targets, false)
	if err != nil {
		return nil, err
	}
	if err := b.checkDistinctOnOrder(onKeys, sortKeys, distinctOn); err != nil {
		return nil, err
	}
	for i := range onKeys {
		if onKeys[i].junk >= 0 {
			onKeys[i].junk += len(junk)
		}
	}
	junk = append(junk, onJunk...)
	if b.LitErr != nil {
		return nil, b.LitErr
	}

	// Build the nodes above FROM/WHERE.
	if agg != nil {
		cur = b.aggregation(agg, b.applyPendingPre(cur))
		b.agg = nil
	}
	if having != nil {
		cur = &plan.Filter{In: b.applyPending(cur), Pred: having}
	}
	cur = b.applyPending(cur)
	cur = b.win.wrap(cur)

	// The projection: outputs, then the sort keys that are not outputs.
	proj := &plan.Project{In: cur}
	for i, e := range outExprs {
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, b.colFor(e, p.Cols[i].Name, targets[i].e.T))
	}
	p.Out = append([]plan.ColID(nil), proj.Cols...)
	for _, j := range junk {
		proj.Exprs = append(proj.Exprs, j)
		proj.Cols = append(proj.Cols, b.colFor(j, "?sort?", pgTypeOfArrow(j.Type())))
	}
	cur = proj
	// Sort keys become references to projected columns.
	projected := func(ks []orderKey) []plan.SortKey {
		keys := make([]plan.SortKey, len(ks))
		for i, k := range ks {
			keys[i] = k.SortKey
			if k.out >= 0 {
				keys[i].E = b.ref(p.Out[k.out]).E
				if k.jsonb {
					keys[i].E = jsonbSortKey(Bound{E: keys[i].E, T: plan.TJSONB}).E
				}
				if k.enum != nil {
					keys[i].E = k.enum.key(keys[i].E) // enum.go
				}
			} else {
				keys[i].E = b.ref(proj.Cols[len(outExprs)+k.junk]).E
			}
		}
		return keys
	}
	keys := projected(sortKeys)
	if len(onKeys) > 0 {
		// DISTINCT ON: the first row of each group in ORDER BY order.
		var part []expr.Expr
		for _, k := range projected(onKeys) {
			part = append(part, k.E)
		}
		rn := b.newCol("row_number", plan.TInt8, expr.Int8)
		w := &plan.Window{In: cur, Partition: part, Order: keys, Cols: []plan.ColID{rn},
			Calls: []plan.WindowCall{{Fn: "row_number", Frame: exec.DefaultFrame(), T: expr.Int8}}}
		cur = &plan.Filter{In: w, Pred: &expr.Call{Fn: "=", Args: []expr.Expr{b.ref(rn).E, &expr.Lit{V: int64(1), T: expr.Int8}}, T: expr.Bool}}
	}
	if distinct {
		groups := make([]expr.Expr, len(p.Out))
		for i, id := range p.Out {
			groups[i] = b.ref(id).E
		}
		cur = &plan.Agg{In: cur, Groups: groups, GroupCols: append([]plan.ColID(nil), p.Out...)}
	}
	if len(keys) > 0 {
		cur = &plan.Sort{In: cur, Keys: keys}
	}
	if sel.LimitOption == pg.LimitOption_LIMIT_OPTION_WITH_TIES {
		// FETCH FIRST n ROWS WITH TIES: the rows whose rank in the ORDER BY
		// is at most n.
		if len(keys) == 0 {
			return nil, pgerr.New(pgerr.SyntaxError, "WITH TIES cannot be specified without ORDER BY clause")
		}
		n, err := b.limitValue(sel.LimitCount, "LIMIT")
		if err != nil {
			return nil, err
		}
		if off, err := b.limitValue(sel.LimitOffset, "OFFSET"); err != nil || off > 0 {
			if err != nil {
				return nil, err
			}
			return nil, pgerr.NotYet("OFFSET with FETCH ... WITH TIES")
		}
		if n >= 0 {
			rk := b.newCol("rank", plan.TInt8, expr.Int8)
			sorted := cur.(*plan.Sort)
			w := &plan.Window{In: sorted.In, Order: keys, Cols: []plan.ColID{rk},
				Calls: []plan.WindowCall{{Fn: "rank", Frame: exec.DefaultFrame(), T: expr.Int8}}}
			f := &plan.Filter{In: w, Pred: &expr.Call{Fn: "<=", Args: []expr.Expr{b.ref(rk).E, &expr.Lit{V: n, T: expr.Int8}}, T: expr.Bool}}
			cur = &plan.Sort{In: f, Keys: keys}
		}
		p.Root = cur
		b.finish(p)
		return p, nil
	}
	if cur, err = b.bindLimit(sel, cur); err != nil {
		return nil, err
	}
	p.Root = cur
	b.finish(p)
	return p, nil
}

// bindLimit puts LIMIT / OFFSET over r.
func (b *Binder) bindLimit(sel *pg.SelectStmt, r plan.Rel) (plan.Rel, error) {
	limit, err := b.limitValue(sel.LimitCount, "LIMIT")
	if err != nil {
		return nil, err
	}
	off, err := b.limitValue(sel.LimitOffset, "OFFSET")
	if err != nil {
		return nil, err
	}
	if off < 0 {
		off = 0
	}
	if limit < 0 && off == 0 {
		return r, nil
	}
	return &plan.Limit{In: r, Limit: limit, Offset: off}, nil
}

// queryState is what enterQuery saves of the enclosing query's binding.
type queryState struct {
	scope   *scope
	agg     *aggScope
	win     *windowScope
	where   string
	inAgg   bool
	pending []pendingJoin
	pre     []pendingJoin
	hidden  *aggScope
}

// enterQuery starts binding a (sub)query: a new scope whose parent is the
// current one.
func (b *Binder) enterQuery() queryState {
	s := queryState{scope: b.scope, agg: b.agg, win: b.win, where: b.where, inAgg: b.inAgg, pending: b.pending, pre: b.pendingPre, hidden: b.hiddenAgg}
	outer := b.agg
	if outer == nil {
		outer = b.hiddenAgg
	}
	b.scope = &scope{parent: b.scope, outerAgg: outer}
	b.agg, b.win, b.where, b.inAgg, b.pending, b.pendingPre, b.hiddenAgg = nil, nil, "", false, nil, nil, nil
	return s
}

func (b *Binder) leaveQuery(s queryState) {
	b.scope, b.agg, b.win, b.where, b.inAgg, b.pending, b.pendingPre, b.hiddenAgg = s.scope, s.agg, s.win, s.where, s.inAgg, s.pending, s.pre, s.hidden
}

// colFor is the column id an output expression is projected as: the id
// itself for a plain column reference of that type, else a new one (a
// cast that only retypes, c.oid::regclass, is a reference too).
func (b *Binder) colFor(e expr.Expr, name string, t plan.Type) plan.ColID {
	if c, ok := e.(*expr.Col); ok && b.q.Meta(plan.ColID(c.Idx)).T == t {
		return plan.ColID(c.Idx)
	}
	return b.newColFrom(e, name, t, e.Type())
}

// originOf is the table column e reads unchanged: e's origin when e is a
// plain column reference, else none.
func (b *Binder) originOf(e expr.Expr) plan.ColOrigin {
	if c, ok := e.(*expr.Col); ok {
		return b.q.Meta(plan.ColID(c.Idx)).Origin
	}
	return plan.ColOrigin{}
}

// newColFrom allocates a column id for the value of e, keeping the table
// column e reads when it is a plain column reference (a group key, a
// column renamed by a projection).
func (b *Binder) newColFrom(e expr.Expr, name string, t plan.Type, at arrow.DataType) plan.ColID {
	return b.q.Add(plan.ColMeta{Name: name, T: t, ArrowType: at, Origin: b.originOf(e), Enum: b.enumOfExpr(e)})
}

func exprsOf(bs []Bound) []expr.Expr {
	out := make([]expr.Expr, len(bs))
	for i, x := range bs {
		out[i] = x.E
	}
	return out
}

// checkSelectFeatures rejects what the Binder does not handle yet with
// 0A000 naming it.
func (b *Binder) checkSelectFeatures(sel *pg.SelectStmt) error {
	switch {
	case sel.IntoClause != nil:
		return pgerr.NotYet("SELECT INTO")
	case sel.GroupDistinct:
		return pgerr.NotYet("GROUP BY DISTINCT")
	}
	return nil
}

// checkLocking checks a query's FOR UPDATE / FOR SHARE clauses as
// PostgreSQL does: not with set operations, DISTINCT, GROUP BY or HAVING,
// and every relation named after OF is an item (its alias, when it has
// one) of the query's FROM. What locking means is the session's
// (LockingStrength, translate's for_update.go).
func (b *Binder) checkLocking(sel *pg.SelectStmt) error {
	if len(sel.LockingClause) == 0 {
		return nil
	}
	what := LockingStrength(sel)
	switch {
	case sel.Op != pg.SetOperation_SETOP_NONE:
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with UNION/INTERSECT/EXCEPT", what)
	case len(sel.DistinctClause) > 0:
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with DISTINCT clause", what)
	case len(sel.GroupClause) > 0:
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with GROUP BY clause", what)
	case sel.HavingClause != nil:
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with HAVING clause", what)
	}
	names := LockableNames(sel.FromClause)
	for _, n := range sel.LockingClause {
		lc := n.GetLockingClause()
		for _, r := range lc.GetLockedRels() {
			rv := r.GetRangeVar()
			if rv == nil || names[rv.Relname] != nil {
				continue
			}
			return b.ErrAt(pgerr.New(pgerr.UndefinedTable, "relation \"%s\" in %s clause not found in FROM clause",
				rv.Relname, lockStrength(lc.Strength)), rv.Location)
		}
	}
	return nil
}

// LockingStrength names a query's first locking clause as PostgreSQL's
// messages do ("FOR UPDATE", "FOR SHARE", ...), "" without one.
func LockingStrength(sel *pg.SelectStmt) string {
	if len(sel.LockingClause) == 0 {
		return ""
	}
	return lockStrength(sel.LockingClause[0].GetLockingClause().GetStrength())
}

func lockStrength(s pg.LockClauseStrength) string {
	switch s {
	case pg.LockClauseStrength_LCS_FORKEYSHARE:
		return "FOR KEY SHARE"
	case pg.LockClauseStrength_LCS_FORSHARE:
		return "FOR SHARE"
	case pg.LockClauseStrength_LCS_FORNOKEYUPDATE:
		return "FOR NO KEY UPDATE"
	}
	return "FOR UPDATE"
}

// LockableNames are the names a locking clause's OF can give for the
// items of a FROM clause (an alias when the item has one), each with the
// table it reads (nil for a subquery or a function).
func LockableNames(from []*pg.Node) map[string]*pg.RangeVar {
	out := map[string]*pg.RangeVar{}
	var walk func(n *pg.Node)
	walk = func(n *pg.Node) {
		switch x := n.GetNode().(type) {
		case *pg.Node_RangeVar:
			name := x.RangeVar.Relname
			if a := x.RangeVar.GetAlias(); a != nil {
				name = a.Aliasname
			}
			out[name] = x.RangeVar
		case *pg.Node_JoinExpr:
			walk(x.JoinExpr.Larg)
			walk(x.JoinExpr.Rarg)
		case *pg.Node_RangeSubselect:
			if a := x.RangeSubselect.GetAlias(); a != nil {
				out[a.Aliasname] = &pg.RangeVar{}
			}
		case *pg.Node_RangeFunction:
			if a := x.RangeFunction.GetAlias(); a != nil {
				out[a.Aliasname] = &pg.RangeVar{}
			}
		}
	}
	for _, n := range from {
		walk(n)
	}
	return out
}

// bindGroupBy binds the GROUP BY items over the input rows. An item may be
// an expression, an output-column ordinal or, when no input column has the
// name, an output-column alias, as PostgreSQL allows. GROUPING SETS,
// ROLLUP and CUBE set agg.sets.
func (b *Binder) bindGroupBy(sel *pg.SelectStmt, agg *aggScope) error {
	var product [][]int // the grouping sets so far (nil: one empty set)
	hasSets := false
	for _, n := range sel.GroupClause {
		var sets [][]int
		if gs := n.GetGroupingSet(); gs != nil {
			hasSets = true
			var err error
			if sets, err = b.groupingSets(sel, agg, gs); err != nil {
				return err
			}
		} else {
			i, err := b.groupItem(sel, agg, n)
			if err != nil {
				return err
			}
			sets = [][]int{{i}}
		}
		product = crossSets(product, sets)
	}
	if hasSets {
		if len(product) == 0 {
			product = [][]int{{}}
		}
		agg.sets = product
	}
	return nil
}

// crossSets is the grouping sets of two GROUP BY items side by side: every
// set of a combined with every set of b.
func crossSets(a, b [][]int) [][]int {
	if a == nil {
		return b
	}
	var out [][]int
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(append([]int(nil), x...), y...))
		}
	}
	return out
}

// groupingSets expands ROLLUP, CUBE and GROUPING SETS into lists of group
// indexes.
func (b *Binder) groupingSets(sel *pg.SelectStmt, agg *aggScope, gs *pg.GroupingSet) ([][]int, error) {
	// units are the elements: each one or more group expressions.
	var units [][]int
	unit := func(n *pg.Node) ([]int, error) {
		var nodes []*pg.Node
		if r := n.GetRowExpr(); r != nil {
			nodes = r.Args
		} else if l := n.GetList(); l != nil {
			nodes = l.Items
		} else {
			nodes = []*pg.Node{n}
		}
		var u []int
		for _, x := range nodes {
			i, err := b.groupItem(sel, agg, x)
			if err != nil {
				return nil, err
			}
			u = append(u, i)
		}
		return u, nil
	}
	switch gs.Kind {
	case pg.GroupingSetKind_GROUPING_SET_EMPTY:
		return [][]int{{}}, nil
	case pg.GroupingSetKind_GROUPING_SET_SETS:
		var out [][]int
		for _, c := range gs.Content {
			if inner := c.GetGroupingSet(); inner != nil {
				sets, err := b.groupingSets(sel, agg, inner)
				if err != nil {
					return nil, err
				}
				out = append(out, sets...)
				continue
			}
			u, err := unit(c)
			if err != nil {
				return nil, err
			}
			out = append(out, u)
		}
		return out, nil
	}
	for _, c := range gs.Content {
		u, err := unit(c)
		if err != nil {
			return nil, err
		}
		units = append(units, u)
	}
	var out [][]int
	switch gs.Kind {
	case pg.GroupingSetKind_GROUPING_SET_ROLLUP:
		for k := len(units); k >= 0; k-- {
			var set []int
			for _, u := range units[:k] {
				set = append(set, u...)
			}
			out = append(out, set)
		}
	case pg.GroupingSetKind_GROUPING_SET_CUBE:
		if len(units) > 12 {
			return nil, pgerr.New(pgerr.StatementTooComplex, "CUBE is limited to 12 elements")
		}
		for mask := (1 << len(units)) - 1; mask >= 0; mask-- {
			var set []int
			for k, u := range units {
				if mask&(1<<(len(units)-1-k)) != 0 {
					set = append(set, u...)
				}
			}
			out = append(out, set)
		}
	default:
		return nil, pgerr.NotYet("this grouping set")
	}
	return out, nil
}

// groupItem binds one GROUP BY expression and returns its index among the
// group keys.
func (b *Binder) groupItem(sel *pg.SelectStmt, agg *aggScope, n *pg.Node) (int, error) {
	node := n
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		i := int(c.GetIval().Ival)
		if i < 1 || i > len(sel.TargetList) {
			return 0, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "GROUP BY position %d is not in select list", i), c.Location)
		}
		node = sel.TargetList[i-1].GetResTarget().GetVal()
		if star := node.GetColumnRef(); star != nil && isStar(star) {
			return 0, b.ErrAt(pgerr.NotYet("GROUP BY an ordinal of *"), c.Location)
		}
	} else if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && b.scopeLacks(cr) {
		name := cr.Fields[0].GetString_().GetSval()
		for _, t := range sel.TargetList {
			if rt := t.GetResTarget(); rt != nil && rt.Name == name {
				node = rt.Val
				break
			}
		}
	}
	if containsAggregate(node) {
		return 0, b.ErrAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in GROUP BY"), NodeLocation(node))
	}
	g, err := b.Expr(node)
	if err != nil {
		return 0, err
	}
	g = g.resolveUnknownIn(b)
	orig := g.E
	if isJSONB(g) {
		g = jsonbGroupable(g) // jsonb_ops.go
	} else if !hashableType(g.T) {
		return 0, b.ErrAt(pgerr.NotYet("GROUP BY on type "+g.T.String()), NodeLocation(node))
	}
	if i := agg.findGroup(orig); i >= 0 {
		return i, nil
	}
	agg.groups = append(agg.groups, g)
	agg.keys = append(agg.keys, plan.FormatExpr(orig))
	if agg.subLinks == nil {
		agg.subLinks = map[*pg.Node]int{}
	}
	agg.subLinks[node] = len(agg.groups) - 1
	name := g.Name
	if name == "" {
		name = fmt.Sprintf("group%d", len(agg.groups))
	}
	agg.groupCols = append(agg.groupCols, b.newColFrom(g.E, name, g.T, g.E.Type()))
	return len(agg.groups) - 1, nil
}

// scopeLacks reports whether a one-part column reference names no input
// column.
func (b *Binder) scopeLacks(cr *pg.ColumnRef) bool {
	name := cr.Fields[0].GetString_().GetSval()
	_, err := b.scope.lookup(name, b.identQuoted(cr.Location, 0))
	return err != nil
}

func isStar(cr *pg.ColumnRef) bool {
	return len(cr.Fields) > 0 && cr.Fields[len(cr.Fields)-1].GetAStar() != nil
}

// bindTargets binds the select list, expanding * and t.*.
func (b *Binder) bindTargets(list []*pg.Node) ([]target, error) {
	var out []target
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, pgerr.NotYet("this select-list item")
		}
		if len(rt.Indirection) > 0 {
			return nil, b.ErrAt(pgerr.NotYetPlural("subscripts in the select list"), rt.Location)
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && isStar(cr) {
			ts, err := b.expandStar(cr)
			if err != nil {
				return nil, err
			}
			out = append(out, ts...)
			continue
		}
		e, err := b.Expr(rt.Val)
		if err != nil {
			return nil, err
		}
		untyped := e.Unknown()
		e = e.resolveUnknownIn(b)
		name := rt.Name
		if name == "" {
			name = e.Name
		}
		if name == "" {
			name = "?column?"
		}
		out = append(out, target{node: rt.Val, name: name, e: e, untyped: untyped})
	}
	return out, nil
}

// expandStar expands * or t.* into the columns of the FROM items.
func (b *Binder) expandStar(cr *pg.ColumnRef) ([]target, error) {
	if len(b.scope.items) == 0 {
		if len(cr.Fields) > 1 {
			q := cr.Fields[len(cr.Fields)-2].GetString_().GetSval()
			return nil, b.ErrAt(pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", q), cr.Location)
		}
		return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "SELECT * with no tables specified is not valid"), cr.Location)
	}
	var cols []itemCol
	var owner []*rangeItem
	if len(cr.Fields) > 1 {
		var q []string
		for _, f := range cr.Fields[:len(cr.Fields)-1] {
			q = append(q, f.GetString_().GetSval())
		}
		it := b.scope.findItem(q)
		if it == nil {
			return nil, b.ErrAt(pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", q[len(q)-1]), cr.Location)
		}
		for _, c := range it.cols {
			if !c.hidden {
				cols, owner = append(cols, c), append(owner, it)
			}
		}
	} else {
		for _, c := range b.scope.merged {
			cols, owner = append(cols, c), append(owner, nil)
		}
		for _, it := range b.scope.items {
			for _, c := range it.cols {
				if !c.hidden && !c.merged {
					cols, owner = append(cols, c), append(owner, it)
				}
			}
		}
	}
	var out []target
	for i, c := range cols {
		e := b.ref(c.id)
		if b.agg != nil {
			g := b.agg.findGroup(e.E)
			if g < 0 {
				name := c.name
				if owner[i] != nil {
					name = owner[i].refName() + "." + c.name
				}
				return nil, b.ErrAt(pgerr.New(pgerr.GroupingError,
					"column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function", name), cr.Location)
			}
			e = b.ref(b.agg.groupCols[g])
			e.Name = c.name
		}
		out = append(out, target{name: c.name, e: e})
	}
	return out, nil
}

// NodeLocation is the byte offset of a node in the query, or -1.
func NodeLocation(n *pg.Node) int32 {
	if n == nil {
		return -1
	}
	loc := int32(-1)
	if m := n.ProtoReflect(); m.IsValid() {
		WalkAST(m, func(mm ProtoreflectMessage) bool {
			if loc >= 0 {
				return false
			}
			if f := mm.Descriptor().Fields().ByName("location"); f != nil {
				loc = int32(mm.Get(f).Int())
				return false
			}
			return true
		})
	}
	return loc
}

// scalarType reports whether values of t can be compared, hashed and
// sorted by the engine (not jsonb or arrays yet).
func scalarType(t plan.Type) bool {
	return t.OID != plan.TJSONB.OID && pgtypes.ElemOf(t.OID) == 0
}

// hashableType reports whether GROUP BY and DISTINCT can key on a value of
// type t: what scalarType accepts and arrays of it (int2vector and oidvector
// included), which group by their elements in order.
func hashableType(t plan.Type) bool {
	if scalarType(t) {
		return true
	}
	e := pgtypes.ElemOf(t.OID)
	return e != 0 && e != plan.TJSONB.OID && pgtypes.ElemOf(e) == 0
}

// UntruncateTable restores table-name parts the parser cut to 63 bytes.
func (b *Binder) UntruncateTable(rv *pg.RangeVar, tn *parse.TableName) {
	parts := []*string{}
	for _, p := range []*string{&tn.Catalog, &tn.Schema, &tn.Name} {
		if *p != "" {
			parts = append(parts, p)
		}
	}
	long := false
	for _, p := range parts {
		long = long || len(*p) == maxIdentifierBytes
	}
	if !long {
		return
	}
	full := b.fullIdents(rv.Location, len(parts))
	if full == nil {
		return
	}
	for i, p := range parts {
		if strings.HasPrefix(full[i], *p) || strings.EqualFold(full[i][:min(len(full[i]), len(*p))], *p) {
			*p = full[i]
		}
	}
	var w []string
	for _, p := range parts {
		w = append(w, *p)
	}
	tn.Written = strings.Join(w, ".")
}

// checkDistinctOnOrder applies PostgreSQL's rule for DISTINCT ON with ORDER
// BY: the ORDER BY items before the first one that is not a DISTINCT ON
// expression must hold every DISTINCT ON expression that ORDER BY holds,
// and when an ORDER BY item was skipped, every DISTINCT ON expression must
// be among them (42P10, pointing at the DISTINCT ON expression).
func (b *Binder) checkDistinctOnOrder(on, order []orderKey, onNodes []*pg.Node) error {
	if len(on) == 0 || len(order) == 0 {
		return nil
	}
	same := func(a, c orderKey) bool {
		if a.out >= 0 || c.out >= 0 {
			return a.out == c.out
		}
		return plan.FormatExpr(a.E) == plan.FormatExpr(c.E)
	}
	fail := func(i int) error {
		loc := int32(-1)
		if sb := onNodes[i].GetSortBy(); sb != nil {
			loc = NodeLocation(sb.Node)
		}
		return b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions"), loc)
	}
	seen := make([]bool, len(on))
	skipped := false
	for _, k := range order {
		found := -1
		for i := range on {
			if same(on[i], k) {
				found = i
				break
			}
		}
		if found < 0 {
			skipped = true
			continue
		}
		if skipped {
			return fail(found)
		}
		seen[found] = true
	}
	if skipped {
		for i := range on {
			if !seen[i] {
				return fail(i)
			}
		}
	}
	return nil
}
