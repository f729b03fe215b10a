package dml

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
)

// rewrite rewrites task's data file copy-on-write: the rows its existing
// deletes leave and this change did not remove go to the data Writer, and
// the change removes the file and its file-scoped deletes.
func (w *Writer) rewrite(ctx context.Context, task *catalog.FileScanTask, ch *catalog.Change) error {
	removed := w.removed[task.File.Path]
	fields := w.spec.Schema.Fields
	ids := make([]int, 0, len(fields)+3)
	for _, f := range fields {
		ids = append(ids, f.ID)
	}
	out := w.data
	if w.lineage != nil {
		ids = append(ids, scan.FieldIDRowID, scan.FieldIDLastUpdatedSeqNum)
		out = w.lineage
	}
	ids = append(ids, scan.FieldIDPos)
	opts := w.spec.Scan
	opts.Shard, opts.Shards = 0, 0
	op := scan.New(engine.ScanSpec{
		Table:    w.spec.Table,
		Tasks:    []catalog.FileScanTask{*task},
		Schema:   w.spec.Schema,
		FieldIDs: ids,
	}, opts)
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return fmt.Errorf("rewrite %s: %w", task.File.Path, err)
	}
	mem := opts.Alloc
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := op.Next()
		if err != nil {
			return fmt.Errorf("rewrite %s: %w", task.File.Path, err)
		}
		if b == nil {
			break
		}
		kept, err := keptRows(mem, b, removed)
		if err != nil {
			return fmt.Errorf("rewrite %s: %w", task.File.Path, err)
		}
		if kept == nil {
			continue
		}
		err = out.Write(kept)
		kept.Release()
		if err != nil {
			return err
		}
	}
	w.removeFile(task, ch)
	return nil
}

// keptRows returns the table columns of b (all but the last, _pos) for the
// rows whose position removed does not hold; nil when there are none.
func keptRows(mem memory.Allocator, b arrow.RecordBatch, removed *roaring64.Bitmap) (arrow.RecordBatch, error) {
	n := int(b.NumCols()) - 1
	pos, ok := b.Column(n).(*array.Int64)
	if !ok {
		return nil, fmt.Errorf("_pos column is %s", b.Column(n).DataType())
	}
	type run struct{ from, to int64 }
	var runs []run
	rows := int64(0)
	for i := 0; i < pos.Len(); {
		if removed.Contains(uint64(pos.Value(i))) {
			i++
			continue
		}
		j := i
		for j < pos.Len() && !removed.Contains(uint64(pos.Value(j))) {
			j++
		}
		runs = append(runs, run{int64(i), int64(j)})
		rows += int64(j - i)
		i = j
	}
	if rows == 0 {
		return nil, nil
	}
	schema := arrow.NewSchema(b.Schema().Fields()[:n], nil)
	cols := make([]arrow.Array, n)
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for c := range n {
		col := b.Column(c)
		if len(runs) == 1 {
			cols[c] = array.NewSlice(col, runs[0].from, runs[0].to)
			continue
		}
		parts := make([]arrow.Array, len(runs))
		for k, r := range runs {
			parts[k] = array.NewSlice(col, r.from, r.to)
		}
		var err error
		cols[c], err = array.Concatenate(parts, mem)
		for _, p := range parts {
			p.Release()
		}
		if err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(schema, cols, rows), nil
}
