package translate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Schema changes inside a transaction block.
//
// Inside a block, CREATE TABLE, ALTER TABLE (columns, types, properties,
// partitioning, sort order, branches and tags), COMMENT ON and DROP TABLE
// are staged as the block's data changes are (tx_writes.go): each is an
// entry of the table's txTable, in order with its INSERTs, UPDATEs and
// DELETEs, and the table as the block sees it after it replaces the
// table's pin, so the block's later statements see it (LoadTable and
// ListTables of the session's catalog read through the block, tx_catalog.go)
// while other sessions see nothing until COMMIT.
//
//   - CREATE TABLE stages the table with the catalog (catalog.TableStager):
//     its name is reserved and its files are written in its directory, but
//     no reader sees it. COMMIT publishes it with the metadata the block
//     built (its later ALTERs and its rows' snapshots) in one step;
//     ROLLBACK removes its directory.
//   - ALTER TABLE and COMMENT ON apply their updates to the block's view of
//     the table. COMMIT replays the table's updates (schema changes and the
//     staged snapshots of its data changes, in order) in one CommitTable
//     that requires the table to be as the block first read it: when
//     another session committed to it since, COMMIT fails with 40001.
//   - DROP TABLE hides the table from the block; COMMIT drops it.
//     DROP TABLE ... PURGE deletes files no ROLLBACK could bring back: it
//     cannot run inside a block (25001), as CALL cannot.
//
// COMMIT applies the tables in the order the block first changed them, one
// catalog commit each: the filesystem catalog has no commit that spans
// tables. Each table's commit is atomic. When one fails, the tables
// committed before it stay committed, and the failed one and those after
// it are rolled back; COMMIT reports the error. A block that changes one
// table is therefore all or nothing.
//
// CREATE TABLE ... AS is CREATE TABLE then a data change. Views are staged
// too (viewexec.Staged). CREATE SCHEMA and ALTER TABLE ... RENAME commit when
// they run (with a NOTICE) as before: what the block staged for a table
// makes RENAME of it fail (0A000), and DROP SCHEMA inside a block is
// refused (0A000). CREATE TABLE of a name whose existing table the block
// dropped commits that DROP first (the old table holds the name in the
// catalog until then), with the same NOTICE.

// txTableOf returns the block's entry for table t, making it (with t as its
// base) on first use. mc is the session's write catalog: COMMIT goes to the
// catalog underneath it.
func (s *session) txTableOf(mc catalog.MutableCatalog, t *catalog.Table) *txTable {
	key := pinKey(t.Ident)
	tt := s.tx.tables[key]
	if tt == nil {
		tt = &txTable{mc: underWriteCatalog(mc), id: t.Ident, base: t}
		if s.tx.tables == nil {
			s.tx.tables = map[string]*txTable{}
		}
		s.tx.tables[key] = tt
		s.tx.tableOrder = append(s.tx.tableOrder, key)
	}
	return tt
}

// forgetTxTable removes the block's entry for a table.
func (s *session) forgetTxTable(key string) {
	delete(s.tx.tables, key)
	s.tx.tableOrder = slices.DeleteFunc(s.tx.tableOrder, func(k string) bool { return k == key })
	delete(s.pins, key)
}

// blockTable is the block's view of table id when the block changed its
// schema: (view, true), view nil when the block dropped it; (nil, false)
// when the block did not touch its schema.
func (s *session) blockTable(id catalog.Identifier) (*catalog.Table, bool) {
	if s.tx == nil {
		return nil, false
	}
	tt := s.tx.tables[pinKey(id)]
	if tt == nil || !tt.schemaChanged() {
		return nil, false
	}
	return tt.view(), true
}

// notFoundInBlock is the catalog's error for a table the block dropped.
func notFoundInBlock(id catalog.Identifier) error {
	return fmt.Errorf("load table %s: dropped in this transaction block: %w", id.Name, catalog.ErrNotFound)
}

