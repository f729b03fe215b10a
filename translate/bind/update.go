package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// BindUpdate binds UPDATE [ONLY] t [[AS] a] SET ... [FROM items] [WHERE
// cond] [RETURNING items] into a DMLPlan (dml.go): the target joined with
// the FROM items by the WHERE condition, one DMLUpdate row per target row
// reached (the executor keeps the first of a row reached twice) whose new
// row is the old one with the SET columns replaced, and RETURNING over
// the new row.
func (b *Binder) BindUpdate(stmt *pg.UpdateStmt) (*DMLPlan, error) {
	saved := b.enterQuery()
	defer b.leaveQuery(saved)
	mark := b.enterDMLColumns() // privilege_column.go
	defer b.leaveDMLColumns(mark)
	if stmt.WithClause != nil {
		pop, err := b.pushWith(stmt.WithClause)
		if err != nil {
			return nil, err
		}
		defer pop()
	}
	tg, err := b.bindDMLTarget(stmt.Relation, "UPDATE")
	if err != nil {
		return nil, err
	}
	cur, err := b.bindDMLFrom(tg, tg.scan, stmt.FromClause)
	if err != nil {
		return nil, err
	}
	if cur, err = b.bindDMLWhere(cur, stmt.WhereClause); err != nil {
		return nil, err
	}
	values, set, err := b.bindSet(tg, stmt.TargetList)
	if err != nil {
		return nil, err
	}
	cur = b.applyPending(cur)
	read := cur
	// The assigned values become columns, which RETURNING names as the
	// target's: it sees the new row.
	proj := &plan.Project{In: cur, Exprs: refsTo(b, cur.OutCols()), Cols: append([]plan.ColID(nil), cur.OutCols()...)}
	newIDs := append([]plan.ColID(nil), tg.ids...)
	for i, c := range tg.cols {
		if !set[i] {
			continue
		}
		id := b.q.Add(plan.ColMeta{Name: c.Name, T: c.Type, ArrowType: c.Arrow, Origin: b.q.Meta(tg.ids[i]).Origin})
		proj.Exprs = append(proj.Exprs, CastIfNeeded(values[i], c.Arrow))
		proj.Cols = append(proj.Cols, id)
		newIDs[i] = id
	}
	cur = proj
	restore := tg.renameColumns(newIDs)
	cur, ret, retCols, err := b.bindReturning(cur, stmt.ReturningList)
	restore()
	if err != nil {
		return nil, err
	}
	if err := b.updateColumnChecks(mark, tg, read, values, set, ret, newIDs); err != nil { // privilege_column.go
		return nil, err
	}
	return b.finishDML(DMLKindUpdate, tg, cur, actionLit(DMLUpdate), refsTo(b, newIDs), ret, retCols), nil
}

// renameColumns makes the target's FROM item name ids instead of its
// columns (in schema order) until restore is called.
func (tg *dmlTarget) renameColumns(ids []plan.ColID) (restore func()) {
	saved := append([]itemCol(nil), tg.item.cols...)
	for k, c := range tg.item.cols {
		for i, old := range tg.ids {
			if c.id == old {
				tg.item.cols[k].id = ids[i]
				break
			}
		}
	}
	return func() { copy(tg.item.cols, saved) }
}

