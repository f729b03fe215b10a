package translate

import (
	"context"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/settings"
	"github.com/icegate/icegate/translate/viewexec"
)

// txBlock is the state of an open transaction block (BEGIN ... COMMIT).
//
// A block reads one snapshot per table (tx_catalog.go) and stages its data
// changes until COMMIT, which commits each table's changes as one snapshot
// (tx_writes.go); tables' schema changes are staged with them (tx_ddl.go),
// views too (viewexec.Staged); schemas and renames commit when they run (a
// NOTICE says so); changes of roles and privileges are staged in a
// roles.Store of the block (roles_tx.go) and published at COMMIT.
// Around that it gives PostgreSQL's session behaviour: cursors that live
// until the block ends (cursor.go), SET LOCAL and settings that ROLLBACK
// restores, the failed state after an error, READ ONLY, and savepoints that
// restore settings, cursors and staged writes.
type txBlock struct {
	// implicit: opened by a write of a multi-statement query string or an
	// extended-protocol batch, not by BEGIN (tx_implicit.go).
	implicit   bool
	failed     bool
	readOnly   bool
	isolation  string
	deferrable bool
	// queried is set once a statement read or wrote a table: SET
	// TRANSACTION ISOLATION LEVEL / READ WRITE are then too late.
	queried bool
	// writes counts schema changes committed at once inside the block.
	writes int
	// committed: the statement running committed a catalog change at once
	// (committedNow).
	committed bool
	// atBegin is the settings as they were before BEGIN; ROLLBACK restores
	// them.
	atBegin settings.Saved
	// local holds, for each setting SET LOCAL changed, the value COMMIT
	// restores (the session-level value).
	local map[string]string
	// savepoints are open savepoints, oldest first.
	savepoints []savepoint
	// tables are the tables the block has written, by pin key, in the
	// order of their first write (tx_writes.go).
	tables     map[string]*txTable
	tableOrder []string
	// viewOps are the block's CREATE VIEW and DROP VIEW (viewexec.Staged).
	viewOps viewexec.Staged
	// roles is the block's staged roles store (roles_tx.go), nil until a
	// statement of the block reads or changes roles or privileges.
	roles *roles.Store
}

// savepoint is one SAVEPOINT: what ROLLBACK TO restores.
type savepoint struct {
	name     string
	settings settings.Saved
	local    map[string]string
	writes   int
	// tableWrites is how many staged writes each table had.
	tableWrites map[string]int
	// viewOps is how many view changes the block had.
	viewOps int
	// rolesMark is how many changes of roles the block had staged.
	rolesMark int
}

// TxStatus is the ReadyForQuery status: 'I' outside a block, 'T' inside
// one, 'E' inside a failed one.
func (s *session) TxStatus() byte {
	st := s.txStatus()
	s.activity.reported(st)
	return st
}

func (s *session) txStatus() byte {
	switch {
	case s.tx == nil || s.tx.implicit:
		return 'I'
	case s.tx.failed:
		return 'E'
	}
	return 'T'
}

// StatementFailed records that an error went to the client: inside a
// transaction block the block fails, and every statement but COMMIT,
// ROLLBACK and ROLLBACK TO then fails with 25P02 until it ends. wire calls
// it for every error it sends, whichever layer raised it.
func (s *session) StatementFailed(err error) {
	if s.tx != nil {
		s.tx.failed = true
	}
}

// checkNotFailed is the error for a statement run in a failed block.
func (s *session) checkNotFailed() error {
	if s.tx != nil && s.tx.failed {
		return errFailedBlock()
	}
	return nil
}

