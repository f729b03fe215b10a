package translate

import pg "github.com/pganalyze/pg_query_go/v6"

// bindDelete binds a Delete statement into a dmlPlan (dml.go).
func (b *binder) bindDelete(stmt *pg.DeleteStmt) (*dmlPlan, error) {
	return nil, notYet("DELETE")
}
