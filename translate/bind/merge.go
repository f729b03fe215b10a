package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// MERGE INTO target USING source ON cond WHEN ... [RETURNING ...] binds
// into one query over the join of target and source:
//
//	target (with _file, _pos)  JOIN  source (with a constant true column)
//
// The join is inner when every WHEN clause is MATCHED, source LEFT JOIN
// target with NOT MATCHED [BY TARGET] clauses, target LEFT JOIN source with
// NOT MATCHED BY SOURCE clauses, full with both. A row is matched when
// both sides are present (_file and the source's true column not NULL),
// not matched by target when only the source is, not matched by source
// when only the target is. A projection picks the clause: the first, in
// the order written, of the row's kind whose condition holds (0: none);
// the next computes the action and the new row with a CASE over that
// clause, and the RETURNING items over the new row (the old one for a
// DELETE).

// mergeBinding is the state of one MERGE being bound.
type mergeBinding struct {
	tgt       *dmlTarget
	srcItems  []*rangeItem
	srcMerged []itemCol
	// mark is the source's constant true column (NULL when a row has no
	// source row); -1 when the join always has a source row.
	mark plan.ColID
	// tgtOuter: the join may produce rows without a target row.
	tgtOuter bool
	clauses  []*mergeClause
}

// BindMerge binds a Merge statement into a DMLPlan (dml.go).
func (b *Binder) BindMerge(stmt *pg.MergeStmt) (*DMLPlan, error) {
	p, err := b.bindMergeStmt(stmt)
	if err != nil {
		return nil, b.unshiftMergeError(err)
	}
	return p, nil
}

// bindMergeStmt binds a MERGE; its errors' positions are in the text after
// the dialect pass.
func (b *Binder) bindMergeStmt(stmt *pg.MergeStmt) (*DMLPlan, error) {
	if stmt.WithClause != nil {
		if stmt.WithClause.Recursive {
			return nil, pgerr.NotYet("WITH RECURSIVE in MERGE")
		}
		pop, err := b.pushWith(stmt.WithClause)
		if err != nil {
			return nil, err
		}
		defer pop()
	}
	saved := b.enterQuery()
	defer b.leaveQuery(saved)

	m := &mergeBinding{mark: -1}
	// The source first, as PostgreSQL: RETURNING * lists its columns
	// before the target's.
	src, err := b.bindFromItem(stmt.SourceRelation, nil)
	if err != nil {
		return nil, err
	}
	m.srcItems = append([]*rangeItem(nil), b.scope.items...)
	m.srcMerged = append([]itemCol(nil), b.scope.merged...)
	if m.tgt, err = b.bindDMLTarget(stmt.Relation, "MERGE"); err != nil {
		return nil, err
	}
	if err := m.checkNames(); err != nil {
		return nil, err
	}
	if err := b.readMergeClauses(m, stmt.MergeWhenClauses); err != nil {
		return nil, err
	}

	// The join.
	byTarget, bySource := false, false
	for _, c := range m.clauses {
		byTarget = byTarget || c.kind == pg.MergeMatchKind_MERGE_WHEN_NOT_MATCHED_BY_TARGET
		bySource = bySource || c.kind == pg.MergeMatchKind_MERGE_WHEN_NOT_MATCHED_BY_SOURCE
	}
	if bySource {
		m.mark = b.newCol("?source?", plan.TBool, expr.Bool)
		ids := src.OutCols()
		src = &plan.Project{In: src, Exprs: append(refsTo(b, ids), &expr.Lit{V: true, T: expr.Bool}), Cols: append(append([]plan.ColID(nil), ids...), m.mark)}
	}
	var jr *plan.Join
	switch {
	case byTarget && bySource:
		jr = &plan.Join{Typ: plan.JoinFull, Left: m.tgt.scan, Right: src}
	case byTarget:
		jr = &plan.Join{Typ: plan.JoinLeft, Left: src, Right: m.tgt.scan}
	case bySource:
		jr = &plan.Join{Typ: plan.JoinLeft, Left: m.tgt.scan, Right: src}
	default:
		jr = &plan.Join{Typ: plan.JoinInner, Left: m.tgt.scan, Right: src}
	}
	m.tgtOuter = byTarget
	var cur plan.Rel = jr
	if cur, err = b.bindMergeOn(jr, stmt.JoinCondition); err != nil {
		return nil, err
	}

	// The clauses' conditions and new rows.
	for i, c := range m.clauses {
		if err := b.bindMergeClause(m, c, stmt.MergeWhenClauses[i].GetMergeWhenClause()); err != nil {
			return nil, err
		}
	}
	if b.LitErr != nil {
		return nil, b.LitErr
	}
	cur = b.applyPending(cur)
	b.pending = nil

	// Which clause applies to each row.
	clause := b.newCol("?clause?", plan.TInt4, expr.Int4)
	ids := cur.OutCols()
	cur = &plan.Project{In: cur, Exprs: append(refsTo(b, ids), m.pickClause(b)), Cols: append(append([]plan.ColID(nil), ids...), clause)}

	p := &DMLPlan{
		Kind:        DMLKindMerge,
		Table:       m.tgt.table,
		Schema:      m.tgt.schema,
		Cols:        m.tgt.cols,
		Target:      m.tgt.scan,
		Dup:         DupError,
		Cardinality: cardinalityError{Message: "MERGE command cannot affect row a second time", Hint: "Ensure that not more than one source row matches any one target row."},
	}
	out, err := b.mergeOutput(m, cur, clause, stmt.ReturningList, p)
	if err != nil {
		return nil, err
	}
	p.Sel = out
	return p, nil
}

