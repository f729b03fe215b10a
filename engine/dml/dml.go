package dml

import (
	"context"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/engine/write"
)

// Mode is how removed rows are written.
type Mode int

const (
	CopyOnWrite Mode = iota
	MergeOnRead
)

// Operation is the kind of statement, which picks the table property
// choosing the mode (write.delete.mode, write.update.mode,
// write.merge.mode) and the isolation level
// (write.<op>.isolation-level).
type Operation int

const (
	OpDelete Operation = iota
	OpUpdate
	OpMerge
)

// PropRewriteThreshold is the table property (a fraction between 0 and 1,
// default 0.5) past which a merge-on-read change rewrites a data file
// copy-on-write instead of adding deletes: when the rows deleted from the
// file, before and by this change, exceed that fraction of its rows.
const PropRewriteThreshold = "write.merge-on-read.rewrite-threshold"

// Spec says what a Writer changes.
type Spec struct {
	// Table is the target as the statement read it, and Snapshot the
	// snapshot read (nil: the table had no rows).
	Table    *catalog.Table
	Snapshot *catalog.Snapshot
	// Schema is the table's current schema: batches passed to Insert have
	// its top-level columns, in order, typed as the Writer of package write
	// wants them.
	Schema *catalog.Schema
	// Out creates the new files.
	Out  catalog.OutputIO
	Mode Mode
	// Scan tunes the reads of copy-on-write rewrites and of existing
	// deletes.
	Scan scan.Options
	// Format overrides write.format.default for the data files written
	// ("parquet", "avro"; "" keeps the table's): the write-format option.
	Format string
}

// Writer collects one statement's row-level changes to a table. It is
// used by one goroutine.
type Writer struct {
	ctx  context.Context
	spec Spec
	// threshold is the merge-on-read rewrite threshold.
	threshold float64
	// data receives inserted rows and the kept rows of rewritten files;
	// in format 3 tables the kept rows go to lineage instead, which also
	// writes their _row_id and _last_updated_sequence_number.
	data, lineage *write.Writer

	// tasks are the snapshot's data files by path as manifests write
	// them, planned at the first Delete; resolved indexes them by local
	// path, built on the first path not found as written.
	tasks    map[string]*catalog.FileScanTask
	resolved map[string]*catalog.FileScanTask
	// removed holds, per affected data file, the positions this Writer
	// removed; affected lists those files in the order first touched.
	removed  map[string]*roaring64.Bitmap
	affected []*catalog.FileScanTask

	// deleteFiles are the delete files Finish wrote (for Abort).
	deleteFiles []*catalog.DataFile
	finished    bool
}
