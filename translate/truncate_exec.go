package translate

import (
	"context"
	"fmt"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/seqexec"
)

// prepareTruncate makes TRUNCATE [TABLE] t [, ...]: one change per table
// that removes every data and delete file of its current snapshot (a
// "delete" snapshot; older snapshots still read the rows). Inside a block
// it waits for COMMIT like the other data changes. A data file another
// session appends meanwhile makes it fail with 40001 (serializable), so it
// never leaves rows behind unnoticed.
func (s *session) prepareTruncate(t *pg.TruncateStmt) (Statement, error) {
	// RESTART IDENTITY restarts the sequences the tables' columns own
	// (package seqexec); CASCADE has nothing to follow (no foreign keys).
	names := make([]parse.TableName, len(t.Relations))
	for i, n := range t.Relations {
		rv := n.GetRangeVar()
		if rv == nil {
			return nil, pgerr.NotYet("TRUNCATE of this object")
		}
		names[i] = parse.TableNameOf(rv)
	}
	return &truncateStatement{sess: s, names: names, restart: t.RestartSeqs}, nil
}

type truncateStatement struct {
	sess    *session
	names   []parse.TableName
	restart bool
}

func (t *truncateStatement) ParamTypes() []uint32      { return nil }
func (t *truncateStatement) Columns() []pgtypes.Column { return nil }

func (t *truncateStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := t.sess
	mc, err := s.mutableCatalog("TRUNCATE TABLE")
	if err != nil {
		return nil, err
	}
	for _, tn := range t.names {
		tbl, err := s.ResolveTable(ctx, tn)
		if err != nil {
			return nil, err
		}
		if err := s.CheckTablePrivilege(ctx, "", tbl, roles.Truncate); err != nil { // privilege.go
			return nil, err
		}
		if err := s.truncate(ctx, mc, tbl); err != nil {
			return nil, err
		}
		if t.restart {
			if err := seqexec.With(s).RestartOwned(ctx, tbl); err != nil {
				return nil, err
			}
		}
	}
	s.markQueried()
	return &emptyRows{tag: "TRUNCATE TABLE"}, nil
}

// truncate removes every file of tbl's current snapshot.
func (s *session) truncate(ctx context.Context, mc catalog.MutableCatalog, tbl *catalog.Table) error {
	snap := tbl.Metadata.CurrentSnapshot()
	if snap == nil {
		return nil
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, snap)
	if err != nil {
		return catalogError(err, kindTable, tbl.Ident.Name)
	}
	id := snap.SnapshotID
	ch := &catalog.Change{BaseSnapshotID: &id, Operation: "delete", Isolation: catalog.Serializable}
	seen := map[string]bool{}
	for _, task := range tasks {
		ch.RemovedDataFiles = append(ch.RemovedDataFiles, task.File)
		ch.ReferencedDataFiles = append(ch.ReferencedDataFiles, task.File.Path)
		for _, d := range task.Deletes {
			key := d.Path
			if d.ContentOffset != nil { // a DV: one blob of a Puffin file
				key = fmt.Sprintf("%s@%d", d.Path, *d.ContentOffset)
			}
			if !seen[key] {
				seen[key] = true
				ch.RemovedDeleteFiles = append(ch.RemovedDeleteFiles, d)
			}
		}
	}
	if len(ch.RemovedDataFiles) == 0 {
		return nil
	}
	if err := s.commitChange(ctx, mc, tbl, ch, func() {}); err != nil {
		return err
	}
	return nil
}
