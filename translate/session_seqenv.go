package translate

import (
	"context"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/seqexec"
)

// The session as seqexec.Env: sequences (their statements, nextval & co.,
// the cache of values) run in package seqexec over what is here.

var _ seqexec.Env = (*session)(nil)

// prepareCreateSequence prepares CREATE SEQUENCE (seqexec.Exec.Create).
func (s *session) prepareCreateSequence(cs *pg.CreateSeqStmt) (Statement, error) {
	run, err := seqexec.With(s).Create(cs)
	if err != nil {
		return nil, err
	}
	return &ddlStatement{sess: s, tag: "CREATE SEQUENCE", run: run}, nil
}

// prepareAlterSequence prepares ALTER SEQUENCE ... options.
func (s *session) prepareAlterSequence(as *pg.AlterSeqStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER SEQUENCE", run: seqexec.With(s).Alter(as)}, nil
}

// prepareDropSequence prepares DROP SEQUENCE.
func (s *session) prepareDropSequence(ds *pg.DropStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "DROP SEQUENCE", run: seqexec.With(s).Drop(ds)}, nil
}

// prepareRenameSequence prepares ALTER SEQUENCE ... RENAME TO.
func (s *session) prepareRenameSequence(rs *pg.RenameStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER SEQUENCE", run: seqexec.With(s).Rename(rs)}, nil
}

func (s *session) MutableCatalog(what string) (catalog.MutableCatalog, error) {
	return s.mutableCatalog(what)
}

// SequenceCatalog is the catalog the state of sequence id is committed
// through: directly, outside any transaction block's staging, except for a
// sequence the open block created. No other session sees that one yet and
// ROLLBACK takes it away, so its state is staged with it and published by
// COMMIT (a serial column's table created and filled in one block).
func (s *session) SequenceCatalog(what string, id catalog.Identifier) (catalog.MutableCatalog, error) {
	mc, err := s.mutableCatalog(what)
	if err != nil {
		return nil, err
	}
	if s.createdInBlock(id) {
		return mc, nil
	}
	return underWriteCatalog(mc), nil
}

// createdInBlock reports whether the open transaction block created table
// id (and has not dropped it).
func (s *session) createdInBlock(id catalog.Identifier) bool {
	if s.tx == nil {
		return false
	}
	tt := s.tx.tables[pinKey(id)]
	if tt == nil || !tt.created {
		return false
	}
	v, ok := s.blockTable(id)
	return ok && v != nil
}

func (s *session) CommitPastBlock(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) error {
	t, err := underWriteCatalog(mc).CommitTable(ctx, id, reqs, updates)
	if err != nil {
		return err
	}
	if wc, ok := mc.(*writeCatalog); ok {
		wc.moved(id, t)
	}
	return nil
}

func (s *session) InBlock() bool { return s.tx != nil }

func (s *session) ChangedInBlock(id catalog.Identifier) bool {
	_, changed := s.blockTable(id)
	return changed
}

func (s *session) LookupTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error) {
	return s.lookupTable(ctx, tn)
}

func (s *session) TableIdent(ctx context.Context, tn parse.TableName) (catalog.Identifier, bool, error) {
	return s.tableIdent(ctx, tn)
}

func (s *session) CreateTable(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier, name string, spec catalog.TableSpec, ifNotExists, defaultSchema bool) ([]pgerr.Notice, error) {
	_, notices, err := s.createTable(ctx, mc, &createTable{id: id, name: name, spec: spec, ifNotExists: ifNotExists, defaultSchema: defaultSchema})
	return notices, err
}

func (s *session) Sequences() *seqexec.Cache { return &s.seq }
