package translate

import (
	"context"
	"fmt"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/sequence"
)

// SELECT ... FOR UPDATE / FOR NO KEY UPDATE / FOR SHARE / FOR KEY SHARE.
//
// icegate has no row locks: writers commit optimistically. What a lock
// promises a transaction block, that the rows it read stay as they were
// until it ends, is kept the optimistic way: the block's COMMIT validates
// that no snapshot committed since the block read a locked table removed
// or deleted from the data files it read then (a concurrent UPDATE, DELETE
// or MERGE of them), and fails with 40001 otherwise, as a conflict of the
// block's own writes does. Rows other sessions add are no conflict. The
// data files stand for the rows: a concurrent change of other rows of the
// same file conflicts too. Nobody waits, so NOWAIT and SKIP LOCKED change
// nothing. Outside a block the lock would end with the statement: it is a
// plain SELECT.

// lockRows records the tables a locking SELECT reads in the open block
// (txTable.locked), with the data files they had when the block first read
// them. PostgreSQL's checks of the clause are bind's (checkLocking).
func (s *session) lockRows(ctx context.Context, sel *pg.SelectStmt) error {
	what := bind.LockingStrength(sel)
	if what == "" {
		return nil
	}
	if err := s.readOnlyError("SELECT " + what); err != nil {
		return err
	}
	if s.tx == nil {
		return nil
	}
	mc, ok := s.writableCatalog()
	if !ok {
		return nil
	}
	names := bind.LockableNames(sel.FromClause)
	targets := map[string]*pg.RangeVar{}
	for _, n := range sel.LockingClause {
		rels := n.GetLockingClause().GetLockedRels()
		if len(rels) == 0 {
			targets = names
			break
		}
		for _, r := range rels {
			if rv := r.GetRangeVar(); rv != nil {
				targets[rv.Relname] = names[rv.Relname]
			}
		}
	}
	ctes := map[string]bool{}
	for _, c := range sel.GetWithClause().GetCtes() {
		ctes[c.GetCommonTableExpr().GetCtename()] = true
	}
	for _, rv := range targets {
		if rv == nil || rv.Relname == "" || rv.Schemaname == "" && ctes[rv.Relname] {
			continue
		}
		t, err := s.ResolveTable(ctx, parse.TableNameOf(rv))
		if err != nil || t.Metadata == nil || sequence.Is(t) {
			continue // a view, a system table: nothing of the warehouse's to hold
		}
		if err := s.lockTable(ctx, mc, t); err != nil {
			return err
		}
	}
	return nil
}

// lockTable records that the block locked rows of table t (the table as
// the block reads it).
func (s *session) lockTable(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table) error {
	tt := s.tx.tables[pinKey(t.Ident)]
	if tt != nil && (tt.created || tt.locked != nil) {
		return nil // the block's own table, or locked already
	}
	if tt == nil {
		tt = s.txTableOf(mc, t)
	}
	var snap *catalog.Snapshot
	if id := branchHeadID(tt.base, ""); id != nil {
		snap = tt.base.Metadata.SnapshotByID(*id)
	}
	tasks, err := catalog.PlanFiles(ctx, tt.base, snap)
	if err != nil {
		return fmt.Errorf("lock rows of %s: %w", t.Ident.Name, err)
	}
	tt.locked = make([]string, 0, len(tasks))
	for _, task := range tasks {
		tt.locked = append(tt.locked, task.File.Path)
	}
	return nil
}

// validateLocks checks, before COMMIT applies anything, the tables whose
// rows the block locked and did not write: the data files it read must be
// unchanged since (those it wrote are checked by their commit,
// commitTables).
func (s *session) validateLocks(ctx context.Context) error {
	for _, key := range s.tx.tableOrder {
		tt := s.tx.tables[key]
		if tt.locked == nil || tt.created || len(tt.writes) > 0 {
			continue
		}
		cur, err := tt.mc.LoadTable(ctx, tt.id)
		if err != nil {
			return catalogError(err, kindTable, tt.id.Name)
		}
		if err := catalog.ValidateChange(ctx, cur, tt.lockChange()); err != nil {
			return catalogError(err, kindTable, tt.id.Name)
		}
	}
	return nil
}

// lockChange is the change validating a locked table: no files of its
// own, the files read as the ones it depends on.
func (t *txTable) lockChange() *catalog.Change {
	return &catalog.Change{ReferencedDataFiles: t.locked, BaseSnapshotID: branchHeadID(t.base, ""), Isolation: catalog.SnapshotIsolation}
}
