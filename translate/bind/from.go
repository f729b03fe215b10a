package bind

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/enumtype"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/sequence"
)

// bindFrom binds the FROM clause into a relation and fills b.scope with
// its items. Items separated by commas are cross joins (the optimizer
// turns WHERE conditions into join conditions); no FROM is one empty row.
func (b *Binder) bindFrom(from []*pg.Node) (plan.Rel, error) {
	var cur plan.Rel
	for _, n := range from {
		r, err := b.bindFromItem(n, cur)
		if err != nil {
			return nil, err
		}
		if err := b.scope.checkDuplicateNames(); err != nil {
			return nil, err
		}
		cur = r
	}
	if cur == nil {
		return &plan.OneRow{}, nil
	}
	return cur, nil
}

// bindFromItem binds one FROM item and joins it to left (the items before
// it; nil for the first). Functions and LATERAL subqueries may refer to
// the columns of left.
func (b *Binder) bindFromItem(n *pg.Node, left plan.Rel) (plan.Rel, error) {
	cross := func(r plan.Rel) plan.Rel {
		if left == nil {
			return r
		}
		return &plan.Join{Typ: plan.JoinInner, Left: left, Right: r}
	}
	switch x := n.Node.(type) {
	case *pg.Node_RangeVar:
		r, err := b.bindRangeVar(x.RangeVar)
		if err != nil {
			return nil, err
		}
		return cross(r), nil
	case *pg.Node_JoinExpr:
		r, err := b.bindJoin(x.JoinExpr)
		if err != nil {
			return nil, err
		}
		return cross(r), nil
	case *pg.Node_RangeSubselect:
		return b.bindRangeSubselect(x.RangeSubselect, left)
	case *pg.Node_RangeFunction:
		if r, ok, err := b.bindSnapshotFunction(x.RangeFunction); ok {
			if err != nil {
				return nil, err
			}
			return cross(r), nil
		}
		return b.bindRangeFunction(x.RangeFunction, left)
	}
	return nil, b.ErrAt(pgerr.NotYet("this FROM item"), NodeLocation(n))
}

// bindRangeVar binds a table name or a WITH query's name.
func (b *Binder) bindRangeVar(rv *pg.RangeVar) (plan.Rel, error) {
	alias, colAliases := aliasOf(rv.Alias)
	if c := b.stmt.AsOf[rv.Location]; c != nil {
		if r, ok, err := b.bindMetadataTable(rv, parse.TableNameOf(rv), alias, colAliases); ok {
			return r, err
		}
		return b.bindTimeTravel(rv, c, alias, colAliases)
	}
	if rv.Schemaname == "" && rv.Catalogname == "" {
		if cte := b.findCTE(rv.Relname); cte != nil {
			return b.bindCTERef(cte, rv, alias, colAliases)
		}
	}
	tn := parse.TableNameOf(rv)
	b.UntruncateTable(rv, &tn)
	if st := sysTable(tn, b.env.CatalogName()); st != nil {
		return b.bindSysTable(rv.Location, tn, st, alias, colAliases)
	}
	if strings.Contains(tn.Name, "$") {
		// t$snapshots: a metadata table, found without listing views.
		if r, ok, err := b.bindMetadataTable(rv, tn, alias, colAliases); ok {
			return r, err
		}
	}
	if tn.Schema == "" && tn.Catalog == "" {
		if b.env.IsTempView(tn.Name) {
			return b.bindView(rv, tn, alias, colAliases) // temporary views come first
		}
		if len(b.viewNS) > 0 {
			// Inside a view, unqualified names resolve in its namespace.
			vn := tn
			vn.Schema = strings.Join(b.viewNS, ".")
			if t, err := b.env.ResolveTable(b.ctx, vn); err == nil {
				tn = vn
				if err := b.checkTableColumns(t, 'r'); err != nil { // privilege_column.go
					return nil, err
				}
				return b.bindTable(rv, tn, t, alias, colAliases)
			}
		}
	}
	t, err := b.env.ResolveTable(b.ctx, tn)
	if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.UndefinedTable {
		if r, verr := b.bindView(rv, tn, alias, colAliases); r != nil || verr != nil {
			return r, verr
		}
	}
	if err != nil {
		if r, ok, rerr := b.bindRefName(rv, tn, alias, colAliases); ok {
			return r, rerr
		}
		if st := b.searchPathSysTable(tn); st != nil {
			return b.bindSysTable(rv.Location, tn, st, alias, colAliases)
		}
		if r, ok, merr := b.bindMetadataTable(rv, tn, alias, colAliases); ok {
			return r, merr
		}
		return nil, b.ErrAt(err, rv.Location)
	}
	if err := b.checkTableColumns(t, 'r'); err != nil { // privilege_column.go
		return nil, err
	}
	return b.bindTable(rv, tn, t, alias, colAliases)
}

