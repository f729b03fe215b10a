package translate

import (
	"context"
	"errors"
	"log/slog"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/sequence"
)

// Writes inside a transaction block.
//
// Outside a block every write statement commits its own snapshot
// (commitChange). Inside one, a write stages its change instead: its data
// and delete files are written, and a snapshot is staged on top of the
// table as the block sees it (catalog.StageChange) without being
// committed. The block's later statements read that staged table (it
// replaces the table's pin, tx_catalog.go), so they see their own writes.
// COMMIT combines each table's changes into one change (catalog.Combine)
// and commits it as one snapshot, validated against what other sessions
// committed since the block first read the table; ROLLBACK (and ROLLBACK
// TO a savepoint) removes the files of the changes it drops. A block that
// writes several tables commits them one after another: the filesystem
// catalog has no multi-table commit.

// txTable is one table a block has written.
type txTable struct {
	mc catalog.MutableCatalog
	id catalog.Identifier
	// base is the table as the block read it before its first write (for
	// a table the block created: the staged new table, tx_ddl.go).
	base *catalog.Table
	// writes are the staged changes, data and schema, oldest first.
	writes []txWrite
	// created: the block created the table (staged by stager until
	// COMMIT).
	created bool
	stager  catalog.TableStager
	// locked are the data files of base when a SELECT ... FOR UPDATE of
	// the block read the table (nil: none did); COMMIT fails when one was
	// changed since (for_update.go).
	locked []string
}

// txWrite is one staged write statement: a data change (change, staged,
// abort), or a schema change (updates, table: the table after them), or a
// DROP TABLE (drop).
type txWrite struct {
	change *catalog.Change
	staged *catalog.StagedChange
	// abort removes the data and delete files the statement wrote.
	abort func()

	updates []catalog.Update
	table   *catalog.Table
	drop    bool
}

// view is the table as the block sees it now: nil once it dropped it.
func (t *txTable) view() *catalog.Table {
	if n := len(t.writes); n > 0 {
		w := t.writes[n-1]
		switch {
		case w.drop:
			return nil
		case w.staged != nil:
			return w.staged.Table
		}
		return w.table
	}
	return t.base
}

// schemaChanged reports whether the block created, changed or dropped the
// table (rather than only writing rows).
func (t *txTable) schemaChanged() bool {
	if t.created {
		return true
	}
	for _, w := range t.writes {
		if w.staged == nil {
			return true
		}
	}
	return false
}

// commitChange makes a write statement's change durable: outside a block
// it commits it now; inside one it stages it until COMMIT. abort removes
// the statement's files; it runs when the change fails (or, staged, when
// the block rolls it back).
func (s *session) commitChange(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, ch *catalog.Change, abort func()) error {
	t, err := s.routeWrite(ctx, mc, t, ch)
	if err != nil {
		abort()
		return err
	}
	s.openImplicitBlock()
	if s.tx == nil {
		if err := commitNow(ctx, mc, t.Ident, ch); err != nil {
			if !errors.Is(err, catalog.ErrCommitStateUnknown) {
				abort() // else the table may reference the files now
			}
			return catalogError(err, kindTable, t.Ident.Name)
		}
		return nil
	}
	key := pinKey(t.Ident)
	tt := s.txTableOf(mc, t)
	view := tt.view()
	if view == nil {
		abort()
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", t.Ident.Name)
	}
	if ch.Branch != "" {
		if _, ok := view.Metadata.Refs[ch.Branch]; !ok {
			view = t // the view with the branch routeWrite just created
			if len(tt.writes) == 0 {
				tt.base = t
			}
		}
	}
	out, err := mc.NewOutput(view)
	if err != nil {
		abort()
		return catalogError(err, kindTable, t.Ident.Name)
	}
	staged, err := catalog.StageChange(ctx, out, view, ch)
	if err != nil {
		abort()
		return catalogError(err, kindTable, t.Ident.Name)
	}
	tt.writes = append(tt.writes, txWrite{change: ch, staged: staged, abort: abort})
	if s.pins == nil {
		s.pins = map[string]*catalog.Table{}
	}
	s.pins[key] = staged.Table
	s.tx.queried = true
	return nil
}

