package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
)

// BindDelete binds DELETE FROM [ONLY] t [[AS] a] [USING items] [WHERE
// cond] [RETURNING items] into a DMLPlan (dml.go): the target joined with
// the USING items by the WHERE condition, one dmlDelete row per target
// row reached (the executor keeps the first of a row reached twice), the
// new row NULL, RETURNING over the old values.
func (b *Binder) BindDelete(stmt *pg.DeleteStmt) (*DMLPlan, error) {
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
	tg, err := b.bindDMLTarget(stmt.Relation, "DELETE")
	if err != nil {
		return nil, err
	}
	cur, err := b.bindDMLFrom(tg, tg.scan, stmt.UsingClause)
	if err != nil {
		return nil, err
	}
	if cur, err = b.bindDMLWhere(cur, stmt.WhereClause); err != nil {
		return nil, err
	}
	cur, ret, retCols, err := b.bindReturning(cur, stmt.ReturningList)
	if err != nil {
		return nil, err
	}
	if err := b.deleteColumnChecks(mark, cur, ret); err != nil { // privilege_column.go
		return nil, err
	}
	return b.finishDML(DMLKindDelete, tg, cur, actionLit(dmlDelete), nullRow(tg.cols), ret, retCols), nil
}

// nullRow is a new row of typed NULLs, for statements that write none.
func nullRow(cols []Column) []expr.Expr {
	out := make([]expr.Expr, len(cols))
	for i, c := range cols {
		out[i] = &expr.Lit{V: nil, T: c.Arrow}
	}
	return out
}
