package translate

import (
	"context"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/indexexec"
)

// The session as indexexec.Env: CREATE, DROP and ALTER INDEX and ALTER
// TABLE ... RENAME CONSTRAINT run in package indexexec over what is here.

var _ indexexec.Env = (*session)(nil)

// prepareCreateIndex prepares CREATE INDEX (indexexec.Exec.Create).
func (s *session) prepareCreateIndex(st *pg.IndexStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "CREATE INDEX", run: indexexec.With(s).Create(st)}, nil
}

// prepareDropIndex prepares DROP INDEX (indexexec.Exec.Drop).
func (s *session) prepareDropIndex(ds *pg.DropStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "DROP INDEX", run: indexexec.With(s).Drop(ds)}, nil
}

// prepareRenameIndex prepares ALTER INDEX ... RENAME TO.
func (s *session) prepareRenameIndex(rs *pg.RenameStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER INDEX", run: indexexec.With(s).Rename(rs)}, nil
}

// prepareRenameConstraint prepares ALTER TABLE ... RENAME CONSTRAINT.
func (s *session) prepareRenameConstraint(rs *pg.RenameStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER TABLE", run: indexexec.With(s).RenameConstraint(rs)}, nil
}

func (s *session) AlterTarget(ctx context.Context, rel *pg.RangeVar, missingOk bool) (*catalog.Table, []Notice, error) {
	return s.alterTarget(ctx, rel, missingOk)
}