// bindTable binds a catalog table, at its current snapshot (or the head of
// the session's WAP branch, translate/wap.go), as a FROM item.
func (b *Binder) bindTable(rv *pg.RangeVar, tn parse.TableName, t *catalog.Table, alias string, colAliases []string) (plan.Rel, error) {
	if t.Metadata == nil || t.Metadata.CurrentSchema() == nil {
		return nil, pgerr.New(pgerr.DataCorrupted, "table %s has no current schema", tn.Written)
	}
	if enumtype.Is(t) { // an enum type's table is no relation
		return nil, b.ErrAt(pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", tn.Written), rv.Location)
	}
	if sequence.Is(t) {
		return b.bindSequence(rv, tn, t.Metadata.Properties[sequence.StateProp], alias, colAliases)
	}
	return b.bindTableAt(rv, tn, t, b.env.ReadSnapshot(t), t.Metadata.CurrentSchema(), alias, colAliases)
}

// bindSequence binds a sequence as a FROM item: PostgreSQL's one row of
// last_value, log_cnt and is_called, from the state the sequence's
// properties hold (state "<last_value> <is_called>"). log_cnt, the values
// PostgreSQL logged ahead, is 0: icegate logs none.
func (b *Binder) bindSequence(rv *pg.RangeVar, tn parse.TableName, state, alias string, colAliases []string) (plan.Rel, error) {
	st, err := sequence.ParseState(state)
	if err != nil {
		return nil, b.ErrAt(pgerr.New(pgerr.DataCorrupted, "sequence \"%s\" has an invalid state %q", tn.Name, state), rv.Location)
	}
	last, called := st.Last, st.Called
	names := []string{"last_value", "log_cnt", "is_called"}
	types := []plan.Type{plan.TInt8, plan.TInt8, plan.TBool}
	if len(colAliases) > len(names) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			tn.Name, len(names), len(colAliases)), rv.Location)
	}
	vr := &plan.Values{Rows: [][]expr.Expr{{&expr.Lit{V: last, T: expr.Int8}, &expr.Lit{V: int64(0), T: expr.Int8}, &expr.Lit{V: called, T: expr.Bool}}}}
	it := &rangeItem{tn: tn, alias: alias}
	for i, n := range names {
		if i < len(colAliases) {
			n = colAliases[i]
		}
		id := b.newCol(n, types[i], plan.ArrowOf(types[i]))
		vr.Cols = append(vr.Cols, id)
		it.cols = append(it.cols, itemCol{name: n, id: id})
	}
	b.scope.items = append(b.scope.items, it)
	return vr, nil
}

// bindTableAt binds a table read at snapshot with schema.
func (b *Binder) bindTableAt(rv *pg.RangeVar, tn parse.TableName, t *catalog.Table, snapshot *catalog.Snapshot, schema *catalog.Schema, alias string, colAliases []string) (plan.Rel, error) {
	cols := ColumnsOfTable(t, schema)
	if len(colAliases) > len(cols) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			tn.Name, len(cols), len(colAliases)), rv.Location)
	}
	r := &plan.Scan{Table: t, Schema: schema, Snapshot: snapshot, Name: tn.Written, Alias: alias}
	it := &rangeItem{table: t, tn: tn, alias: alias}
	origins := tableOrigins(t, cols)
	for i, c := range cols {
		name := c.Name
		if i < len(colAliases) {
			name = colAliases[i]
		}
		id := b.q.Add(plan.ColMeta{Name: name, T: c.Type, ArrowType: c.Arrow, Origin: origins[i], Enum: c.Enum})
		r.FieldIDs = append(r.FieldIDs, c.FieldID)
		r.Cols = append(r.Cols, id)
		it.cols = append(it.cols, itemCol{name: name, id: id})
	}
	b.addMetadataColumns(r, it, t, schema)
	b.scope.items = append(b.scope.items, it)
	b.attachColumnChecks(t, cols, r.Cols) // privilege_column.go
	return r, nil
}

