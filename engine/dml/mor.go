package dml

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/engine/write"
)

// mergeOnRead decides how the rows removed from task's data file are
// written: the whole file removed when no row is left, a copy-on-write
// rewrite when more than the threshold's fraction of its rows is deleted,
// else the returned deletes (format v2: the new positions, in a new
// position delete file; v3: one deletion vector holding the file's old
// and new positions, replacing its old vector and file-scoped position
// delete files).
func (w *Writer) mergeOnRead(ctx context.Context, task *catalog.FileScanTask, ch *catalog.Change) (*write.FileDeletes, error) {
	removed := w.removed[task.File.Path]
	existing, err := scan.DeletedPositions(ctx, w.spec.Table, *task)
	if err != nil {
		return nil, fmt.Errorf("read deletes of %s: %w", task.File.Path, err)
	}
	old := roaring64.New()
	for _, p := range existing {
		if p >= 0 && p < task.File.RecordCount {
			old.Add(uint64(p))
		}
	}
	all := roaring64.Or(old, removed)
	rows := task.File.RecordCount
	switch deleted := int64(all.GetCardinality()); {
	case deleted >= rows:
		w.removeFile(task, ch)
		return nil, nil
	case float64(deleted) > w.threshold*float64(rows):
		return nil, w.rewrite(ctx, task, ch)
	}
	if w.spec.Table.Metadata.FormatVersion >= 3 {
		ch.RemovedDeleteFiles = append(ch.RemovedDeleteFiles, w.fileScopedDeletes(task)...)
		return &write.FileDeletes{File: task.File, Positions: positions(all)}, nil
	}
	added := roaring64.AndNot(removed, old)
	if added.IsEmpty() {
		return nil, nil
	}
	return &write.FileDeletes{File: task.File, Positions: positions(added)}, nil
}

// positions lists a bitmap's positions, ascending.
func positions(bm *roaring64.Bitmap) []int64 {
	out := make([]int64, 0, bm.GetCardinality())
	it := bm.Iterator()
	for it.HasNext() {
		out = append(out, int64(it.Next()))
	}
	return out
}
