package dml

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
)

// New starts a change of spec.Table.
func New(ctx context.Context, spec Spec) (*Writer, error) {
	if spec.Table == nil || spec.Table.Metadata == nil || spec.Schema == nil || spec.Out == nil {
		return nil, fmt.Errorf("new row-level writer: Table, Schema and Out are required")
	}
	m := spec.Table.Metadata
	w := &Writer{ctx: ctx, spec: spec}
	if spec.Mode == MergeOnRead {
		if m.FormatVersion < 2 {
			return nil, pgerr.Unsupported("merge-on-read row-level changes in format version %d tables", m.FormatVersion).
				WithHint("Use copy-on-write for this table, or upgrade it to format version 2.")
		}
		t, err := rewriteThreshold(m.Properties)
		if err != nil {
			return nil, err
		}
		w.threshold = t
	}
	newWriter := func(schema *catalog.Schema) (*write.Writer, error) {
		return write.NewWriter(ctx, write.WriterSpec{
			IO:            write.TableOutput(context.WithoutCancel(ctx), spec.Out), // Abort may run after the statement ends
			DataDir:       write.DataDir(m),
			Schema:        schema,
			Spec:          m.SpecByID(m.DefaultSpecID),
			Properties:    m.Properties,
			FormatVersion: m.FormatVersion,
			SortOrder:     defaultSortOrder(m),
			Format:        spec.Format,
		})
	}
	data, err := newWriter(spec.Schema)
	if err != nil {
		return nil, err
	}
	w.data = data
	if m.FormatVersion >= 3 {
		// Rows moved to new files keep their lineage: written with the
		// row lineage columns after the table's.
		ls := *spec.Schema
		ls.Fields = append(append([]catalog.NestedField(nil), spec.Schema.Fields...), scan.LineageFields()...)
		if w.lineage, err = newWriter(&ls); err != nil {
			_ = data.Abort()
			return nil, err
		}
	}
	return w, nil
}

// defaultSortOrder is the table's default sort order (nil when none).
func defaultSortOrder(m *catalog.TableMetadata) *catalog.SortOrder {
	for _, o := range m.SortOrders {
		if o.ID == m.DefaultSortOrderID {
			return o
		}
	}
	return nil
}

// Delete marks row pos of data file path (the path as the _file metadata
// column gives it) removed. It reports false, and changes nothing, when
// this Writer already removed that row; a path that is no live data file
// of the snapshot is an error.
func (w *Writer) Delete(path string, pos int64) (bool, error) {
	if w.finished {
		return false, fmt.Errorf("row-level writer: delete after Finish")
	}
	task, err := w.task(path)
	if err != nil {
		return false, err
	}
	if pos < 0 || pos >= task.File.RecordCount {
		return false, pgerr.New(pgerr.InternalError, "row position %d is outside data file %s of %d rows", pos, path, task.File.RecordCount)
	}
	bm, ok := w.removed[task.File.Path]
	if !ok {
		bm = roaring64.New()
		w.removed[task.File.Path] = bm
		w.affected = append(w.affected, task)
	}
	return bm.CheckedAdd(uint64(pos)), nil
}

// task finds the live data file path names, planning the snapshot first
// when no Delete has done so yet.
func (w *Writer) task(path string) (*catalog.FileScanTask, error) {
	if w.tasks == nil {
		if err := w.plan(); err != nil {
			return nil, err
		}
	}
	if t, ok := w.tasks[path]; ok {
		return t, nil
	}
	// The path may be spelled differently than the manifest spells it.
	if w.resolved == nil {
		w.resolved = make(map[string]*catalog.FileScanTask, len(w.tasks))
		for p, t := range w.tasks {
			if local, err := w.spec.Table.IO.Resolve(p); err == nil {
				w.resolved[local] = t
			}
		}
	}
	if local, err := w.spec.Table.IO.Resolve(path); err == nil {
		if t, ok := w.resolved[local]; ok {
			return t, nil
		}
	}
	return nil, pgerr.New(pgerr.InternalError, "%s is no live data file of table %q", path, w.spec.Table.Ident.Name)
}

// plan lists the snapshot's data files with their deletes.
func (w *Writer) plan() error {
	tasks, err := catalog.PlanFiles(w.ctx, w.spec.Table, w.spec.Snapshot)
	if err != nil {
		return fmt.Errorf("plan row-level change of %s: %w", w.spec.Table.Ident.Name, err)
	}
	w.tasks = make(map[string]*catalog.FileScanTask, len(tasks))
	w.removed = map[string]*roaring64.Bitmap{}
	for i := range tasks {
		w.tasks[tasks[i].File.Path] = &tasks[i]
	}
	return nil
}

// Insert adds rows (the table's columns).
func (w *Writer) Insert(b arrow.RecordBatch) error {
	if w.finished {
		return fmt.Errorf("row-level writer: insert after Finish")
	}
	return w.data.Write(b)
}

// Update adds the new rows of updated rows: the table's columns, then each
// row's _row_id, which the row keeps (row lineage). Its
// _last_updated_sequence_number is written null, so it inherits the
// sequence number of the snapshot committing the change. Without row
// lineage (before format 3) the row id is dropped and the rows inserted.
func (w *Writer) Update(b arrow.RecordBatch) error {
	if w.finished {
		return fmt.Errorf("row-level writer: update after Finish")
	}
	n := int(b.NumCols()) - 1
	if n != len(w.spec.Schema.Fields) {
		return fmt.Errorf("row-level writer: update of %d columns, the table has %d", n, len(w.spec.Schema.Fields))
	}
	cols := make([]arrow.Array, 0, n+2)
	fields := make([]arrow.Field, 0, n+2)
	for i := 0; i <= n; i++ {
		cols = append(cols, b.Column(i))
		fields = append(fields, b.Schema().Field(i))
	}
	if w.lineage == nil {
		rows := array.NewRecordBatch(arrow.NewSchema(fields[:n], nil), cols[:n], b.NumRows())
		defer rows.Release()
		return w.data.Write(rows)
	}
	nb := array.NewInt64Builder(memory.DefaultAllocator)
	nb.AppendNulls(int(b.NumRows()))
	seq := nb.NewArray()
	nb.Release()
	defer seq.Release()
	cols = append(cols, seq)
	fields = append(fields, arrow.Field{Name: "_last_updated_sequence_number", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	rows := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows())
	defer rows.Release()
	return w.lineage.Write(rows)
}

// Abort removes every file the Writer wrote, also after Finish (when the
// commit failed).
func (w *Writer) Abort() {
	for _, d := range []*write.Writer{w.data, w.lineage} {
		if d == nil {
			continue
		}
		if err := d.Abort(); err != nil {
			slog.Warn("remove data files of a failed row-level change", "table", w.spec.Table.Ident.Name, "error", err)
		}
	}
	seen := map[string]bool{}
	for _, f := range w.deleteFiles {
		if seen[f.Path] {
			continue // a Puffin file holds many deletion vectors
		}
		seen[f.Path] = true
		if err := w.spec.Out.Remove(context.Background(), f.Path); err != nil {
			slog.Warn("remove delete file of a failed row-level change", "file", f.Path, "error", err)
		}
	}
	w.deleteFiles = nil
	w.finished = true
}