// checkNames rejects a source named as the target, as PostgreSQL.
func (m *mergeBinding) checkNames() error {
	name := m.tgt.item.refName()
	for _, it := range m.srcItems {
		if (it.alias != "" || it.table != nil) && it.refName() == name {
			return pgerr.New(pgerr.DuplicateAlias, "name \"%s\" specified more than once", name).
				WithDetail("The name is used both as MERGE target table and data source.")
		}
	}
	return nil
}

// bindMergeOn binds the ON condition over both sides into jr, or a filter
// above it when it holds subqueries.
func (b *Binder) bindMergeOn(jr *plan.Join, on *pg.Node) (plan.Rel, error) {
	if err := b.rejectMergeAction(on); err != nil {
		return nil, err
	}
	saved := b.where
	b.where = "JOIN conditions"
	if jr.Typ == plan.JoinInner {
		b.where = "" // an inner join's condition may hold subqueries: it filters the join
	}
	c, err := b.Expr(on)
	b.where = saved
	if err != nil {
		return nil, err
	}
	cond, err := b.asBool(c, "JOIN/ON", NodeLocation(on))
	if err != nil {
		return nil, err
	}
	if len(b.pending) > 0 {
		if jr.Typ != plan.JoinInner {
			return nil, b.ErrAt(pgerr.NotYet("a subquery in MERGE's ON condition with NOT MATCHED clauses"), NodeLocation(on))
		}
		r := b.applyPending(jr)
		b.pending = nil
		return &plan.Filter{In: r, Pred: cond}, nil
	}
	jr.Cond = cond
	return jr, nil
}