// blockTables adjusts a listing of namespace ns to the block: the tables
// it created are added, those it dropped removed.
func (s *session) blockTables(ns []string, ids []catalog.Identifier) []catalog.Identifier {
	if s.tx == nil || len(s.tx.tables) == 0 {
		return ids
	}
	var out []catalog.Identifier
	listed := map[string]bool{}
	for _, id := range ids {
		listed[pinKey(id)] = true
		if v, ok := s.blockTable(id); ok && v == nil {
			continue
		}
		out = append(out, id)
	}
	for _, key := range s.tx.tableOrder {
		tt := s.tx.tables[key]
		if !tt.created || listed[key] || !slices.Equal(tt.id.Namespace, ns) || tt.view() == nil {
			continue
		}
		out = append(out, tt.id)
	}
	return out
}

// stageCreateTable is CREATE TABLE inside a block.
func (s *session) stageCreateTable(ctx context.Context, w *writeCatalog, st catalog.TableStager, id catalog.Identifier, spec catalog.TableSpec) (*catalog.Table, error) {
	key := pinKey(id)
	if v, ok := s.blockTable(id); ok {
		if v != nil {
			return nil, fmt.Errorf("create table %s: %w", id.Name, catalog.ErrAlreadyExists)
		}
		// The block dropped the table (DROP TABLE IF EXISTS t; CREATE
		// TABLE t). One the block created goes now; an existing one holds
		// the name in the catalog, so its DROP commits now (the NOTICE
		// and ROLLBACK's WARNING say so).
		tt := s.tx.tables[key]
		tt.rollback(0)
		if tt.created {
			tt.discardCreated()
		} else {
			if err := w.MutableCatalog.DropTable(ctx, id, false); err != nil && !errors.Is(err, catalog.ErrNotFound) {
				return nil, err
			}
			s.committedNow()
		}
		s.forgetTxTable(key)
	}
	t, err := st.StageTable(ctx, id, spec)
	if err != nil {
		return nil, err
	}
	tt := &txTable{mc: w.MutableCatalog, id: t.Ident, base: t, created: true, stager: st}
	if s.tx.tables == nil {
		s.tx.tables = map[string]*txTable{}
	}
	s.tx.tables[key] = tt
	s.tx.tableOrder = append(s.tx.tableOrder, key)
	s.pin(key, t)
	s.tx.queried = true
	return t, nil
}

// stageCommitTable is a schema change (CommitTable) inside a block: its
// requirements are checked and its updates applied against the block's
// view of the table.
func (s *session) stageCommitTable(ctx context.Context, w *writeCatalog, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*catalog.Table, error) {
	view, ok := s.blockTable(id)
	if !ok {
		view = s.pins[pinKey(id)]
		if tt := s.tx.tables[pinKey(id)]; tt != nil {
			view = tt.view()
		}
		if view == nil {
			t, err := w.MutableCatalog.LoadTable(ctx, id)
			if err != nil {
				return nil, err
			}
			view = t
		}
	}
	if view == nil {
		return nil, notFoundInBlock(id)
	}
	if err := catalog.CheckRequirements(view.Metadata, reqs); err != nil {
		return nil, fmt.Errorf("commit table %s: %w", id.Name, err)
	}
	b := catalog.NewMetadataBuilderFrom(view.Metadata, view.MetadataLocation)
	if err := b.Apply(updates...); err != nil {
		return nil, fmt.Errorf("commit table %s: %w", id.Name, err)
	}
	meta, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", id.Name, err)
	}
	next := &catalog.Table{Ident: view.Ident, MetadataLocation: view.MetadataLocation, Metadata: meta, IO: view.IO, Uncommitted: view.Uncommitted}
	tt := s.txTableOf(w, view)
	tt.writes = append(tt.writes, txWrite{updates: slices.Clone(updates), table: next})
	s.pin(pinKey(id), next)
	s.tx.queried = true
	return next, nil
}