// tableOrigins are the origins of a warehouse table's columns as read with
// cols (possibly an older schema): the table's OID in pg_class and each
// column's position in the current schema, found by field id (none for a
// column the current schema dropped).
func tableOrigins(t *catalog.Table, cols []Column) []plan.ColOrigin {
	out := make([]plan.ColOrigin, len(cols))
	cur := t.Metadata.CurrentSchema()
	if cur == nil {
		return out
	}
	oid := syscat.ObjectOID(syscat.KindRelation, strings.Join(t.Ident.Namespace, "."), t.Ident.Name)
	for i, c := range cols {
		for j, f := range cur.Fields {
			if f.ID == c.FieldID {
				out[i] = plan.ColOrigin{Table: oid, Att: int16(j + 1)}
				break
			}
		}
	}
	return out
}

// bindRangeSubselect binds (SELECT ...) [AS] alias [(cols)] and joins it
// to left. A LATERAL subquery sees the items before it.
func (b *Binder) bindRangeSubselect(rs *pg.RangeSubselect, left plan.Rel) (plan.Rel, error) {
	p, err := b.bindSubselectItem(rs)
	if err != nil {
		return nil, err
	}
	if left == nil {
		return p.Root, nil
	}
	if rs.Lateral {
		return b.lateralJoin(left, p, plan.JoinInner)
	}
	return &plan.Join{Typ: plan.JoinInner, Left: left, Right: p.Root}, nil
}

// bindSubselectItem binds (SELECT ...) [AS] alias [(cols)] and adds its
// FROM item. A LATERAL subquery sees the items before it; another sees
// only the enclosing queries.
func (b *Binder) bindSubselectItem(rs *pg.RangeSubselect) (*plan.Select, error) {
	sel := rs.Subquery.GetSelectStmt()
	if sel == nil {
		return nil, pgerr.NotYet("this subquery in FROM")
	}
	var p *plan.Select
	var err error
	if rs.Lateral {
		p, err = b.bindSubquery(sel)
	} else {
		p, err = b.bindSubqueryIn(b.scope.parent, sel)
	}
	if err != nil {
		return nil, err
	}
	alias, colAliases := aliasOf(rs.Alias)
	if err := b.addDerivedItem(p, alias, "subquery", colAliases, NodeLocation(rs.Subquery)); err != nil {
		return nil, err
	}
	return p, nil
}

// aliasOf is an alias's name and column names (none for nil).
func aliasOf(a *pg.Alias) (string, []string) {
	if a == nil {
		return "", nil
	}
	var cols []string
	for _, c := range a.Colnames {
		cols = append(cols, c.GetString_().GetSval())
	}
	return a.Aliasname, cols
}

// joinTypeOf maps the parser's join types icegate plans.
func joinTypeOf(t pg.JoinType) (plan.JoinType, bool) {
	switch t {
	case pg.JoinType_JOIN_INNER:
		return plan.JoinInner, true
	case pg.JoinType_JOIN_LEFT:
		return plan.JoinLeft, true
	case pg.JoinType_JOIN_RIGHT:
		return plan.JoinRight, true
	case pg.JoinType_JOIN_FULL:
		return plan.JoinFull, true
	}
	return 0, false
}

// addDerivedItem adds a FROM item for a bound query's output columns.
func (b *Binder) addDerivedItem(p *plan.Select, alias, name string, colAliases []string, loc int32) error {
	if len(colAliases) > len(p.Out) {
		return b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			alias, len(p.Out), len(colAliases)), loc)
	}
	it := &rangeItem{alias: alias, name: name}
	seen := map[plan.ColID]bool{}
	for i, id := range p.Out {
		cname := p.Cols[i].Name
		if i < len(colAliases) {
			cname = colAliases[i]
		}
		if seen[id] {
			// The same column twice in the select list: give the second
			// its own id so that both can be named.
			nid := b.newColFrom(b.ref(id).E, cname, plan.Type{OID: p.Cols[i].TypeOID, Typmod: p.Cols[i].Typmod}, b.q.Meta(id).ArrowType)
			p.Root = &plan.Project{In: p.Root, Exprs: append(refsTo(b, p.Root.OutCols()), b.ref(id).E), Cols: append(p.Root.OutCols(), nid)}
			id = nid
			p.Out[i] = nid
		}
		seen[id] = true
		it.cols = append(it.cols, itemCol{name: cname, id: id})
	}
	b.scope.items = append(b.scope.items, it)
	return nil
}

