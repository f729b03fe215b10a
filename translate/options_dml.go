package translate

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/translate/parse"
)

// dmlTargetHint is the OPTIONS hint after the target table of a DELETE,
// UPDATE, MERGE or INSERT (nil when none).
func dmlTargetHint(ps parse.Stmt) *parse.Hint {
	if ps.Node == nil || len(ps.Hints) == 0 {
		return nil
	}
	var rv *pg.RangeVar
	switch x := ps.Node.Node.(type) {
	case *pg.Node_DeleteStmt:
		rv = x.DeleteStmt.Relation
	case *pg.Node_UpdateStmt:
		rv = x.UpdateStmt.Relation
	case *pg.Node_MergeStmt:
		rv = x.MergeStmt.Relation
	case *pg.Node_InsertStmt:
		rv = x.InsertStmt.Relation
	}
	if rv == nil {
		return nil
	}
	return ps.Hints[rv.Location]
}

// addNotices adds notices to a statement's result when it can carry them.
func addNotices(r Rows, notices []Notice) Rows {
	if e, ok := r.(*emptyRows); ok && len(notices) > 0 {
		e.notices = append(e.notices, notices...)
	}
	return r
}