// pickClause is the number (from 1) of the clause that applies to a row
// of the join, 0 for none.
func (m *mergeBinding) pickClause(b *Binder) expr.Expr {
	file := b.ref(m.tgt.file).E
	var tgtPresent, tgtAbsent, srcPresent, srcAbsent expr.Expr
	if m.tgtOuter {
		tgtPresent = &expr.Call{Fn: "isnotnull", Args: []expr.Expr{file}, T: expr.Bool}
		tgtAbsent = &expr.Call{Fn: "isnull", Args: []expr.Expr{file}, T: expr.Bool}
	}
	if m.mark >= 0 {
		mark := b.ref(m.mark).E
		srcPresent = &expr.Call{Fn: "isnotnull", Args: []expr.Expr{mark}, T: expr.Bool}
		srcAbsent = &expr.Call{Fn: "isnull", Args: []expr.Expr{mark}, T: expr.Bool}
	}
	c := &expr.Case{T: expr.Int4, Else: &expr.Lit{V: int32(0), T: expr.Int4}}
	for k, cl := range m.clauses {
		var conds []expr.Expr
		switch cl.kind {
		case pg.MergeMatchKind_MERGE_WHEN_MATCHED:
			conds = append(conds, tgtPresent, srcPresent)
		case pg.MergeMatchKind_MERGE_WHEN_NOT_MATCHED_BY_TARGET:
			conds = append(conds, tgtAbsent)
		case pg.MergeMatchKind_MERGE_WHEN_NOT_MATCHED_BY_SOURCE:
			conds = append(conds, srcAbsent)
		}
		conds = append(conds, cl.cond)
		var all []expr.Expr
		for _, x := range conds {
			if x != nil {
				all = append(all, x)
			}
		}
		cond := plan.AndOf(all)
		if cond == nil {
			cond = &expr.Lit{V: true, T: expr.Bool}
		}
		c.Whens = append(c.Whens, expr.When{Cond: cond, Then: &expr.Lit{V: int32(k + 1), T: expr.Int4}})
	}
	return c
}

// isClause is the condition "the row's clause is number k (from 0)".
func isClause(b *Binder, clause plan.ColID, k int) expr.Expr {
	return &expr.Call{Fn: "=", Args: []expr.Expr{b.ref(clause).E, &expr.Lit{V: int32(k + 1), T: expr.Int4}}, T: expr.Bool}
}