// refsTo returns references to the given columns.
func refsTo(b *Binder, ids []plan.ColID) []expr.Expr {
	out := make([]expr.Expr, len(ids))
	for i, id := range ids {
		out[i] = b.ref(id).E
	}
	return out
}

// bindJoin binds a JOIN b ON/USING/NATURAL; the items of both sides join
// the scope.
func (b *Binder) bindJoin(j *pg.JoinExpr) (plan.Rel, error) {
	if j.Alias != nil {
		return nil, pgerr.NotYet("an alias for a JOIN")
	}
	first, mergedFirst := len(b.scope.items), len(b.scope.merged)
	lr, err := b.bindFromItem(j.Larg, nil)
	if err != nil {
		return nil, err
	}
	mid := len(b.scope.items)
	mergedBefore := len(b.scope.merged)
	if lateralItem(j.Rarg) {
		return b.bindLateralJoin(j, lr)
	}
	rr, err := b.bindFromItem(j.Rarg, nil)
	if err != nil {
		return nil, err
	}
	if err := b.scope.checkDuplicateNames(); err != nil {
		return nil, err
	}
	typ, ok := joinTypeOf(j.Jointype)
	if !ok {
		return nil, pgerr.NotYet("this join type")
	}
	jr := &plan.Join{Typ: typ, Left: lr, Right: rr}
	using := []string{}
	for _, u := range j.UsingClause {
		using = append(using, u.GetString_().GetSval())
	}
	if j.IsNatural {
		leftNames := map[string]bool{}
		for _, it := range b.scope.items[first:mid] {
			for _, c := range it.cols {
				if !c.hidden {
					leftNames[c.name] = true
				}
			}
		}
		for _, it := range b.scope.items[mid:] {
			for _, c := range it.cols {
				if !c.hidden && leftNames[c.name] {
					using = append(using, c.name)
				}
			}
		}
	}
	for i, name := range using {
		for _, prev := range using[:i] {
			if prev == name {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column name \"%s\" appears more than once in USING clause", name)
			}
		}
	}
	if len(using) > 0 {
		var conds []expr.Expr
		var merged []itemCol
		var proj *plan.Project
		for _, name := range using {
			l, err := b.findIn(b.scope.items[first:mid], b.scope.merged[:mergedBefore], name, "left")
			if err != nil {
				return nil, err
			}
			r, err := b.findIn(b.scope.items[mid:], b.scope.merged[mergedBefore:], name, "right")
			if err != nil {
				return nil, err
			}
			lb, rb := b.ref(l.id), b.ref(r.id)
			eq, err := b.binaryOp("=", lb, rb, -1)
			if err != nil {
				return nil, err
			}
			conds = append(conds, eq.E)
			b.markMerged(l.id)
			b.markMerged(r.id)
			switch typ {
			case plan.JoinInner, plan.JoinLeft:
				merged = append(merged, itemCol{name: name, id: l.id})
			case plan.JoinRight:
				merged = append(merged, itemCol{name: name, id: r.id})
			default:
				if proj == nil {
					proj = &plan.Project{In: jr, Exprs: refsTo(b, jr.OutCols()), Cols: jr.OutCols()}
				}
				co, err := b.call("coalesce", []Bound{lb, rb}, -1)
				if err != nil {
					return nil, err
				}
				id := b.newCol(name, co.T, co.E.Type())
				proj.Exprs = append(proj.Exprs, co.E)
				proj.Cols = append(proj.Cols, id)
				merged = append(merged, itemCol{name: name, id: id})
			}
		}
		jr.Cond = plan.AndOf(conds)
		b.scope.merged = append(b.scope.merged[:mergedBefore:mergedBefore], merged...)
		if proj != nil {
			return proj, nil
		}
		return jr, nil
	}
	if j.Quals != nil {
		saved, savedPending := b.where, b.pending
		b.where, b.pending = "JOIN conditions", nil
		if typ == plan.JoinInner {
			b.where = "" // an inner join's condition may hold subqueries: it filters the join
		}
		savedOuter := b.outerJoinSubqueries
		b.outerJoinSubqueries = typ != plan.JoinInner
		// The condition sees the join's own inputs only, as in PostgreSQL.
		restore := b.scope.hideBefore(first, mergedFirst)
		c, err := b.Expr(j.Quals)
		restore()
		b.where, b.outerJoinSubqueries = saved, savedOuter
		if err != nil {
			b.pending = savedPending
			return nil, err
		}
		cond, err := b.asBool(c, "JOIN/ON", NodeLocation(j.Quals))
		if err != nil {
			b.pending = savedPending
			return nil, err
		}
		if len(b.pending) > 0 && typ != plan.JoinInner {
			pending := b.pending
			b.pending = savedPending
			return b.placeOuterJoinSubqueries(jr, cond, pending)
		}
		if len(b.pending) > 0 {
			// Subqueries in an inner join's condition: join, then filter
			// with their results.
			r := b.applyPending(jr)
			b.pending = savedPending
			return &plan.Filter{In: r, Pred: cond}, nil
		}
		b.pending = savedPending
		jr.Cond = cond
	} else if typ != plan.JoinInner {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error: JOIN needs ON or USING")
	}
	return jr, nil
}