// commitNow commits ch. catalog.CommitChange retries lost races per the
// table's commit.retry.* properties; many writers at once can exhaust
// them while the change is still valid, so it tries a few more rounds
// before giving up. A change another writer made invalid fails at once.
func commitNow(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier, ch *catalog.Change) error {
	_, err := catalog.CommitChange(ctx, mc, id, ch)
	for round := 0; round < extraCommitRounds && retryable(err) && ctx.Err() == nil; round++ {
		_, err = catalog.CommitChange(ctx, mc, id, ch)
	}
	return err
}

func retryable(err error) bool {
	return errors.Is(err, catalog.ErrCommitConflict) && !errors.Is(err, catalog.ErrValidation)
}

// extraCommitRounds is how many times a write calls catalog.CommitChange
// again after it gave up on a lost race.
const extraCommitRounds = 8

// pendingWrites reports whether the block has staged writes to the table.
func (s *session) pendingWrites(id catalog.Identifier) bool {
	if s.tx == nil {
		return false
	}
	tt := s.tx.tables[pinKey(id)]
	return tt != nil && len(tt.writes) > 0
}

// commitWrites commits the block's staged writes, one snapshot per table.
// On the first failure the changes not yet committed are rolled back and
// the error returned (tables committed before it stay committed).
func (s *session) commitWrites(ctx context.Context) error {
	tx := s.tx
	defer func() { tx.tables, tx.tableOrder, tx.viewOps = nil, nil, nil }()
	failed := s.commitTables(ctx)
	if failed == nil && len(tx.viewOps) > 0 {
		if mc, ok := s.writableCatalog(); ok {
			failed = tx.viewOps.Commit(ctx, underWriteCatalog(mc))
		}
	}
	if failed == nil {
		failed = s.commitRoles(ctx) // roles_tx.go
	}
	tx.roles = nil
	return failed
}

// commitTables commits the block's tables, one after another.
func (s *session) commitTables(ctx context.Context) error {
	tx := s.tx
	failed := s.validateLocks(ctx) // for_update.go
	if failed == nil {
		failed = s.commitTablesAtomically(ctx) // tx_commit_atomic.go
	}
	for _, key := range tx.tableOrder {
		tt := tx.tables[key]
		if len(tt.writes) == 0 && !tt.created {
			continue
		}
		if failed != nil {
			tt.rollback(0)
			tt.discardCreated()
			continue
		}
		if tt.schemaChanged() {
			if err := tt.commitSchema(ctx); err != nil {
				failed = err
			}
			continue
		}
		if len(tt.writes) == 1 {
			// One statement: its staged snapshot commits as it is when
			// nothing was committed since the block read the table.
			w := tt.writes[0]
			_, err := tt.mc.CommitTable(ctx, tt.id, w.staged.Requirements, w.staged.Updates)
			if err == nil {
				tt.writes = nil
				continue
			}
			if errors.Is(err, catalog.ErrCommitStateUnknown) {
				failed = catalogError(err, kindTable, tt.id.Name)
				tt.forgetOrRollback(err)
				continue
			}
		}
		changes, combined := tt.combinedChange()
		err := commitNow(ctx, tt.mc, tt.id, combined)
		if err != nil {
			failed = catalogError(err, kindTable, tt.id.Name)
			tt.forgetOrRollback(err)
			continue
		}
		tt.discardStaged()
		removeDropped(ctx, tt.mc, tt.base, changes, combined)
	}
	return failed
}

// combinedChange is the block's data changes to the table, one by
// statement, and the one change that commits them all.
func (t *txTable) combinedChange() (changes []*catalog.Change, combined *catalog.Change) {
	changes = make([]*catalog.Change, len(t.writes))
	for i, w := range t.writes {
		changes[i] = w.change
	}
	combined = catalog.Combine(changes)
	// The block's changes build on the table as it first read it: what
	// was committed since then is validated, nothing before. (A change
	// that only appends carries no base of its own, so the first
	// change's base cannot stand for the block's.)
	combined.BaseSnapshotID = branchHeadID(t.base, combined.Branch)
	if t.locked != nil && combined.Branch == "" {
		combined.ReferencedDataFiles = append(combined.ReferencedDataFiles, t.locked...)
	}
	return changes, combined
}

// branchHeadID is the id of the head of branch ("" is main) in t, nil when
// the branch does not exist.
func branchHeadID(t *catalog.Table, branch string) *int64 {
	if branch == "" {
		branch = "main"
	}
	ref, ok := t.Metadata.Refs[branch]
	if !ok {
		return nil
	}
	id := ref.SnapshotID
	return &id
}