// mergeOutput builds the DMLPlan's query over cur (the join with the
// clause column): _file, _pos, action, the new row, then RETURNING.
func (b *Binder) mergeOutput(m *mergeBinding, cur plan.Rel, clause plan.ColID, returning []*pg.Node, p *DMLPlan) (*plan.Select, error) {
	cols := m.tgt.cols
	action := &expr.Case{T: expr.Int4, Else: &expr.Lit{V: DMLNone, T: expr.Int4}}
	actionText := &expr.Case{T: expr.Text}
	for k, cl := range m.clauses {
		if cl.action == DMLNone {
			continue
		}
		action.Whens = append(action.Whens, expr.When{Cond: isClause(b, clause, k), Then: &expr.Lit{V: cl.action, T: expr.Int4}})
		actionText.Whens = append(actionText.Whens, expr.When{Cond: isClause(b, clause, k), Then: &expr.Lit{V: mergeActionName(cl.action), T: expr.Text}})
	}
	newRow := make([]expr.Expr, len(cols))
	retRow := make([]expr.Expr, len(cols))
	for i, c := range cols {
		nv := &expr.Case{T: c.Arrow}
		rv := &expr.Case{T: c.Arrow}
		for k, cl := range m.clauses {
			switch cl.action {
			case DMLUpdate, DMLInsert:
				w := expr.When{Cond: isClause(b, clause, k), Then: cl.values[i]}
				nv.Whens = append(nv.Whens, w)
				rv.Whens = append(rv.Whens, w)
			case dmlDelete:
				rv.Whens = append(rv.Whens, expr.When{Cond: isClause(b, clause, k), Then: b.ref(m.tgt.ids[i]).E})
			}
		}
		newRow[i], retRow[i] = caseOrNull(nv), caseOrNull(rv)
	}

	// The projection of the action and the new row (and, for RETURNING,
	// every column of the join, the returned target row and the action's
	// name).
	proj := &plan.Project{In: cur}
	add := func(e expr.Expr, id plan.ColID) plan.ColID {
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, id)
		return id
	}
	add(b.ref(m.tgt.file).E, m.tgt.file)
	add(b.ref(m.tgt.pos).E, m.tgt.pos)
	actionID := add(action, b.newCol("action", plan.TInt4, expr.Int4))
	rowID := add(b.rowIDExpr(m.tgt), b.newCol("_row_id", plan.TInt8, expr.Int8))
	newIDs := make([]plan.ColID, len(cols))
	for i, c := range cols {
		newIDs[i] = add(newRow[i], b.newCol(c.Name, c.Type, c.Arrow))
	}
	sel := &plan.Select{Cols: []pgtypes.Column{
		{Name: "_file", TypeOID: pgtypes.Text, Typmod: -1},
		{Name: "_pos", TypeOID: pgtypes.Int8, Typmod: -1},
		{Name: "action", TypeOID: pgtypes.Int4, Typmod: -1},
		{Name: "_row_id", TypeOID: pgtypes.Int8, Typmod: -1},
	}}
	sel.Out = append([]plan.ColID{m.tgt.file, m.tgt.pos, actionID, rowID}, newIDs...)
	for _, c := range cols {
		sel.Cols = append(sel.Cols, pgtypes.Column{Name: c.Name, TypeOID: c.Type.OID, Typmod: c.Type.Typmod})
	}
	if len(returning) == 0 {
		sel.Root = proj
		b.finish(sel)
		return sel, nil
	}

	passed := plan.SetOf(proj.Cols)
	for _, id := range cur.OutCols() {
		if id != clause && !passed.Has(id) {
			add(b.ref(id).E, id)
		}
	}
	retIDs := make([]plan.ColID, len(cols))
	for i, c := range cols {
		origin := b.q.Meta(m.tgt.ids[i]).Origin
		retIDs[i] = add(retRow[i], b.q.Add(plan.ColMeta{Name: c.Name, T: c.Type, ArrowType: c.Arrow, Origin: origin}))
	}
	nameID := add(caseOrNull(actionText), b.newCol(mergeActionColumn, plan.TText, expr.Text))
	rets, err := b.bindMergeReturning(m, returning, retIDs, nameID)
	if err != nil {
		return nil, err
	}
	root := b.applyPending(proj)
	b.pending = nil
	top := &plan.Project{In: root, Exprs: refsTo(b, sel.Out), Cols: append([]plan.ColID(nil), sel.Out...)}
	for _, t := range rets {
		id := b.newColFrom(t.e.E, t.name, t.e.T, t.e.E.Type())
		top.Exprs = append(top.Exprs, t.e.E)
		top.Cols = append(top.Cols, id)
		sel.Out = append(sel.Out, id)
		o := b.originOf(t.e.E)
		col := pgtypes.Column{Name: t.name, TypeOID: t.e.T.OID, Typmod: t.e.T.Typmod, TableOID: o.Table, AttNum: o.Att}
		sel.Cols = append(sel.Cols, col)
		p.Returning = append(p.Returning, col)
	}
	sel.Root = top
	b.finish(sel)
	return sel, nil
}

// caseOrNull is c, or a NULL of its type when it has no arm.
func caseOrNull(c *expr.Case) expr.Expr {
	if len(c.Whens) == 0 {
		return &expr.Lit{V: nil, T: c.T}
	}
	return c
}

// mergeActionName is what merge_action() returns for an action.
func mergeActionName(a int32) string {
	switch a {
	case dmlDelete:
		return "DELETE"
	case DMLUpdate:
		return "UPDATE"
	}
	return "INSERT"
}

// unshiftMergeError moves an error's position back by what the star
// actions before it added to the text, so that it points into the text
// the client sent.
func (b *Binder) unshiftMergeError(err error) error {
	pe := pgerr.As(err)
	if pe == nil || pe.Position == 0 || b.stmt.Extras == nil {
		return err
	}
	shift := int32(0)
	for _, st := range b.stmt.Extras.MergeStars {
		if st.Grow > 0 && pe.Position > parse.CharPos(b.stmt.SQL, st.Loc) {
			shift += int32(st.Grow)
		}
	}
	pe.Position -= shift
	return err
}
