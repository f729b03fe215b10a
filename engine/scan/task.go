package scan

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// scanRun is the state shared by the workers of one scan.
type scanRun struct {
	spec engine.ScanSpec
	mem  memory.Allocator
	// vals: see readOptions.vals.
	vals memory.Allocator
	// private: vals is a recycler whose buffers must not leave the scan
	// (privateRecycling).
	private   bool
	batchSize int
	schema    *arrow.Schema
	mapping   []mappedField
	cache     *deleteCache
	// generalNested: see Options.generalNested.
	generalNested bool
	// filter: the predicates row-group statistics can judge.
	filter   groupFilter
	counters *scanCounters
	// columns: see Options.Columns.
	columns *ColumnCache
	// footers: see Options.Footers.
	footers *FooterCache
	// meta are the metadata columns projected.
	meta metaColumns
	// filtered counts the rows spec.Exact removed (Scan.RowsFiltered).
	filtered *atomic.Int64
}

func newScanRun(spec engine.ScanSpec, opts Options) (*scanRun, error) {
	r := &scanRun{spec: spec, mem: opts.Alloc, batchSize: opts.BatchSize, cache: newDeleteCache(),
		generalNested: opts.generalNested, filter: newGroupFilter(spec), counters: &scanCounters{},
		meta: newMetaColumns(spec), footers: opts.Footers}
	switch {
	case opts.builders:
	case opts.RecycleBuffers:
		r.vals = &recycler{}
	case privateRecycling(spec):
		r.vals, r.private = &recycler{}, true
	default:
		r.vals = opts.Alloc
	}
	if !opts.RecycleBuffers {
		r.columns = opts.Columns
	}
	fields := make([]arrow.Field, len(spec.FieldIDs))
	for i, id := range spec.FieldIDs {
		fields[i] = engine.ArrowField(*topField(spec, id))
	}
	r.schema = arrow.NewSchema(fields, nil)
	if spec.Table != nil && spec.Table.Metadata != nil {
		m, err := parseNameMapping(spec.Table.Metadata.Properties)
		if err != nil {
			return nil, err
		}
		if m != nil && spec.Schema != nil && !mappingConsistent(m, spec.Schema) {
			slog.Warn("table name mapping disagrees with the schema's field ids; matching file columns by name",
				"table", spec.Table.Ident.Name)
			m = nil
		}
		r.mapping = m
	}
	return r, nil
}

func topField(spec engine.ScanSpec, id int) *catalog.NestedField {
	if IsMetadataField(id) {
		return metadataField(spec, id)
	}
	if IsLineageField(id) {
		for _, f := range LineageFields() {
			if f.ID == id {
				return &f
			}
		}
	}
	if spec.Schema == nil {
		return nil
	}
	for i := range spec.Schema.Fields {
		if spec.Schema.Fields[i].ID == id {
			return &spec.Schema.Fields[i]
		}
	}
	return nil
}

// fileShard is the part of a data file a reader reads: shard of shards
// (shards <= 1: all of it).
type fileShard struct {
	shard, shards int
}

// openFile opens a data or delete file and its reader for fields; sh
// applies to data files.
func (s *scanRun) openFile(ctx context.Context, df *catalog.DataFile, fields []readField, sh fileShard, sel *rowSel) (fileReader, catalog.File, error) {
	if s.spec.Table == nil || s.spec.Table.IO == nil {
		return nil, nil, fmt.Errorf("scan: table has no FileIO")
	}
	opts := readOptions{mem: s.mem, vals: s.vals, mapping: s.mapping, generalNested: s.generalNested}
	if s.private {
		opts.cacheVals = s.mem
	}
	if df.Content == catalog.ContentData { // row groups of data files may be skipped
		opts.filter, opts.counters = s.filter, s.counters
		opts.shard, opts.shards = sh.shard, sh.shards
		opts.columns = s.columns
		opts.sel = sel
	}
	format := catalog.FileFormat(strings.ToUpper(string(df.Format)))
	switch format {
	case catalog.FormatParquet, catalog.FormatAvro, catalog.FormatORC:
	default:
		return nil, nil, pgerr.Unsupported("reading %s data files", df.Format).WithDetail("File %s.", df.Path)
	}
	if format == catalog.FormatParquet && df.Content == catalog.ContentData && s.footers != nil && s.spec.Table.Metadata != nil {
		r, f, err := openCachedParquet(ctx, s.footers, s.spec.Table.Metadata.TableUUID, s.spec.Table.IO, df, fields, opts)
		if err != nil {
			return nil, nil, s.fileError(df, err)
		}
		return r, f, nil
	}
	f, err := catalog.OpenFile(ctx, s.spec.Table.IO, df.Path, df.FileSizeInBytes)
	if err != nil {
		return nil, nil, s.fileError(df, err)
	}
	var r fileReader
	switch format {
	case catalog.FormatParquet:
		r, err = openParquet(df.Path, f, fields, opts)
	case catalog.FormatORC:
		r, err = openORC(df.Path, f, fields, opts)
	default:
		r, err = openAvro(df.Path, f, fields, opts)
	}
	if err != nil {
		f.Close()
		return nil, nil, s.fileError(df, err)
	}
	return r, f, nil
}