// rollbackWrites drops every staged write of the block.
func (s *session) rollbackWrites() {
	tx := s.tx
	if tx == nil {
		return
	}
	for _, key := range tx.tableOrder {
		tx.tables[key].rollback(0)
		tx.tables[key].discardCreated()
	}
	tx.tables, tx.tableOrder = nil, nil
}

// writeMarks records how many writes each table has, for a savepoint.
func (s *session) writeMarks() map[string]int {
	if s.tx == nil || len(s.tx.tables) == 0 {
		return nil
	}
	m := make(map[string]int, len(s.tx.tables))
	for k, tt := range s.tx.tables {
		m[k] = len(tt.writes)
	}
	return m
}

// rollbackWritesTo drops the writes made after marks (ROLLBACK TO
// SAVEPOINT) and points the pins back at what the block then saw.
func (s *session) rollbackWritesTo(marks map[string]int) {
	if s.tx == nil {
		return
	}
	for key, tt := range s.tx.tables {
		keep, before := marks[key]
		if !before && tt.created {
			// Created after the savepoint: it goes altogether.
			tt.rollback(0)
			tt.discardCreated()
			s.forgetTxTable(key)
			continue
		}
		if len(tt.writes) <= keep {
			continue
		}
		state := sequenceState(tt.view())
		tt.rollback(keep)
		if state != "" && sequenceState(tt.view()) != state {
			s.restageSequenceState(tt, state)
		}
		if s.pins != nil {
			if v := tt.view(); v != nil {
				s.pins[key] = v
			} else {
				delete(s.pins, key)
			}
		}
	}
}

// sequenceState is the state property of t when it is a sequence ("" for
// none).
func sequenceState(t *catalog.Table) string {
	if t == nil || !sequence.Is(t) {
		return ""
	}
	return t.Metadata.Properties[sequence.StateProp]
}

// restageSequenceState gives a sequence the block created back the state
// ROLLBACK TO SAVEPOINT took from it: values handed out are not handed out
// again, as in PostgreSQL, where nextval is never undone.
func (s *session) restageSequenceState(tt *txTable, state string) {
	mc, err := s.mutableCatalog("ROLLBACK TO SAVEPOINT")
	if err == nil {
		_, err = mc.CommitTable(context.Background(), tt.id, nil,
			[]catalog.Update{catalog.SetProperties{Updates: map[string]string{sequence.StateProp: state}}})
	}
	if err != nil {
		slog.Warn("keep a sequence's state across ROLLBACK TO SAVEPOINT", "sequence", tt.id.Name, "error", err)
	}
	if v := tt.view(); v != nil {
		s.seq.Forget(v)
	}
}

// rollback drops the writes from index keep on: their files and staged
// metadata are removed.
func (t *txTable) rollback(keep int) {
	for i := len(t.writes) - 1; i >= keep; i-- {
		w := t.writes[i]
		if w.abort != nil {
			w.abort()
		}
		if w.staged != nil {
			w.staged.Discard(context.Background())
		}
	}
	t.writes = t.writes[:keep]
}

// discardStaged removes the staged metadata files once the combined
// change is committed (it wrote its own manifests).
func (t *txTable) discardStaged() {
	for _, w := range t.writes {
		if w.staged != nil {
			w.staged.Discard(context.Background())
		}
	}
	t.writes = nil
}

// removeDropped removes the files a block's statements added that the
// combined change does not (added by one statement, removed by a later
// one): nothing references them.
func removeDropped(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, changes []*catalog.Change, combined *catalog.Change) {
	kept := map[string]bool{}
	for _, f := range combined.AddedDataFiles {
		kept[f.Path] = true
	}
	for _, f := range combined.AddedDeleteFiles {
		kept[f.Path] = true
	}
	var dropped []string
	seen := map[string]bool{}
	for _, ch := range changes {
		for _, list := range [][]*catalog.DataFile{ch.AddedDataFiles, ch.AddedDeleteFiles} {
			for _, f := range list {
				if !kept[f.Path] && !seen[f.Path] {
					seen[f.Path] = true
					dropped = append(dropped, f.Path)
				}
			}
		}
	}
	if len(dropped) == 0 {
		return
	}
	out, err := mc.NewOutput(t)
	if err != nil {
		slog.Warn("remove files a transaction replaced", "table", t.Ident.Name, "error", err)
		return
	}
	for _, p := range dropped {
		if err := out.Remove(context.WithoutCancel(ctx), p); err != nil {
			slog.Warn("remove file a transaction replaced", "file", p, "error", err)
		}
	}
}