// bindSet binds the SET list of an UPDATE (also MERGE's UPDATE SET): the
// new value of every column of the target, in schema order, assigned to
// its type as INSERT does (the old value for a column not set), and which
// columns it sets. Aggregates, window functions and set-returning
// functions are errors as in PostgreSQL; subqueries leave pending joins.
func (b *Binder) bindSet(tg *dmlTarget, list []*pg.Node) ([]expr.Expr, []bool, error) {
	values := refsTo(b, tg.ids)
	set := make([]bool, len(tg.cols))
	saved := b.where
	b.where = "UPDATE"
	defer func() { b.where = saved }()
	var dup string
	var multi []assignSource // the elements of the current (c1, c2) = source
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, nil, pgerr.NotYet("this SET item")
		}
		i := FindColumn(tg.cols, rt.Name, b.identQuoted(rt.Location, 0))
		if i < 0 {
			return nil, nil, b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, tg.tn.Name), rt.Location)
		}
		if len(rt.Indirection) > 0 {
			return nil, nil, b.ErrAt(pgerr.NotYet("assigning to a field or an element of a column"), rt.Location)
		}
		if set[i] && dup == "" {
			dup = tg.cols[i].Name
		}
		set[i] = true
		c := tg.cols[i]
		val := rt.Val
		var x *Bound
		loc := leftmostLocation(val)
		if mr := val.GetMultiAssignRef(); mr != nil {
			if mr.Colno == 1 {
				var err error
				if multi, err = b.multiAssignSource(mr); err != nil {
					return nil, nil, err
				}
			}
			x, loc = multi[mr.Colno-1].x, multi[mr.Colno-1].loc
		} else if val.GetSetToDefault() == nil {
			if err := alwaysIdentityUpdate(tg.table, tg.schema.Fields[i]); err != nil { // defaults.go
				return nil, nil, b.ErrAt(err, rt.Location)
			}
			e, err := b.exprAssigned(val, c.Type)
			if err != nil {
				return nil, nil, err
			}
			x = &e
		}
		if x == nil {
			d, err := b.ColumnDefault(tg.table, tg.schema.Fields[i], c)
			if err != nil {
				return nil, nil, err
			}
			values[i] = d
			continue
		}
		v, err := b.Assign(*x, c, loc)
		if err != nil {
			return nil, nil, err
		}
		values[i] = v
	}
	if b.LitErr != nil {
		return nil, nil, b.LitErr
	}
	if dup != "" {
		return nil, nil, pgerr.New(pgerr.SyntaxError, "multiple assignments to same column \"%s\"", dup)
	}
	return values, set, nil
}

// assignSource is one element of the source of SET (c1, c2, ...) =
// source: its value (nil: DEFAULT) and where errors about it point.
type assignSource struct {
	x   *Bound
	loc int32
}

// multiAssignSource binds the source of SET (c1, c2, ...) = source: a
// row constructor (whose elements may be DEFAULT) or a subquery of as many
// columns (at most one row; none gives NULLs).
func (b *Binder) multiAssignSource(mr *pg.MultiAssignRef) ([]assignSource, error) {
	src := mr.Source
	mismatch := func() error {
		return b.ErrAt(pgerr.New(pgerr.SyntaxError, "number of columns does not match number of values"), NodeLocation(src))
	}
	var out []assignSource
	switch {
	case src.GetRowExpr() != nil:
		args := src.GetRowExpr().Args
		if len(args) != int(mr.Ncolumns) {
			return nil, mismatch()
		}
		for _, a := range args {
			if a.GetSetToDefault() != nil {
				out = append(out, assignSource{loc: -1})
				continue
			}
			e, err := b.Expr(a)
			if err != nil {
				return nil, err
			}
			out = append(out, assignSource{x: &e, loc: leftmostLocation(a)})
		}
	case src.GetSubLink() != nil && (src.GetSubLink().SubLinkType == pg.SubLinkType_EXPR_SUBLINK ||
		src.GetSubLink().SubLinkType == pg.SubLinkType_MULTIEXPR_SUBLINK):
		sl := *src.GetSubLink()
		sl.SubLinkType = pg.SubLinkType_EXPR_SUBLINK
		elems, _, err := b.rowElems(&pg.Node{Node: &pg.Node_SubLink{SubLink: &sl}})
		if err != nil {
			return nil, err
		}
		if len(elems) != int(mr.Ncolumns) {
			return nil, mismatch()
		}
		targets := sl.Subselect.GetSelectStmt().GetTargetList()
		for i := range elems {
			loc := NodeLocation(src)
			if len(targets) == len(elems) {
				loc = leftmostLocation(targets[i].GetResTarget().GetVal())
			}
			out = append(out, assignSource{x: &elems[i], loc: loc})
		}
	default:
		return nil, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression"), NodeLocation(src))
	}
	return out, nil
}

// leftmostLocation is the smallest byte offset of any node in n, where
// PostgreSQL points an error about a whole expression (x::text points at
// x, not at the cast); -1 when none is known.
func leftmostLocation(n *pg.Node) int32 {
	loc := int32(-1)
	if n == nil {
		return loc
	}
	WalkAST(n.ProtoReflect(), func(m ProtoreflectMessage) bool {
		if f := m.Descriptor().Fields().ByName("location"); f != nil {
			if l := int32(m.Get(f).Int()); l >= 0 && (loc < 0 || l < loc) {
				loc = l
			}
		}
		return true
	})
	return loc
}