func errFailedBlock() error {
	return pgerr.New(pgerr.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
}

// isBlockExit reports whether a parsed statement may run in a failed
// block: COMMIT, ROLLBACK, ROLLBACK TO SAVEPOINT (as PostgreSQL).
func isBlockExit(ps parse.Stmt) bool {
	if ps.Node == nil {
		return false
	}
	t := ps.Node.GetTransactionStmt()
	if t == nil {
		return false
	}
	switch t.Kind {
	case pg.TransactionStmtKind_TRANS_STMT_COMMIT, pg.TransactionStmtKind_TRANS_STMT_ROLLBACK,
		pg.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		return true
	}
	return false
}

// markQueried records that the block has read or written a table.
func (s *session) markQueried() {
	if s.tx != nil {
		s.tx.queried = true
	}
}

// readOnlyError is the error for a write in a failed block (25P02) or a
// read-only transaction (25006).
func (s *session) readOnlyError(what string) error {
	if err := s.checkNotFailed(); err != nil {
		return err
	}
	if s.settings.Value("transaction_read_only") == "on" {
		return pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", what)
	}
	return nil
}

// beginBlock opens a block with the session's default characteristics,
// then applies BEGIN's options.
func (s *session) beginBlock(opts []*pg.Node) error {
	tx := &txBlock{
		atBegin:   s.settings.Save(),
		isolation: s.settings.Value("default_transaction_isolation"),
		readOnly:  s.settings.Value("default_transaction_read_only") == "on",
	}
	s.tx = tx
	s.syncTxSettings()
	if err := s.applyTxOptions(opts, false); err != nil {
		s.settings.Restore(tx.atBegin)
		s.tx = nil
		return err
	}
	return nil
}

// endBlock ends the open block. commit keeps the settings set in it
// (except SET LOCAL ones); otherwise they go back to what they were at
// BEGIN. Cursors not declared WITH HOLD close; held ones declared in a
// committed block are materialized.
func (s *session) endBlock(commit bool) error {
	s.releaseAdvisory(true)
	tx := s.tx
	var err error
	if commit {
		err = s.holdCursors()
		for name, v := range tx.local {
			s.settings.RestoreOne(name, v)
		}
	} else {
		s.settings.Restore(tx.atBegin)
	}
	s.closeBlockCursors()
	s.unpinAll()
	s.tx = nil
	s.syncTxSettings()
	return err
}

// syncTxSettings makes transaction_isolation and transaction_read_only
// show the open block's characteristics, or the defaults outside one.
func (s *session) syncTxSettings() {
	// A block's end or a savepoint's rollback may restore another role.
	s.syncSuperuser(context.Background()) // privilege.go
	if s.tx == nil {
		s.settings.Put("transaction_isolation", s.settings.Value("default_transaction_isolation"))
		s.settings.Put("transaction_read_only", s.settings.Value("default_transaction_read_only"))
		s.settings.Put("transaction_deferrable", s.settings.Value("default_transaction_deferrable"))
		return
	}
	s.settings.Put("transaction_isolation", s.tx.isolation)
	s.settings.Put("transaction_read_only", boolSetting(s.tx.readOnly))
	s.settings.Put("transaction_deferrable", boolSetting(s.tx.deferrable))
}

func boolSetting(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// applyTxOptions applies the options of BEGIN / START TRANSACTION / SET
// TRANSACTION (late: after the block's first query, where PostgreSQL
// refuses to change the isolation level or to switch to read-write) or,
// with session set, of SET SESSION CHARACTERISTICS AS TRANSACTION.
func (s *session) applyTxOptions(opts []*pg.Node, session bool) error {
	for _, o := range opts {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		var v string
		if c := d.Arg.GetAConst(); c != nil {
			switch x := c.Val.(type) {
			case *pg.A_Const_Sval:
				v = x.Sval.Sval
			case *pg.A_Const_Ival:
				v = boolSetting(x.Ival.Ival != 0)
			case *pg.A_Const_Boolval:
				v = boolSetting(x.Boolval.Boolval)
			}
		}
		name := d.Defname
		if session {
			name = "default_" + name
		}
		if err := s.setTxCharacteristic(name, v); err != nil {
			return err
		}
	}
	return nil
}

// setTxCharacteristic sets transaction_isolation / _read_only /
// _deferrable of the open block, or their default_ forms.
func (s *session) setTxCharacteristic(name, v string) error {
	d := settings.Lookup(name)
	if d == nil {
		return settings.Unknown(name)
	}
	if d.Check != nil {
		nv, err := d.Check(v, s.settings.Value(d.Name))
		if err != nil {
			return err
		}
		v = nv
	}
	if strings.HasPrefix(d.Name, "default_") {
		s.settings.Put(d.Name, v)
		if s.tx == nil {
			s.syncTxSettings()
		}
		return nil
	}
	if s.tx == nil {
		// Outside a block the value lasts for no statement (PostgreSQL's
		// implicit transaction ends at once); the caller warned.
		return nil
	}
	switch d.Name {
	case "transaction_isolation":
		if s.tx.queried && v != s.tx.isolation {
			return pgerr.New(pgerr.ActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
		}
		s.tx.isolation = v
	case "transaction_read_only":
		if s.tx.queried && v == "off" && s.tx.readOnly {
			return pgerr.New(pgerr.ActiveSQLTransaction, "transaction read-write mode must be set before any query")
		}
		s.tx.readOnly = v == "on"
	case "transaction_deferrable":
		s.tx.deferrable = v == "on"
	}
	s.syncTxSettings()
	return nil
}

// findSavepoint returns the index of the newest savepoint named name, or
// -1.
func (tx *txBlock) findSavepoint(name string) int {
	for i := len(tx.savepoints) - 1; i >= 0; i-- {
		if tx.savepoints[i].name == name {
			return i
		}
	}
	return -1
}

func noSavepoint(name string) error {
	return pgerr.New(pgerr.InvalidSavepointSpecification, "savepoint \"%s\" does not exist", name)
}

func copyStrings(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
