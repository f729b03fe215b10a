package catalog

import (
	"context"

	"github.com/icegate/icegate/internal/audit"
)

// noteCommit tells the audit log what a successful commit of table id
// made current, when ctx carries the log's collector (audit.WithCommits).
// Every catalog calls it where its commit succeeds, so a statement's
// record names every table it committed whatever path it took: DML,
// multi-table blocks, schema changes, procedures, COPY.
func noteCommit(ctx context.Context, id Identifier, metadataLocation string, meta *TableMetadata, updates []Update) {
	if !audit.Recording(ctx) {
		return
	}
	audit.RecordCommit(ctx, audit.Commit{
		Table:            qualified(id.Namespace, id.Name),
		SnapshotID:       committedSnapshot(meta, updates),
		MetadataLocation: metadataLocation,
	})
}

// NoteCommit is noteCommit for catalogs outside this package; meta may
// be nil (a REST multi-table commit answers without metadata) and
// metadataLocation "" when unknown.
func NoteCommit(ctx context.Context, id Identifier, metadataLocation string, meta *TableMetadata, updates []Update) {
	noteCommit(ctx, id, metadataLocation, meta, updates)
}

// committedSnapshot is the snapshot a commit produced: the last one its
// updates add (on whatever branch), else the table's current snapshot
// after it (a schema change, a rollback), else 0.
func committedSnapshot(meta *TableMetadata, updates []Update) int64 {
	for i := len(updates) - 1; i >= 0; i-- {
		if a, ok := updates[i].(AddSnapshot); ok && a.Snapshot != nil {
			return a.Snapshot.SnapshotID
		}
	}
	if meta != nil {
		if cur := meta.CurrentSnapshot(); cur != nil {
			return cur.SnapshotID
		}
	}
	return 0
}