// stageDropTable is DROP TABLE inside a block.
func (s *session) stageDropTable(ctx context.Context, w *writeCatalog, id catalog.Identifier, purge bool) error {
	view, ok := s.blockTable(id)
	key := pinKey(id)
	if ok && view == nil {
		return notFoundInBlock(id)
	}
	tt := s.tx.tables[key]
	if purge && (tt == nil || !tt.created) {
		return pgerr.New(pgerr.ActiveSQLTransaction, "DROP TABLE ... PURGE cannot run inside a transaction block")
	}
	if tt == nil {
		t := s.pins[key]
		if t == nil {
			var err error
			if t, err = w.MutableCatalog.LoadTable(ctx, id); err != nil {
				return err
			}
		}
		tt = s.txTableOf(w, t)
	}
	tt.writes = append(tt.writes, txWrite{drop: true})
	delete(s.pins, key)
	s.tx.queried = true
	return nil
}

// pin makes t the block's view of the table.
func (s *session) pin(key string, t *catalog.Table) {
	if s.pins == nil {
		s.pins = map[string]*catalog.Table{}
	}
	s.pins[key] = t
}

// discardCreated removes a table the block created (ROLLBACK, or a failed
// COMMIT).
func (t *txTable) discardCreated() {
	if !t.created || t.stager == nil {
		return
	}
	if err := t.stager.DiscardTable(context.Background(), t.id); err != nil {
		slog.Warn("remove the table a rolled back transaction created", "table", t.id.Name, "error", err)
	}
	t.created = false
}

// commitSchema commits a table whose schema the block changed: a created
// table is published with its final metadata; an existing one gets every
// update of the block in one commit that requires it unchanged since the
// block read it; a dropped one is dropped.
func (t *txTable) commitSchema(ctx context.Context) error {
	view := t.view()
	switch {
	case view == nil && t.created:
		t.rollback(0)
		t.discardCreated()
		return nil
	case view == nil:
		// Rows staged before the drop go with the table.
		t.rollback(0)
		if err := t.mc.DropTable(ctx, t.id, false); err != nil && !errors.Is(err, catalog.ErrNotFound) {
			return catalogError(err, kindTable, t.id.Name)
		}
		return nil
	case t.created:
		if _, err := t.stager.PublishTable(ctx, t.id, view.Metadata); err != nil {
			t.rollback(0)
			t.discardCreated()
			return catalogError(err, kindTable, t.id.Name)
		}
		t.writes = nil
		return nil
	}
	reqs, updates := t.schemaCommit()
	if _, err := t.mc.CommitTable(ctx, t.id, reqs, updates); err != nil {
		t.forgetOrRollback(err)
		return catalogError(err, kindTable, t.id.Name)
	}
	t.writes = nil
	return nil
}

// schemaCommit is the commit of an existing table whose schema the block
// changed: every update of the block, requiring the table unchanged since
// the block read it.
func (t *txTable) schemaCommit() ([]catalog.Requirement, []catalog.Update) {
	base := t.base.Metadata
	reqs := []catalog.Requirement{
		catalog.AssertTableUUID{UUID: base.TableUUID},
		catalog.AssertCurrentSchemaID{SchemaID: base.CurrentSchemaID},
		catalog.AssertLastAssignedFieldID{LastAssignedFieldID: base.LastColumnID},
		catalog.AssertDefaultSpecID{SpecID: base.DefaultSpecID},
		catalog.AssertDefaultSortOrderID{SortOrderID: base.DefaultSortOrderID},
	}
	for name, ref := range base.Refs {
		if ref.Type == "" || ref.Type == "branch" {
			reqs = append(reqs, catalog.AssertRefSnapshotID{Ref: name, SnapshotID: &ref.SnapshotID})
		}
	}
	if _, ok := base.Refs["main"]; !ok {
		reqs = append(reqs, catalog.AssertRefSnapshotID{Ref: "main"})
	}
	var updates []catalog.Update
	for _, w := range t.writes {
		if w.staged != nil {
			updates = append(updates, w.staged.Updates...)
		} else {
			updates = append(updates, w.updates...)
		}
	}
	return reqs, updates
}