// markMerged flags the item column with id as merged by USING.
func (b *Binder) markMerged(id plan.ColID) {
	for _, it := range b.scope.items {
		for i := range it.cols {
			if it.cols[i].id == id {
				it.cols[i].merged = true
			}
		}
	}
}

// findIn finds a USING column among some items (merged columns first).
func (b *Binder) findIn(items []*rangeItem, merged []itemCol, name, side string) (itemCol, error) {
	for _, c := range merged {
		if c.name == name {
			return c, nil
		}
	}
	var found *itemCol
	for _, it := range items {
		for i := range it.cols {
			if it.cols[i].name == name && !it.cols[i].merged {
				if found != nil {
					return itemCol{}, pgerr.New(pgerr.AmbiguousColumn, "common column name \"%s\" appears more than once in %s table", name, side)
				}
				found = &it.cols[i]
			}
		}
	}
	if found == nil {
		return itemCol{}, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" specified in USING clause does not exist in %s table", name, side)
	}
	return *found, nil
}

// lookup resolves an unqualified column name in this scope only: merged
// USING columns first, then the items (more than one match is
// ambiguous).
func (s *scope) lookup(name string, quoted bool) (itemCol, error) {
	for _, c := range s.merged {
		if c.name == name {
			return c, nil
		}
	}
	var found *itemCol
	var foundIn *rangeItem
	for _, it := range s.items {
		cols := make([]Column, len(it.cols))
		for i, c := range it.cols {
			cols[i] = Column{Name: c.name}
		}
		switch i := FindColumn(cols, name, quoted); i {
		case -1:
			continue
		case -2:
			return itemCol{}, pgerr.New(pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", name)
		default:
			if found != nil && foundIn != it {
				return itemCol{}, pgerr.New(pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", name)
			}
			found, foundIn = &it.cols[i], it
		}
	}
	if found == nil {
		return itemCol{}, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", name)
	}
	return *found, nil
}

// findItem finds the FROM item a qualifier names (nil if none).
func (s *scope) findItem(q []string) *rangeItem {
	for _, it := range s.items {
		if it.matchesQualifier(q) {
			return it
		}
	}
	return nil
}

// columnRef binds a column name, qualified or not, in the current scope
// and then in the enclosing queries' scopes (an outer reference).
func (b *Binder) columnRef(cr *pg.ColumnRef) (Bound, error) {
	var parts []string
	for _, f := range cr.Fields {
		switch f.Node.(type) {
		case *pg.Node_String_:
			parts = append(parts, f.GetString_().Sval)
		case *pg.Node_AStar:
			return Bound{}, b.ErrAt(pgerr.NotYet("* in this position"), cr.Location)
		}
	}
	if len(parts[len(parts)-1]) == maxIdentifierBytes {
		if full := b.fullIdents(cr.Location, len(parts)); full != nil {
			parts = full
		}
	}
	name := parts[len(parts)-1]
	quoted := b.identQuoted(cr.Location, len(parts)-1)
	written := strings.Join(parts, ".")
	var firstErr error
	for s := b.scope; s != nil; s = s.parent {
		var c itemCol
		var err error
		if len(parts) > 1 {
			qual := parts[:len(parts)-1]
			it := s.findItem(qual)
			if it == nil {
				if firstErr == nil {
					firstErr = pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", qual[len(qual)-1])
				}
				continue
			}
			cols := make([]Column, len(it.cols))
			for i, c := range it.cols {
				cols[i] = Column{Name: c.name}
			}
			switch i := FindColumn(cols, name, quoted); i {
			case -1:
				return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column %s does not exist", written), cr.Location)
			case -2:
				return Bound{}, b.ErrAt(pgerr.New(pgerr.AmbiguousColumn, "column reference \"%s\" is ambiguous", name), cr.Location)
			default:
				c = it.cols[i]
			}
		} else {
			c, err = s.lookup(name, quoted)
			if err != nil {
				if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.AmbiguousColumn {
					return Bound{}, b.ErrAt(err, cr.Location)
				}
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
		}
		r := b.ref(c.id)
		r.Name = c.name
		if s != b.scope {
			return b.outerRef(s, r, written, cr.Location)
		}
		return r, nil
	}
	for s := b.scope; s != nil; s = s.parent {
		if err := s.hiddenRefError(parts, quoted); err != nil {
			firstErr = err
			break
		}
	}
	if pe := pgerr.As(firstErr); len(parts) == 1 && (firstErr == nil || pe != nil && pe.Code == pgerr.UndefinedColumn) {
		for s := b.scope; s != nil; s = s.parent {
			if s.findItem(parts) != nil {
				// A whole-row value: only the JSON functions take one
				// (json_build.go).
				firstErr = pgerr.NotYetPlural("whole-row references outside to_json, row_to_json, json_agg and the JSON builders")
				break
			}
		}
	}
	if firstErr == nil {
		if len(parts) > 1 {
			firstErr = pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", parts[len(parts)-2])
		} else {
			firstErr = pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", name)
		}
	}
	return Bound{}, b.ErrAt(firstErr, cr.Location)
}

// outerRef is a reference from a subquery to a column of an enclosing
// query bound in scope s. When that query aggregates, the column must be
// one of its group keys, and the reference is to the key.
func (b *Binder) outerRef(s *scope, r Bound, written string, loc int32) (Bound, error) {
	// The aggregation of the query owning s is recorded in the scope of
	// the query nested just inside it.
	for in := b.scope; in != nil; in = in.parent {
		if in.parent != s {
			continue
		}
		if agg := in.outerAgg; agg != nil {
			g := agg.findGroup(r.E)
			if g < 0 {
				return Bound{}, b.ErrAt(pgerr.New(pgerr.GroupingError,
					"subquery uses ungrouped column \"%s\" from outer query", written), loc)
			}
			name := r.Name
			r = b.ref(agg.groupCols[g])
			r.Name = name
		}
		break
	}
	return r, nil
}

// newCol allocates a column id.
func (b *Binder) newCol(name string, t plan.Type, at arrow.DataType) plan.ColID {
	return b.q.Add(plan.ColMeta{Name: name, T: t, ArrowType: at})
}

// ref is a bound reference to column id.
func (b *Binder) ref(id plan.ColID) Bound {
	m := b.q.Meta(id)
	return Bound{E: &expr.Col{Idx: int(id), Name: m.Name, T: m.ArrowType}, T: m.T, Name: m.Name, strong: true, enum: m.Enum}
}

// lateralItem reports whether a join's right side may refer to its left
// side: a LATERAL subquery or a function.
func lateralItem(n *pg.Node) bool {
	if rs := n.GetRangeSubselect(); rs != nil {
		return rs.Lateral
	}
	return n.GetRangeFunction() != nil
}

// bindLateralJoin binds left [INNER|LEFT] JOIN LATERAL (...) ON cond, and
// left CROSS JOIN LATERAL (...).
func (b *Binder) bindLateralJoin(j *pg.JoinExpr, left plan.Rel) (plan.Rel, error) {
	typ, ok := joinTypeOf(j.Jointype)
	if !ok || (typ != plan.JoinInner && typ != plan.JoinLeft) {
		return nil, pgerr.New(pgerr.InvalidColumnReference, "the right side of a RIGHT or FULL JOIN cannot be LATERAL")
	}
	if len(j.UsingClause) > 0 || j.IsNatural {
		return nil, pgerr.NotYet("USING or NATURAL with LATERAL")
	}
	var r plan.Rel
	if rs := j.Rarg.GetRangeSubselect(); rs != nil {
		p, err := b.bindSubselectItem(rs)
		if err != nil {
			return nil, err
		}
		if r, err = b.lateralJoin(left, p, typ); err != nil {
			return nil, err
		}
	} else {
		var err error
		if r, err = b.bindRangeFunction(j.Rarg.GetRangeFunction(), left); err != nil {
			return nil, err
		}
		switch x := r.(type) {
		case *plan.Join:
			x.Typ = typ
		case *plan.TableFunc:
			x.Outer = typ == plan.JoinLeft
		}
	}
	if j.Quals == nil {
		return r, nil
	}
	saved := b.where
	b.where = "JOIN conditions"
	c, err := b.Expr(j.Quals)
	b.where = saved
	if err != nil {
		return nil, err
	}
	cond, err := b.asBool(c, "JOIN/ON", NodeLocation(j.Quals))
	if err != nil {
		return nil, err
	}
	if l, ok := cond.(*expr.Lit); ok && l.V == true {
		return r, nil
	}
	switch x := r.(type) {
	case *plan.Join:
		x.Cond = plan.AndOf(append(plan.Conjuncts(x.Cond), cond))
		return x, nil
	}
	if typ == plan.JoinLeft {
		return nil, pgerr.NotYet("LEFT JOIN LATERAL of a function with a join condition other than ON true")
	}
	return &plan.Filter{In: r, Pred: cond}, nil
}

// maxViewDepth bounds views over views (and catches a view that refers
// to itself).
const maxViewDepth = 32

// bindView binds a view as a FROM item: its stored query, bound in its
// own namespace as a subquery. It returns a nil rel when no view has the
// name.
func (b *Binder) bindView(rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (plan.Rel, error) {
	v, err := b.env.ResolveView(b.ctx, tn)
	if err != nil {
		return nil, b.ErrAt(err, rv.Location)
	}
	if v == nil {
		return nil, nil
	}
	asRole, err := b.checkView(v)
	if err != nil {
		return nil, err
	}
	savedRole := b.privRole
	b.privRole = asRole
	defer func() { b.privRole = savedRole }()
	sql, ns := v.Query(), v.DefaultNS
	if len(b.viewStack) >= maxViewDepth {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", tn.Name), rv.Location)
	}
	stmts, err := hints.ParseChecked(sql)
	if err != nil || len(stmts) != 1 || stmts[0].Node.GetSelectStmt() == nil {
		return nil, b.ErrAt(pgerr.New(pgerr.DataCorrupted, "view \"%s\" does not hold a query icegate can read", tn.Written), rv.Location)
	}
	saved, savedNS, savedTok, savedCTEs := b.stmt, b.viewNS, b.tok, b.ctes
	b.stmt, b.viewNS, b.tok, b.ctes = stmts[0], ns, nil, nil
	b.viewStack = append(b.viewStack, tn.Name)
	p, err := b.bindSubqueryIn(nil, stmts[0].Node.GetSelectStmt())
	b.viewStack = b.viewStack[:len(b.viewStack)-1]
	b.stmt, b.viewNS, b.tok, b.ctes = saved, savedNS, savedTok, savedCTEs
	if err != nil {
		return nil, b.ErrAt(err, rv.Location)
	}
	name := tn.Name
	if err := b.addDerivedItem(p, alias, name, colAliases, rv.Location); err != nil {
		return nil, err
	}
	if !v.Temp {
		// PostgreSQL reports a view's own columns as the origins of what
		// reads them, not the tables under it. The ids are the view's
		// alone: its query was bound here, with no outer references.
		oid := syscat.ObjectOID(syscat.KindRelation, strings.Join(v.Ident.Namespace, "."), v.Ident.Name)
		for i, id := range p.Out {
			if id < plan.HiddenColBase {
				b.q.Metas[id].Origin = plan.ColOrigin{Table: oid, Att: int16(i + 1)}
			}
		}
	}
	return p.Root, nil
}
