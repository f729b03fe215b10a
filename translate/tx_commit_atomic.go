package translate

import (
	"context"
	"errors"
	"strings"

	"github.com/icegate/icegate/catalog"
)

// commitTablesAtomically commits, in one atomic commit of the catalog, the
// block's changes to the tables it wrote or altered, when there are two or
// more of them and their catalog can commit several tables at once (a
// REST catalog, the SQL catalog): then a block over several tables
// commits all or nothing, also when the gateway dies during COMMIT.
// Tables the block created are created in the same commit; tables it
// dropped are left to commitTables, which drops them after the others. It
// returns the error of a failed commit, after
// rolling back the block's writes to every table of it; nil when it
// committed them, or when the catalog or the block does not call for it.
func (s *session) commitTablesAtomically(ctx context.Context) error {
	tx := s.tx
	var group []*txTable
	var mtc catalog.MultiTableCommitter
	for _, key := range tx.tableOrder {
		tt := tx.tables[key]
		if (len(tt.writes) == 0 && !tt.created) || tt.view() == nil {
			continue
		}
		m, ok := catalog.AsMultiTableCommitter(tt.mc)
		if !ok || (mtc != nil && m != mtc) {
			return nil
		}
		mtc = m
		group = append(group, tt)
	}
	if len(group) < 2 {
		return nil
	}
	parts := make([]catalog.TableChange, len(group))
	combined := make([]*catalog.Change, len(group))
	changes := make([][]*catalog.Change, len(group))
	for i, tt := range group {
		if tt.created {
			parts[i] = catalog.TableChange{ID: tt.id, First: &catalog.TableCommit{ID: tt.id, Create: tt.view().Metadata}}
			continue
		}
		if tt.schemaChanged() {
			reqs, updates := tt.schemaCommit()
			parts[i] = catalog.TableChange{ID: tt.id, First: &catalog.TableCommit{ID: tt.id, Requirements: reqs, Updates: updates}}
			continue
		}
		changes[i], combined[i] = tt.combinedChange()
		parts[i] = catalog.TableChange{ID: tt.id, Change: combined[i]}
	}
	err := catalog.CommitChanges(ctx, mtc, parts)
	if errors.Is(err, catalog.ErrUnsupported) {
		// A REST catalog whose server does not commit several tables at
		// once: nothing was committed; commitTables goes table by table.
		return nil
	}
	for i, tt := range group {
		switch {
		case err != nil:
			tt.forgetOrRollback(err)
			tt.discardCreated() // a no-op once forgotten
		case tt.created:
			tt.writes, tt.created = nil, false // published
		case combined[i] != nil:
			tt.discardStaged()
			removeDropped(ctx, tt.mc, tt.base, changes[i], combined[i])
		default:
			tt.writes = nil
		}
	}
	if err != nil {
		names := make([]string, len(group))
		for i, tt := range group {
			names[i] = tt.id.Name
		}
		return catalogError(err, kindTable, strings.Join(names, "\", \""))
	}
	return nil
}

// forgetOrRollback ends the block's writes to the table after its commit
// failed with err: they are rolled back (their files removed), unless the
// commit's outcome is unknown, when the table may now reference them.
func (t *txTable) forgetOrRollback(err error) {
	if errors.Is(err, catalog.ErrCommitStateUnknown) {
		// Nothing is removed: a table it created may exist now.
		t.writes, t.created = nil, false
		return
	}
	t.rollback(0)
}
