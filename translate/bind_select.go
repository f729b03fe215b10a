package translate

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// target is one output column while binding: its AST (nil for an expanded
// *), name and bound expression.
type target struct {
	node *pg.Node
	name string
	e    bound
}

// bindSelect binds a SELECT over zero or one table.
func (b *binder) bindSelect(sel *pg.SelectStmt) (*selectPlan, error) {
	if err := b.checkSelectFeatures(sel); err != nil {
		return nil, err
	}
	p := &selectPlan{limit: -1, cols: []pgtypes.Column{}} // a SELECT always describes its rows, even with no columns
	if len(sel.ValuesLists) > 0 {
		return b.bindValues(sel, p)
	}
	if err := b.bindFrom(sel.FromClause); err != nil {
		return nil, err
	}
	p.scope = b.scope

	if sel.WhereClause != nil {
		b.where = "WHERE"
		w, err := b.expr(sel.WhereClause)
		b.where = ""
		if err != nil {
			return nil, err
		}
		if p.where, err = b.asBool(w, "WHERE", nodeLocation(sel.WhereClause)); err != nil {
			return nil, err
		}
		if b.litErr != nil {
			return nil, b.litErr
		}
	}

	hasAgg := len(sel.GroupClause) > 0 || sel.HavingClause != nil
	for _, n := range sel.TargetList {
		hasAgg = hasAgg || containsAggregate(n)
	}
	for _, n := range sel.SortClause {
		hasAgg = hasAgg || containsAggregate(n)
	}
	if hasAgg {
		p.agg = &aggScope{}
		if err := b.bindGroupBy(sel, p.agg); err != nil {
			return nil, err
		}
		b.agg = p.agg
	}

	targets, err := b.bindTargets(sel.TargetList)
	if err != nil {
		return nil, err
	}
	if b.litErr != nil {
		return nil, b.litErr
	}
	if sel.HavingClause != nil {
		h, err := b.expr(sel.HavingClause)
		if err != nil {
			return nil, err
		}
		if p.having, err = b.asBool(h, "HAVING", nodeLocation(sel.HavingClause)); err != nil {
			return nil, err
		}
	}
	p.distinct = len(sel.DistinctClause) > 0
	if p.distinct {
		for _, t := range targets {
			if !scalarType(t.e.t) {
				return nil, notYet("SELECT DISTINCT on type " + t.e.t.String())
			}
		}
	}
	for _, t := range targets {
		p.output = append(p.output, t.e.e)
		p.cols = append(p.cols, pgtypes.Column{Name: t.name, TypeOID: t.e.t.OID, Typmod: t.e.t.Typmod})
	}
	if p.sort, err = b.bindOrderBy(sel.SortClause, targets, p.distinct); err != nil {
		return nil, err
	}
	if b.litErr != nil {
		return nil, b.litErr
	}
	b.agg = nil
	if sel.LimitOption == pg.LimitOption_LIMIT_OPTION_WITH_TIES {
		return nil, notYet("FETCH ... WITH TIES")
	}
	if p.limit, err = b.limitValue(sel.LimitCount, "LIMIT"); err != nil {
		return nil, err
	}
	off, err := b.limitValue(sel.LimitOffset, "OFFSET")
	if err != nil {
		return nil, err
	}
	if off > 0 {
		p.offset = off
	}
	return p, nil
}

// checkSelectFeatures rejects what the binder does not handle yet with
// 0A000 naming it.
func (b *binder) checkSelectFeatures(sel *pg.SelectStmt) error {
	switch {
	case sel.WithClause != nil:
		return b.errAt(notYet("WITH"), sel.WithClause.Location)
	case sel.Op == pg.SetOperation_SETOP_UNION:
		return notYet("UNION")
	case sel.Op == pg.SetOperation_SETOP_INTERSECT:
		return notYet("INTERSECT")
	case sel.Op == pg.SetOperation_SETOP_EXCEPT:
		return notYet("EXCEPT")
	case sel.IntoClause != nil:
		return notYet("SELECT INTO")
	case len(sel.LockingClause) > 0:
		return notYet("SELECT FOR UPDATE/SHARE")
	case len(sel.WindowClause) > 0:
		return notYet("WINDOW")
	case sel.GroupDistinct:
		return notYet("GROUP BY DISTINCT")
	}
	for _, d := range sel.DistinctClause {
		if d != nil && d.Node != nil {
			return notYet("SELECT DISTINCT ON")
		}
	}
	return nil
}

// bindFrom binds the FROM clause: nothing or one table.
func (b *binder) bindFrom(from []*pg.Node) error {
	if len(from) == 0 {
		return nil
	}
	if len(from) > 1 {
		return b.errAt(notYet("JOIN"), nodeLocation(from[1]))
	}
	switch x := from[0].Node.(type) {
	case *pg.Node_RangeVar:
		rv := x.RangeVar
		alias := ""
		if rv.Alias != nil {
			if len(rv.Alias.Colnames) > 0 {
				return b.errAt(notYetPl("column aliases in FROM"), rv.Location)
			}
			alias = rv.Alias.Aliasname
		}
		tn := tableNameOf(rv)
		b.untruncateTable(rv, &tn)
		t, err := b.sess.resolveTable(b.ctx, tn)
		if err != nil {
			return b.errAt(err, rv.Location)
		}
		if t.Metadata == nil || t.Metadata.CurrentSchema() == nil {
			return pgerr.New(pgerr.DataCorrupted, "table %s has no current schema", tn.written)
		}
		b.scope = newScope(t, tn, alias)
		return nil
	case *pg.Node_JoinExpr:
		return notYet("JOIN")
	case *pg.Node_RangeSubselect:
		return notYetPl("subqueries in FROM")
	case *pg.Node_RangeFunction:
		return notYetPl("functions in FROM")
	}
	return notYet("this FROM item")
}

