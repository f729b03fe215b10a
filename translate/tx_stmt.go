package translate

import (
	"context"
	"fmt"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// prepareTransaction makes BEGIN / START TRANSACTION, COMMIT / END,
// ROLLBACK / ABORT, SAVEPOINT, RELEASE and ROLLBACK TO, with PostgreSQL's
// warnings for a BEGIN inside a block and a COMMIT or ROLLBACK outside one.
func (s *session) prepareTransaction(t *pg.TransactionStmt) (Statement, error) {
	switch t.Kind {
	case pg.TransactionStmtKind_TRANS_STMT_BEGIN:
		return s.beginStatement("BEGIN", t.Options), nil
	case pg.TransactionStmtKind_TRANS_STMT_START:
		return s.beginStatement("START TRANSACTION", t.Options), nil
	case pg.TransactionStmtKind_TRANS_STMT_COMMIT:
		return s.endStatement("COMMIT", true, t.Chain), nil
	case pg.TransactionStmtKind_TRANS_STMT_ROLLBACK:
		return s.endStatement("ROLLBACK", false, t.Chain), nil
	case pg.TransactionStmtKind_TRANS_STMT_SAVEPOINT:
		return &txStatement{run: func(ctx context.Context) (string, []Notice, error) {
			if s.tx == nil || s.tx.implicit {
				return "", nil, blockOnly("SAVEPOINT")
			}
			if err := s.checkNotFailed(); err != nil {
				return "", nil, err
			}
			s.tx.savepoints = append(s.tx.savepoints, savepoint{
				name: t.SavepointName, settings: s.settings.Save(), local: copyStrings(s.tx.local), writes: s.tx.writes, tableWrites: s.writeMarks(), viewOps: len(s.tx.viewOps), rolesMark: s.tx.roles.Mark()})
			return "SAVEPOINT", nil, nil
		}}, nil
	case pg.TransactionStmtKind_TRANS_STMT_RELEASE:
		return &txStatement{run: func(ctx context.Context) (string, []Notice, error) {
			if s.tx == nil || s.tx.implicit {
				return "", nil, blockOnly("RELEASE SAVEPOINT")
			}
			if err := s.checkNotFailed(); err != nil {
				return "", nil, err
			}
			i := s.tx.findSavepoint(t.SavepointName)
			if i < 0 {
				return "", nil, noSavepoint(t.SavepointName)
			}
			s.tx.savepoints = s.tx.savepoints[:i]
			s.releaseCursors(i)
			return "RELEASE", nil, nil
		}}, nil
	case pg.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		return &txStatement{run: func(ctx context.Context) (string, []Notice, error) {
			if s.tx == nil || s.tx.implicit {
				return "", nil, blockOnly("ROLLBACK TO SAVEPOINT")
			}
			i := s.tx.findSavepoint(t.SavepointName)
			if i < 0 {
				return "", nil, noSavepoint(t.SavepointName)
			}
			sp := s.tx.savepoints[i]
			s.tx.savepoints = s.tx.savepoints[:i+1]
			s.settings.Restore(sp.settings)
			s.tx.local = copyStrings(sp.local)
			s.tx.failed = false
			s.rollbackCursors(i)
			s.rollbackWritesTo(sp.tableWrites)
			s.tx.viewOps = s.tx.viewOps[:sp.viewOps]
			s.tx.roles.RollbackTo(sp.rolesMark)
			s.syncTxSettings()
			var notices []Notice
			if n := s.tx.writes - sp.writes; n > 0 {
				notices = []Notice{notUndone("ROLLBACK TO SAVEPOINT", n)}
			}
			return "ROLLBACK", notices, nil
		}}, nil
	}
	return nil, pgerr.NotYetPlural("two-phase commit statements")
}

// beginStatement is BEGIN or START TRANSACTION.
func (s *session) beginStatement(tag string, opts []*pg.Node) Statement {
	return &txStatement{run: func(ctx context.Context) (string, []Notice, error) {
		if s.inImplicitBlock() {
			// The implicit block of the query string becomes the block
			// BEGIN opens.
			s.tx.implicit = false
			if err := s.applyTxOptions(opts, false); err != nil {
				return "", nil, err
			}
			return tag, nil, nil
		}
		if s.tx != nil {
			if err := s.checkNotFailed(); err != nil {
				return "", nil, err
			}
			// PostgreSQL warns and applies the options to the open block.
			if err := s.applyTxOptions(opts, false); err != nil {
				return "", nil, err
			}
			return tag, []Notice{{Severity: "WARNING", Code: pgerr.ActiveSQLTransaction, Message: "there is already a transaction in progress"}}, nil
		}
		if err := s.beginBlock(opts); err != nil {
			return "", nil, err
		}
		return tag, nil, nil
	}}
}

// endStatement is COMMIT or ROLLBACK [AND CHAIN]. COMMIT of a failed
// block rolls it back (tag ROLLBACK), as in PostgreSQL.
func (s *session) endStatement(tag string, commit, chain bool) Statement {
	return &txStatement{run: func(ctx context.Context) (string, []Notice, error) {
		if s.tx == nil {
			if chain {
				return "", nil, blockOnly(tag + " AND CHAIN")
			}
			return tag, []Notice{{Severity: "WARNING", Code: pgerr.NoActiveSQLTransaction, Message: "there is no transaction in progress"}}, nil
		}
		tx := s.tx
		if tx.failed {
			commit, tag = false, "ROLLBACK"
		}
		var notices []Notice
		if tx.implicit {
			// COMMIT / ROLLBACK ends the implicit transaction of the
			// query string so far, with PostgreSQL's warning.
			notices = append(notices, Notice{Severity: "WARNING", Code: pgerr.NoActiveSQLTransaction, Message: "there is no transaction in progress"})
		}
		if !commit && tx.writes > 0 {
			notices = []Notice{notUndone("ROLLBACK", tx.writes)}
		}
		var err error
		if commit {
			if err = s.commitWrites(ctx); err != nil {
				tag = "ROLLBACK"
			}
		} else {
			s.rollbackWrites()
		}
		if eerr := s.endBlock(commit && err == nil); err == nil {
			err = eerr
		}
		if chain {
			// A new block with the same characteristics.
			s.tx = &txBlock{atBegin: s.settings.Save(), isolation: tx.isolation, readOnly: tx.readOnly, deferrable: tx.deferrable}
			s.syncTxSettings()
		}
		if err != nil {
			return "", nil, err
		}
		return tag, notices, nil
	}}
}

// notUndone is the warning that a rollback left committed writes in place.
func notUndone(what string, n int) Notice {
	return Notice{Severity: "WARNING", Code: pgerr.Warning,
		Message: fmt.Sprintf("%s did not undo %d schema change(s) of this transaction block", what, n),
		Detail:  "icegate commits CREATE SCHEMA, ALTER TABLE ... RENAME, and the DROP TABLE of a table the block creates again, when they run; other changes wait for COMMIT."}
}

// blockOnly is PostgreSQL's error for a statement that needs a block.
func blockOnly(what string) error {
	return pgerr.New(pgerr.NoActiveSQLTransaction, "%s can only be used in transaction blocks", what)
}

// committedNow records that a catalog change committed at once inside a
// block (CREATE SCHEMA, views, RENAME): committedWrite then counts it.
func (s *session) committedNow() {
	if s.tx != nil {
		s.tx.committed = true
	}
}

// committedWrite records that a schema change (DDL, CREATE TABLE AS) has
// committed, when it did (committedNow) rather than being staged. Inside a transaction block it returns, for the first one, the
// notice that it is already committed: ROLLBACK cannot undo it. Data
// changes (INSERT, COPY, UPDATE, DELETE, MERGE) wait for COMMIT instead
// (tx_writes.go).
func (s *session) committedWrite() []Notice {
	if s.tx == nil || s.tx.implicit {
		return nil
	}
	s.tx.queried = true
	if !s.tx.committed {
		// Staged until COMMIT (tx_ddl.go).
		return nil
	}
	s.tx.committed = false
	s.tx.writes++
	if s.tx.writes > 1 {
		return nil
	}
	return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
		Message: "this schema change is committed now, not at COMMIT",
		Detail:  "icegate commits CREATE SCHEMA, ALTER TABLE ... RENAME, and the DROP TABLE of a table the block creates again, when they run; a later ROLLBACK does not undo them."}}
}

// txStatement is a transaction control statement. It checks the block's
// state itself (COMMIT and ROLLBACK run in a failed block).
type txStatement struct {
	run func(ctx context.Context) (tag string, notices []Notice, err error)
}

func (t *txStatement) ParamTypes() []uint32      { return nil }
func (t *txStatement) Columns() []pgtypes.Column { return nil }
func (t *txStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	tag, notices, err := t.run(ctx)
	if err != nil {
		return nil, err
	}
	return &emptyRows{tag: tag, notices: notices}, nil
}
