package translate

import pg "github.com/pganalyze/pg_query_go/v6"

// bindUpsert binds INSERT ... ON CONFLICT and INSERT ... RETURNING into a
// dmlPlan (dml.go).
func (b *binder) bindUpsert(ins *pg.InsertStmt) (*dmlPlan, error) {
	return nil, notYet("INSERT ... ON CONFLICT")
}