// bindGroupBy binds the GROUP BY items over the input rows. An item may be
// an expression, an output-column ordinal or, when no input column has the
// name, an output-column alias, as PostgreSQL allows.
func (b *binder) bindGroupBy(sel *pg.SelectStmt, agg *aggScope) error {
	for _, n := range sel.GroupClause {
		switch n.Node.(type) {
		case *pg.Node_GroupingSet:
			return notYetPl("GROUPING SETS, ROLLUP and CUBE")
		}
		node := n
		if c := n.GetAConst(); c != nil && c.GetIval() != nil {
			i := int(c.GetIval().Ival)
			if i < 1 || i > len(sel.TargetList) {
				return b.errAt(pgerr.New(pgerr.InvalidColumnReference, "GROUP BY position %d is not in select list", i), c.Location)
			}
			node = sel.TargetList[i-1].GetResTarget().GetVal()
			if star := node.GetColumnRef(); star != nil && isStar(star) {
				return b.errAt(notYet("GROUP BY an ordinal of *"), c.Location)
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
			return b.errAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in GROUP BY"), nodeLocation(node))
		}
		g, err := b.expr(node)
		if err != nil {
			return err
		}
		g = g.resolveUnknownIn(b)
		if !scalarType(g.t) {
			return b.errAt(notYet("GROUP BY on type "+g.t.String()), nodeLocation(node))
		}
		if agg.findGroup(g.e) < 0 {
			agg.addGroup(g)
		}
	}
	return nil
}

// scopeLacks reports whether a one-part column reference names no input
// column.
func (b *binder) scopeLacks(cr *pg.ColumnRef) bool {
	if b.scope == nil {
		return true
	}
	name := cr.Fields[0].GetString_().GetSval()
	return findColumn(b.scope.cols, name, b.identQuoted(cr.Location, 0)) == -1
}

func isStar(cr *pg.ColumnRef) bool {
	return len(cr.Fields) > 0 && cr.Fields[len(cr.Fields)-1].GetAStar() != nil
}

// bindTargets binds the select list, expanding * and t.*.
func (b *binder) bindTargets(list []*pg.Node) ([]target, error) {
	var out []target
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, notYet("this select-list item")
		}
		if len(rt.Indirection) > 0 {
			return nil, b.errAt(notYetPl("subscripts in the select list"), rt.Location)
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && isStar(cr) {
			ts, err := b.expandStar(cr)
			if err != nil {
				return nil, err
			}
			out = append(out, ts...)
			continue
		}
		e, err := b.expr(rt.Val)
		if err != nil {
			return nil, err
		}
		e = e.resolveUnknownIn(b)
		name := rt.Name
		if name == "" {
			name = e.name
		}
		if name == "" {
			name = "?column?"
		}
		out = append(out, target{node: rt.Val, name: name, e: e})
	}
	return out, nil
}

// expandStar expands * or t.* into the table's columns.
func (b *binder) expandStar(cr *pg.ColumnRef) ([]target, error) {
	if b.scope == nil {
		if len(cr.Fields) > 1 {
			q := cr.Fields[len(cr.Fields)-2].GetString_().GetSval()
			return nil, b.errAt(pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", q), cr.Location)
		}
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "SELECT * with no tables specified is not valid"), cr.Location)
	}
	if len(cr.Fields) > 1 {
		var q []string
		for _, f := range cr.Fields[:len(cr.Fields)-1] {
			q = append(q, f.GetString_().GetSval())
		}
		if !b.scope.matchesQualifier(q) {
			return nil, b.errAt(pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", q[len(q)-1]), cr.Location)
		}
	}
	var out []target
	for i, c := range b.scope.cols {
		var e bound
		if b.agg != nil {
			in := bound{e: &expr.Col{Idx: b.scope.use(i), Name: c.Name, T: c.Arrow}, t: c.Type}
			g := b.agg.findGroup(in.e)
			if g < 0 {
				return nil, b.errAt(pgerr.New(pgerr.GroupingError,
					"column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function",
					b.scope.refName(), c.Name), cr.Location)
			}
			e = bound{e: &expr.Col{Idx: g, Name: c.Name, T: c.Arrow}, t: c.Type}
		} else {
			e = bound{e: &expr.Col{Idx: b.scope.use(i), Name: c.Name, T: c.Arrow}, t: c.Type}
		}
		out = append(out, target{name: c.Name, e: e})
	}
	return out, nil
}

// refName is the name the table is referred to by in messages.
func (s *scope) refName() string {
	if s.alias != "" {
		return s.alias
	}
	return s.written.Name
}

// nodeLocation is the byte offset of a node in the query, or -1.
func nodeLocation(n *pg.Node) int32 {
	if n == nil {
		return -1
	}
	loc := int32(-1)
	if m := n.ProtoReflect(); m.IsValid() {
		walkAST(m, func(mm protoreflectMessage) bool {
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
func scalarType(t pgType) bool {
	return t.OID != tJSONB.OID && pgtypes.ElemOf(t.OID) == 0
}

// untruncateTable restores table-name parts the parser cut to 63 bytes.
func (b *binder) untruncateTable(rv *pg.RangeVar, tn *tableName) {
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
	tn.written = strings.Join(w, ".")
}
