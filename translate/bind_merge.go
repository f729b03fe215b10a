package translate

import pg "github.com/pganalyze/pg_query_go/v6"

// bindMerge binds a Merge statement into a dmlPlan (dml.go).
func (b *binder) bindMerge(stmt *pg.MergeStmt) (*dmlPlan, error) {
	return nil, notYet("MERGE")
}
