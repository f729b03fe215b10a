package translate

import pg "github.com/pganalyze/pg_query_go/v6"

// bindUpdate binds a Update statement into a dmlPlan (dml.go).
func (b *binder) bindUpdate(stmt *pg.UpdateStmt) (*dmlPlan, error) {
	return nil, notYet("UPDATE")
}