// fileError gives a failure reading the data or delete file df its
// SQLSTATE and a message naming the file relative to the table
// (catalog.FileError): contents that do not decode are XX001.
func (s *scanRun) fileError(df *catalog.DataFile, err error) error {
	if s.spec.Table == nil || s.spec.Table.IO == nil {
		return err
	}
	return catalog.FileError(s.spec.Table.IO, df.Path, err)
}

// runTask reads shard sh of one data file, applies its deletes and the
// exact conjuncts (rf, nil without them) and emits its batches.
func (s *scanRun) runTask(ctx context.Context, task *catalog.FileScanTask, sh fileShard, tf taskFilter, emit func(arrow.RecordBatch) error) error {
	rf, sel := tf.rf, tf.sel
	if sel != nil {
		sel.counters = s.counters
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	df := task.File
	if sh.shards > 1 && sh.shard != 0 && catalog.FileFormat(strings.ToUpper(string(df.Format))) != catalog.FormatParquet {
		return nil // shard 0 reads the files that are not split by row group
	}
	// The read fields: the projected ones, then equality columns the
	// projection lacks (read for the delete check, then dropped).
	fields := make([]readField, 0, len(s.spec.FieldIDs))
	index := map[int]int{}
	add := func(f catalog.NestedField) {
		if _, ok := index[f.ID]; ok {
			return
		}
		missing := f.InitialDefault
		if v, ok := identityPartitionValue(task, f.ID); ok {
			missing = v
		}
		index[f.ID] = len(fields)
		fields = append(fields, readField{field: f, missing: missing})
	}
	outIdx := make([]int, len(s.spec.FieldIDs)) // output column -> read field
	for i, id := range s.spec.FieldIDs {
		if IsMetadataField(id) {
			outIdx[i] = -1 // filled by s.meta
			continue
		}
		add(*topField(s.spec, id))
		outIdx[i] = index[id]
	}
	nOut := len(fields)

	positions, eqs, err := s.loadTaskDeletes(ctx, task, func(id int) error {
		f, err := s.equalityField(id)
		if err == nil {
			add(f)
		}
		return err
	})
	if err != nil {
		return err
	}

	if sel != nil {
		sel.skipValues(func(id int) bool {
			for _, eq := range eqs {
				if slices.Contains(eq.ids, id) {
					return true
				}
			}
			return false
		})
	}
	r, f, err := s.openFile(ctx, df, fields, sh, sel)
	if err != nil {
		return err
	}
	defer f.Close()
	defer r.close()

	eqCols := make([][]int, len(eqs))
	for i, eq := range eqs {
		for _, id := range eq.ids {
			eqCols[i] = append(eqCols[i], index[id])
		}
	}
	var del []bool
	var key []byte
	var eqSel []arrow.Array
	for {
		if sel != nil {
			sel.reset(ctx)
		}
		cols, pos, n, err := r.next(ctx, s.batchSize)
		if err != nil {
			return s.fileError(df, err)
		}
		if n == 0 {
			return nil
		}
		if cap(del) < n {
			del = make([]bool, n)
		}
		del = del[:n]
		clear(del)
		deleted := positions.mark(pos, del)
		for i, eq := range eqs {
			eqSel = eqSel[:0]
			for _, c := range eqCols[i] {
				eqSel = append(eqSel, cols[c])
			}
			m, err := eq.mark(eqSel, del, &key)
			if err != nil {
				releaseAll(cols)
				return fmt.Errorf("data file %s: %w", df.Path, err)
			}
			deleted += m
		}
		if sel != nil {
			if err := s.emitSelected(ctx, task, cols[:nOut], cols, pos, n, del, deleted, tf, index, emit); err != nil {
				return err
			}
			continue
		}
		releaseAll(cols[nOut:])
		cols = cols[:nOut]
		if s.meta.markDeleted {
			deleted = 0 // _deleted is read: deleted rows stay, flagged
		}
		if deleted == n {
			releaseAll(cols)
			continue
		}
		if deleted > 0 {
			kept, err := keepRows(s.mem, cols, del)
			releaseAll(cols)
			if err != nil {
				return fmt.Errorf("data file %s: apply deletes: %w", df.Path, err)
			}
			cols = kept
		}
		out := make([]arrow.Array, len(outIdx))
		for i, j := range outIdx {
			if j >= 0 {
				out[i] = cols[j]
				out[i].Retain()
			}
		}
		releaseAll(cols)
		if err := s.inheritLineage(task, out, pos, del, deleted > 0); err != nil {
			releaseAll(out)
			return fmt.Errorf("data file %s: %w", df.Path, err)
		}
		if err := s.meta.fill(s.mem, task, out, pos, del, deleted > 0); err != nil {
			releaseAll(out)
			return fmt.Errorf("data file %s: %w", df.Path, err)
		}
		rec := array.NewRecordBatch(s.schema, out, int64(n-deleted))
		releaseAll(out)
		if rf != nil {
			kept, err := rf.Apply(ctx, rec)
			if err != nil {
				rec.Release()
				return err
			}
			if kept != rec {
				s.countFiltered(rec.NumRows() - nrows(kept))
				rec.Release()
				if kept == nil {
					continue
				}
				rec = kept
			} else if rec, err = s.ownBatch(rec); err != nil {
				return err
			}
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
}

// emitSelected applies the exact conjuncts of tf to a batch of n rows
// read at file position pos (all its read columns, out the projected
// ones), of which del marks the deleted: those judged per column first,
// then the RowFilter over the rows they keep; the rows kept are emitted.
// It releases the columns.
func (s *scanRun) emitSelected(ctx context.Context, task *catalog.FileScanTask, out, all []arrow.Array, pos int64, n int, del []bool, deleted int, tf taskFilter, index map[int]int, emit func(arrow.RecordBatch) error) error {
	df := task.File
	sel := tf.sel
	if _, err := sel.finish(all, index, n); err != nil {
		releaseAll(all)
		return err
	}
	releaseAll(all[len(out):])
	skip := sel.drop
	if deleted > 0 {
		for i, d := range del {
			if d {
				skip[i>>6] |= 1 << (uint(i) & 63)
			}
		}
	}
	live := n - deleted // rows the conjuncts are applied to
	if expr.CountWords(skip) == n {
		releaseAll(out)
		s.countFiltered(int64(live))
		return nil
	}
	cols := make([]arrow.Array, len(s.spec.FieldIDs))
	for i, id := range s.spec.FieldIDs {
		if !IsMetadataField(id) {
			cols[i] = all[index[id]]
			cols[i].Retain()
		}
	}
	releaseAll(out)
	if err := s.inheritLineage(task, cols, pos, del, false); err != nil {
		releaseAll(cols)
		return fmt.Errorf("data file %s: %w", df.Path, err)
	}
	if err := s.meta.fill(s.mem, task, cols, pos, del, false); err != nil {
		releaseAll(cols)
		return fmt.Errorf("data file %s: %w", df.Path, err)
	}
	rec := array.NewRecordBatch(s.schema, cols, int64(n))
	releaseAll(cols)
	kept, err := tf.rf.ApplyDropped(ctx, rec, skip)
	if err != nil {
		rec.Release()
		return err
	}
	s.countFiltered(int64(live) - nrows(kept))
	if kept != rec {
		rec.Release()
		if kept == nil {
			return nil
		}
	} else if kept, err = s.ownBatch(rec); err != nil {
		return err
	}
	return emit(kept)
}

// privateRecycling reports whether a scan decodes into a recycler of its
// own: when it applies exact conjuncts, the batches it decodes stay
// inside it - the rows kept are copied out, and a batch whose every row
// is kept is copied whole by ownBatch - so their buffers can serve the
// next batches whatever the consumer does with what it is given. (With
// Options.RecycleBuffers the consumer is known to stop reading a batch
// when it releases it, and nothing is copied.) A scan of fewer rows than
// one cached row group holds does not: it decodes few batches, and
// setting up the recycler's pools would cost a prepared point query
// more than it saves.
func privateRecycling(spec engine.ScanSpec) bool {
	if len(spec.Exact) == 0 {
		return false
	}
	var rows int64
	for _, t := range spec.Tasks {
		if t.File != nil {
			rows += t.File.RecordCount
		}
	}
	return rows > maxCachedGroupRows
}

// ownBatch returns rec, or when its buffers may come from the scan's
// private recycler, a copy of it on the scan's allocator (rec is then
// released).
func (s *scanRun) ownBatch(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if !s.private {
		return rec, nil
	}
	defer rec.Release()
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		cp, err := array.Concatenate([]arrow.Array{c}, s.mem)
		if err != nil {
			releaseAll(cols)
			return nil, fmt.Errorf("scan: copy a batch: %w", err)
		}
		cols[i] = cp
	}
	out := array.NewRecordBatch(rec.Schema(), cols, rec.NumRows())
	releaseAll(cols)
	return out, nil
}

// countFiltered counts n rows the exact conjuncts removed.
func (s *scanRun) countFiltered(n int64) {
	if s.filtered != nil && n > 0 {
		s.filtered.Add(n)
	}
}

func nrows(b arrow.RecordBatch) int64 {
	if b == nil {
		return 0
	}
	return b.NumRows()
}

func releaseAll(arrs []arrow.Array) {
	for _, a := range arrs {
		if a != nil {
			a.Release()
		}
	}
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
