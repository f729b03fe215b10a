package bind

import (
	"context"
	"slices"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// Column privileges. A role without a table privilege may still use the
// table when it holds that privilege on the columns the statement uses,
// as PostgreSQL decides in ExecCheckPermissions: SELECT needs SELECT on
// every column read (anywhere: select list, WHERE, ORDER BY, joins,
// RETURNING), or on any one column when none is read (count(*));
// UPDATE needs UPDATE on each column set; INSERT needs INSERT on each
// column given. When the table check fails and the role holds the
// privilege on some column, binding goes on and the check waits for the
// end of the statement, when the columns used are known; a check that
// cannot be decided fails with the table's error. MERGE, INSERT ... ON
// CONFLICT, metadata tables, time travel and CHANGES need the table
// privilege.

// ColumnPrivileges is what an Env implements when it checks column
// privileges.
type ColumnPrivileges interface {
	// ColumnGrants are the columns of t on which role ("" the current
	// user) holds priv through column grants (nil: none, or no USAGE on
	// t's schema).
	ColumnGrants(ctx context.Context, role string, t *catalog.Table, priv byte) (map[string]bool, error)
}

// colCheck is one column privilege check left for the end of the
// statement.
type colCheck struct {
	table   *catalog.Table
	priv    byte
	allowed map[string]bool // the columns priv is granted on
	err     error           // the table check's error, returned on failure
	// ids and names are the scan's columns, once the table is bound.
	ids   []plan.ColID
	names []string
}

// colChecks are the checks waiting, and where binding is: inside how
// many BindSelect calls, and whether in an UPDATE or DELETE (whose end
// decides).
type colChecks struct {
	list  []*colCheck
	depth int
	dml   bool
}

// dmlMark is where an UPDATE or DELETE began: its checks are those from
// index from on, and dml what to restore at its end.
type dmlMark struct {
	from int
	dml  bool
}

// enterDMLColumns starts the checks of an UPDATE or DELETE, decided at its
// end (a WITH query before it decides its own).
func (b *Binder) enterDMLColumns() dmlMark {
	m := dmlMark{from: len(b.cols.list), dml: b.cols.dml}
	b.cols.dml = true
	return m
}

// leaveDMLColumns ends them: a check left undecided (binding failed, or
// never reached the decision) is dropped with the statement's error.
func (b *Binder) leaveDMLColumns(m dmlMark) {
	b.cols.dml = m.dml
}

// checkTableColumns checks priv on t like CheckTablePrivilege, but when
// only column grants could allow the use it records a check for the end
// of the statement instead of failing.
func (b *Binder) checkTableColumns(t *catalog.Table, priv byte) error {
	err := b.CheckTablePrivilege(t, priv)
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InsufficientPrivilege {
		return err
	}
	cp, ok := b.env.(ColumnPrivileges)
	// Only where an end decides: inside BindSelect, an UPDATE or DELETE,
	// or INSERT's own check (insertColumnChecks); MERGE's source is
	// checked whole.
	if !ok || priv == 'r' && b.cols.depth == 0 && !b.cols.dml || priv == 'w' && !b.cols.dml {
		return err
	}
	allowed, cerr := cp.ColumnGrants(b.ctx, b.privRole, t, priv)
	if cerr != nil {
		return cerr
	}
	if len(allowed) == 0 {
		return err
	}
	b.cols.list = append(b.cols.list, &colCheck{table: t, priv: priv, allowed: allowed, err: err})
	return nil
}

// attachColumnChecks gives the checks of t waiting for its scan the scan's
// columns (the first len(cols) of ids are the table's).
func (b *Binder) attachColumnChecks(t *catalog.Table, cols []Column, ids []plan.ColID) {
	for _, c := range b.cols.list {
		if c.ids != nil || !sameTable(c.table, t) {
			continue
		}
		c.ids = ids[:len(cols)]
		c.names = make([]string, len(cols))
		for i, col := range cols {
			c.names[i] = col.Name
		}
	}
}

func sameTable(a, b *catalog.Table) bool {
	return a == b || a.Ident.Name == b.Ident.Name && slices.Equal(a.Ident.Namespace, b.Ident.Namespace)
}

// checkColumnsRead decides the SELECT checks: used are the column ids
// the statement reads.
func (b *Binder) checkColumnsRead(from int, used plan.ColSet) error {
	return b.decideColumns(from, byte('r'), func(c *colCheck) []string {
		if c.ids == nil {
			return []string{""} // never bound: undecidable, so denied
		}
		var out []string
		for i, id := range c.ids {
			if used.Has(id) {
				out = append(out, c.names[i])
			}
		}
		return out
	}, func(*colCheck) bool { return true })
}

// checkColumnsWritten decides the checks of priv (INSERT, UPDATE) of t:
// names are the columns written.
func (b *Binder) checkColumnsWritten(from int, t *catalog.Table, priv byte, names []string) error {
	return b.decideColumns(from, priv, func(c *colCheck) []string {
		if !sameTable(c.table, t) {
			return nil
		}
		return names
	}, func(c *colCheck) bool { return sameTable(c.table, t) })
}

// decideColumns decides (and drops) the checks of priv that decidable
// says can be decided, with the columns cols names for each.
func (b *Binder) decideColumns(from int, priv byte, cols func(*colCheck) []string, decidable func(*colCheck) bool) error {
	kept := b.cols.list[:0]
	var first error
	for i, c := range b.cols.list {
		if i < from || c.priv != priv || !decidable(c) {
			kept = append(kept, c)
			continue
		}
		for _, name := range cols(c) {
			if !c.allowed[name] && first == nil {
				first = c.err
			}
		}
	}
	b.cols.list = kept
	return first
}

// finishColumnChecks fails with the first check from index from on never
// decided: its table's error.
func (b *Binder) finishColumnChecks(from int) error {
	if len(b.cols.list) > from {
		err := b.cols.list[from].err
		b.cols.list = b.cols.list[:from]
		return err
	}
	return nil
}

// usedColumns are the column ids a bound query reads: its result columns
// and every column an expression of its tree, its subqueries' and its
// shared WITH queries' refers to.
func usedColumns(p *plan.Select, used plan.ColSet) {
	for _, id := range p.Out {
		used.Add(id)
	}
	usedInTree(p.Root, used, map[*plan.CTE]bool{})
}

func usedInTree(root plan.Rel, used plan.ColSet, seen map[*plan.CTE]bool) {
	if root == nil {
		return
	}
	plan.Visit(root, func(n plan.Rel) {
		for _, e := range plan.Exprs(n) {
			plan.WalkExpr(e, func(e expr.Expr) {
				switch x := e.(type) {
				case *expr.Col:
					used.Add(plan.ColID(x.Idx))
				case *plan.Subquery:
					if x.Plan != nil {
						for _, id := range x.Plan.Out {
							used.Add(id)
						}
						usedInTree(x.Plan.Root, used, seen)
					}
				}
			})
		}
		switch x := n.(type) {
		case *plan.CTEScan:
			if !seen[x.CTE] {
				seen[x.CTE] = true
				for _, id := range x.CTE.Out {
					used.Add(id)
				}
				usedInTree(x.CTE.Body, used, seen)
			}
		}
	})
}

// usedInExprs adds the column ids es refer to.
func usedInExprs(used plan.ColSet, es ...expr.Expr) {
	for _, e := range es {
		if e != nil {
			usedInTree(&plan.Project{Exprs: []expr.Expr{e}, In: &plan.OneRow{}}, used, map[*plan.CTE]bool{})
		}
	}
}

// selectColumnChecks decides the SELECT checks at the end of a statement's
// query (not of a subquery, nor of the query inside an UPDATE or DELETE,
// whose end decides).
func (b *Binder) selectColumnChecks(p *plan.Select) error {
	if len(b.cols.list) == 0 || b.cols.depth > 0 || b.cols.dml {
		return nil
	}
	used := plan.ColSet{}
	usedColumns(p, used)
	return b.checkColumnsRead(0, used)
}

// updateColumnChecks decides an UPDATE's checks: UPDATE on the columns set
// and SELECT on the columns read by its conditions (read), the values
// set and RETURNING (whose references to a set column's new value newIDs
// maps back to the column).
func (b *Binder) updateColumnChecks(m dmlMark, tg *dmlTarget, read plan.Rel, values []expr.Expr, set []bool, ret []expr.Expr, newIDs []plan.ColID) error {
	if len(b.cols.list) <= m.from {
		return nil
	}
	var names []string
	used := plan.ColSet{}
	usedInTree(read, used, map[*plan.CTE]bool{})
	for i, c := range tg.cols {
		if set[i] {
			names = append(names, c.Name)
			usedInExprs(used, values[i])
		}
	}
	usedInExprs(used, ret...)
	for i, id := range newIDs {
		if used.Has(id) {
			used.Add(tg.ids[i])
		}
	}
	if err := b.checkColumnsWritten(m.from, tg.table, 'w', names); err != nil {
		return err
	}
	if err := b.checkColumnsRead(m.from, used); err != nil {
		return err
	}
	return b.finishColumnChecks(m.from)
}

// deleteColumnChecks decides a DELETE's checks: SELECT on the columns its
// conditions and RETURNING read.
func (b *Binder) deleteColumnChecks(m dmlMark, cur plan.Rel, ret []expr.Expr) error {
	if len(b.cols.list) <= m.from {
		return nil
	}
	used := plan.ColSet{}
	usedInTree(cur, used, map[*plan.CTE]bool{})
	usedInExprs(used, ret...)
	if err := b.checkColumnsRead(m.from, used); err != nil {
		return err
	}
	return b.finishColumnChecks(m.from)
}

// insertColumnChecks decides an INSERT's checks: INSERT on the columns it
// names, or without a column list on as many leading columns as its rows
// have values (all of them for a query), as PostgreSQL counts them.
func (b *Binder) insertColumnChecks(ins *pg.InsertStmt, t *catalog.Table, cols []Column, targets []int) error {
	if len(b.cols.list) == 0 {
		return nil
	}
	n := len(targets)
	if sel := ins.SelectStmt.GetSelectStmt(); len(ins.Cols) == 0 && sel != nil && len(sel.ValuesLists) > 0 {
		n = min(n, len(sel.ValuesLists[0].GetList().GetItems()))
	}
	names := make([]string, 0, n)
	for _, i := range targets[:n] {
		names = append(names, cols[i].Name)
	}
	return b.checkColumnsWritten(0, t, 'a', names)
}

// checkReadIfUsed makes an UPDATE that targetPrivileges lets write
// without SELECT still need SELECT on the target's columns its SET values
// read (SET c = c + 1), as PostgreSQL does: a check that passes when no
// column is read.
func (b *Binder) checkReadIfUsed(t *catalog.Table) error {
	for _, c := range b.cols.list {
		if c.priv == 'r' && sameTable(c.table, t) {
			return nil // already checked
		}
	}
	if slices.Contains(b.targetPrivileges("UPDATE"), 'r') {
		return nil
	}
	err := b.CheckTablePrivilege(t, 'r')
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InsufficientPrivilege {
		return err
	}
	allowed := map[string]bool{}
	if cp, ok := b.env.(ColumnPrivileges); ok {
		got, cerr := cp.ColumnGrants(b.ctx, b.privRole, t, 'r')
		if cerr != nil {
			return cerr
		}
		for k := range got {
			allowed[k] = true
		}
	}
	b.cols.list = append(b.cols.list, &colCheck{table: t, priv: 'r', allowed: allowed, err: err})
	return nil
}
