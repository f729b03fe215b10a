package bind

import (
	"fmt"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// mergeClause is one WHEN clause of a MERGE.
type mergeClause struct {
	kind   pg.MergeMatchKind
	action int32            // DMLNone (DO NOTHING), DMLUpdate, dmlDelete or DMLInsert
	star   *parse.MergeStar // Spark's UPDATE SET * / INSERT * (parse/dialect_merge.go)
	cond   expr.Expr        // the AND condition; nil when none
	// values is the new row of an UPDATE or INSERT: one expression per
	// table column, typed as the column.
	values []expr.Expr
}

// readMergeClauses reads the kinds and actions of the WHEN clauses and
// checks their order, as PostgreSQL: a clause after an unconditional one
// of the same kind is unreachable.
func (b *Binder) readMergeClauses(m *mergeBinding, whens []*pg.Node) error {
	var stars map[int]parse.MergeStar
	if b.stmt.Extras != nil {
		stars = b.stmt.Extras.MergeStars
	}
	unconditional := map[pg.MergeMatchKind]bool{}
	for i, n := range whens {
		w := n.GetMergeWhenClause()
		if w == nil {
			return pgerr.NotYet("this MERGE clause")
		}
		c := &mergeClause{kind: w.MatchKind}
		switch w.CommandType {
		case pg.CmdType_CMD_UPDATE:
			c.action = DMLUpdate
		case pg.CmdType_CMD_DELETE:
			c.action = dmlDelete
		case pg.CmdType_CMD_INSERT:
			c.action = DMLInsert
		case pg.CmdType_CMD_NOTHING:
			c.action = DMLNone
		default:
			return pgerr.NotYet("this MERGE action")
		}
		if s, ok := stars[i]; ok && w.CommandType == pg.CmdType_CMD_NOTHING {
			s := s
			c.star = &s
			c.action = DMLUpdate
			if s.Insert {
				c.action = DMLInsert
			}
			if err := b.checkMergeStar(c); err != nil {
				return err
			}
		}
		if w.Override != pg.OverridingKind_OVERRIDING_NOT_SET {
			return pgerr.NotYet("OVERRIDING in MERGE")
		}
		if unconditional[c.kind] {
			return pgerr.New(pgerr.SyntaxError, "unreachable WHEN clause specified after unconditional WHEN clause")
		}
		if w.Condition == nil {
			unconditional[c.kind] = true
		}
		m.clauses = append(m.clauses, c)
	}
	return nil
}

// checkMergeStar rejects a star action in a clause that cannot have it.
func (b *Binder) checkMergeStar(c *mergeClause) error {
	var msg string
	switch {
	case c.star.Insert && c.kind != pg.MergeMatchKind_MERGE_WHEN_NOT_MATCHED_BY_TARGET:
		msg = "INSERT * is only allowed in WHEN NOT MATCHED"
	case !c.star.Insert && c.kind == pg.MergeMatchKind_MERGE_WHEN_NOT_MATCHED_BY_TARGET:
		msg = "UPDATE SET * is not allowed in WHEN NOT MATCHED"
	case !c.star.Insert && c.kind == pg.MergeMatchKind_MERGE_WHEN_NOT_MATCHED_BY_SOURCE:
		msg = "UPDATE SET * is not allowed in WHEN NOT MATCHED BY SOURCE: there is no source row"
	default:
		return nil
	}
	return b.ErrAt(pgerr.New(pgerr.SyntaxError, "%s", msg), c.star.Loc)
}

// bindMergeClause binds a clause's condition and new row with the FROM
// items its kind may refer to: both sides when MATCHED, the source when
// NOT MATCHED [BY TARGET], the target when NOT MATCHED BY SOURCE.
func (b *Binder) bindMergeClause(m *mergeBinding, c *mergeClause, w *pg.MergeWhenClause) error {
	tgt := []*rangeItem{m.tgt.item}
	var items, hidden []*rangeItem
	var merged []itemCol
	switch c.kind {
	case pg.MergeMatchKind_MERGE_WHEN_MATCHED:
		items, merged = append(append([]*rangeItem(nil), m.srcItems...), tgt...), m.srcMerged
	case pg.MergeMatchKind_MERGE_WHEN_NOT_MATCHED_BY_TARGET:
		items, merged, hidden = m.srcItems, m.srcMerged, tgt
	default:
		items, hidden = tgt, m.srcItems
	}
	if err := b.rejectMergeAction(append([]*pg.Node{w.Condition}, append(w.TargetList, w.Values...)...)...); err != nil {
		return err
	}
	return b.withVisible(items, merged, hidden, func() error {
		if w.Condition != nil {
			saved := b.where
			b.where = "MERGE WHEN conditions"
			x, err := b.Expr(w.Condition)
			b.where = saved
			if err != nil {
				return err
			}
			if c.cond, err = b.asBool(x, "WHEN", NodeLocation(w.Condition)); err != nil {
				return err
			}
		}
		switch {
		case c.star != nil:
			return b.bindMergeStar(m, c)
		case c.action == DMLUpdate:
			var err error
			c.values, _, err = b.bindSet(m.tgt, w.TargetList)
			return err
		case c.action == DMLInsert:
			return b.bindMergeInsert(m, c, w)
		}
		return nil
	})
}

// bindMergeInsert binds INSERT [(cols)] VALUES (...) | DEFAULT VALUES.
func (b *Binder) bindMergeInsert(m *mergeBinding, c *mergeClause, w *pg.MergeWhenClause) error {
	cols := m.tgt.cols
	var err error
	if c.values, err = b.tableDefaults(m.tgt.table, m.tgt.schema, cols); err != nil {
		return err
	}
	targets := make([]int, 0, len(cols))
	if len(w.TargetList) == 0 {
		for i := range cols {
			targets = append(targets, i)
		}
	}
	seen := map[int]bool{}
	for _, n := range w.TargetList {
		rt := n.GetResTarget()
		i := FindColumn(cols, rt.Name, b.identQuoted(rt.Location, 0))
		if i < 0 {
			return b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, m.tgt.table.Ident.Name), rt.Location)
		}
		if len(rt.Indirection) > 0 {
			return b.ErrAt(pgerr.NotYet("INSERT into fields of a column"), rt.Location)
		}
		if seen[i] {
			return b.ErrAt(pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", rt.Name), rt.Location)
		}
		seen[i] = true
		targets = append(targets, i)
	}
	if len(w.Values) == 0 && len(w.TargetList) == 0 {
		return nil // DEFAULT VALUES
	}
	loc := int32(-1)
	if len(w.Values) > 0 {
		loc = NodeLocation(w.Values[min(len(targets), len(w.Values)-1)])
	}
	if err := b.checkInsertArity(len(w.Values), len(targets), len(w.TargetList) > 0, loc); err != nil {
		if len(w.Values) < len(targets) && len(w.TargetList) > 0 {
			return b.ErrAt(pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions"), w.TargetList[len(w.Values)].GetResTarget().Location)
		}
		return err
	}
	saved := b.where
	b.where = "VALUES"
	defer func() { b.where = saved }()
	for k, v := range w.Values {
		e, err := b.mergeValue(m, targets[k], v)
		if err != nil {
			return err
		}
		c.values[targets[k]] = e
	}
	return nil
}

// mergeValue binds the value written into column i: DEFAULT or an
// expression converted as an assignment.
func (b *Binder) mergeValue(m *mergeBinding, i int, n *pg.Node) (expr.Expr, error) {
	col := m.tgt.cols[i]
	if n.GetSetToDefault() != nil {
		return b.ColumnDefault(m.tgt.table, m.tgt.schema.Fields[i], col)
	}
	x, err := b.Expr(n)
	if err != nil {
		return nil, err
	}
	return b.Assign(x, col, NodeLocation(n))
}

// bindMergeStar expands Spark's UPDATE SET * and INSERT *: every target
// column from the source column of the same name.
func (b *Binder) bindMergeStar(m *mergeBinding, c *mergeClause) error {
	src := &scope{items: m.srcItems, merged: m.srcMerged}
	c.values = make([]expr.Expr, len(m.tgt.cols))
	for i, col := range m.tgt.cols {
		ic, err := src.lookup(col.Name, false)
		if err != nil {
			pe := pgerr.As(err)
			if pe != nil && pe.Code == pgerr.UndefinedColumn {
				what := "UPDATE SET *"
				if c.star.Insert {
					what = "INSERT *"
				}
				err = pgerr.New(pgerr.UndefinedColumn, "column %s does not exist", sourceColumnName(m, col.Name)).
					WithHint("%s needs a source column for every column of table \"%s\".", what, m.tgt.table.Ident.Name)
			}
			return b.ErrAt(err, c.star.Loc)
		}
		x := b.ref(ic.id)
		e, err := b.Assign(x, col, c.star.Loc)
		if err != nil {
			return err
		}
		c.values[i] = e
	}
	return nil
}

// sourceColumnName is a source column's name as an error names it:
// qualified when the source is one named item.
func sourceColumnName(m *mergeBinding, name string) string {
	if len(m.srcItems) == 1 {
		if ref := m.srcItems[0].refName(); ref != "" {
			return fmt.Sprintf("%s.%s", ref, name)
		}
	}
	return fmt.Sprintf("\"%s\"", name)
}
