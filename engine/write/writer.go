package write

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
)

// WriterSpec says where and how a Writer writes a table's data files.
type WriterSpec struct {
	IO FileWriter
	// DataDir is the table's data location (write.data.path, or
	// <table location>/data); file paths are DataDir/<partition>/<name>.
	DataDir string
	Schema  *catalog.Schema
	// Spec is the partition spec rows are routed by (nil: unpartitioned).
	Spec *catalog.PartitionSpec
	// Properties are the table properties (write.* settings).
	Properties    map[string]string
	FormatVersion int
	// Format overrides write.format.default for this write ("parquet",
	// "avro"; "" keeps the table's).
	Format string
	// SortOrder is the table's default sort order: when it has fields, the
	// rows of every data file are written in that order and the files
	// carry its id (nil or no fields: unsorted).
	SortOrder *catalog.SortOrder
	// RowOrder, when set, orders the rows of every data file instead of
	// SortOrder (which must then be nil): given the buffered columns, it
	// returns their row indexes in the order to write (compaction's
	// z-order). The files carry no sort order id.
	RowOrder func(cols []arrow.Array) ([]int, error)
}

// dataFile is one data file being written, in either format.
type dataFile interface {
	// write appends the rows sel of the batch columns cols.
	write(cols []arrow.Array, sel []int) error
	// size is the estimated size of the file so far.
	size() int64
	// close finishes the file and returns its DataFile.
	close(specID int) (*catalog.DataFile, error)
	// abort closes the output without finishing the file.
	abort()
}

// Writer writes Arrow batches of a table's rows into Parquet (or Avro) data files,
// one open file per partition (fanout), rolling to a new file at
// write.target-file-size-bytes. A Writer is used by one goroutine; behind
// it, one goroutine of its own encodes and compresses the batches Write
// accepted (pipe.go), so that the caller produces the next batch (parses
// COPY data, scans, evaluates) while the last one is written.
type Writer struct {
	ctx        context.Context
	spec       WriterSpec
	layout     *tableLayout
	opts       fileOptions
	format     catalog.FileFormat
	avro       *avroLayout // Avro files only
	sort       *sortKeys   // nil: unsorted
	dist       distributionMode
	sorting    sortBuffer
	modes      []metricsMode
	transforms []*PartitionTransform
	sources    [][]int // per partition field: struct path of its source column
	arrowTypes []arrow.DataType
	queryID    string
	fileCount  int

	open    map[string]dataFile // by partition key
	order   []string            // keys of open, in creation order
	done    []*catalog.DataFile
	created []string // every file created, for Abort
	failed  error
	closed  bool
	pipe    *filePipe // started by the first Write with rows
}

// NewWriter checks the spec (types the writer can write, transforms that
// apply to their source types, valid write properties) and returns a
// Writer. No file is created before the first row arrives.
func NewWriter(ctx context.Context, spec WriterSpec) (*Writer, error) {
	if spec.IO == nil || spec.Schema == nil {
		return nil, fmt.Errorf("new writer: IO and Schema are required")
	}
	if spec.FormatVersion > 3 {
		return nil, pgerr.Unsupported("writing Iceberg format version %d", spec.FormatVersion)
	}
	layout, err := newTableLayout(spec.Schema)
	if err != nil {
		return nil, err
	}
	opts, err := parseFileOptions(spec.Properties)
	if err != nil {
		return nil, err
	}
	if layout, err = opts.pinEncodings(layout); err != nil {
		return nil, err
	}
	modes, err := metricsConfig(spec.Properties, spec.Schema, layout.leaves)
	if err != nil {
		return nil, err
	}
	format, err := parseFormat(spec.Format, spec.Properties)
	if err != nil {
		return nil, err
	}
	w := &Writer{ctx: ctx, spec: spec, layout: layout, opts: opts, modes: modes, format: format,
		queryID: newUUID(), open: map[string]dataFile{}}
	if format == catalog.FormatAvro {
		if w.opts.avro, err = parseAvroCodec(spec.Properties); err != nil {
			return nil, err
		}
		if w.avro, err = newAvroLayout(spec.Schema); err != nil {
			return nil, err
		}
	}
	if w.dist, err = parseDistribution(spec.Properties, spec.Spec, spec.SortOrder); err != nil {
		return nil, err
	}
	switch {
	case spec.RowOrder != nil && spec.SortOrder != nil && len(spec.SortOrder.Fields) > 0:
		return nil, fmt.Errorf("new writer: RowOrder and SortOrder are exclusive")
	case spec.RowOrder != nil:
		w.sort = &sortKeys{custom: spec.RowOrder}
	case spec.SortOrder != nil && len(spec.SortOrder.Fields) > 0:
		if w.sort, err = newSortKeys(spec.Schema, spec.SortOrder); err != nil {
			return nil, err
		}
	}
	for _, f := range spec.Schema.Fields {
		w.arrowTypes = append(w.arrowTypes, engine.ArrowType(f.Type))
	}
	if spec.Spec != nil {
		for _, pf := range spec.Spec.Fields {
			path, src := sourcePath(spec.Schema, pf.SourceID)
			if src == nil {
				return nil, pgerr.New(pgerr.UndefinedColumn,
					"partition field %q has source field id %d, which is not a column outside lists and maps", pf.Name, pf.SourceID)
			}
			t, err := NewPartitionTransform(pf.Transform, src.Type)
			if err != nil {
				return nil, err
			}
			w.transforms = append(w.transforms, t)
			w.sources = append(w.sources, path)
		}
	}
	return w, nil
}

// sourcePath finds field id among the top-level fields and the fields of
// nested structs, returning the index path to it.
func sourcePath(s *catalog.Schema, id int) ([]int, *catalog.NestedField) {
	var walk func(fs []catalog.NestedField, prefix []int) ([]int, *catalog.NestedField)
	walk = func(fs []catalog.NestedField, prefix []int) ([]int, *catalog.NestedField) {
		for i := range fs {
			p := append(append([]int(nil), prefix...), i)
			if fs[i].ID == id {
				return p, &fs[i]
			}
			if st, ok := fs[i].Type.(*catalog.StructType); ok {
				if path, f := walk(st.Fields, p); f != nil {
					return path, f
				}
			}
		}
		return nil, nil
	}
	return walk(s.Fields, nil)
}

// Write routes the rows of batch (one column per top-level schema field, in
// order, typed per engine.ArrowType) to their partitions' files. The batch
// is checked at once and written behind the caller (the Writer retains its
// columns until then): an error of its file work is returned by a later
// Write or by Close. On any error the write is aborted: every file written
// is removed and later calls fail.
func (w *Writer) Write(batch arrow.RecordBatch) error {
	if w.failed != nil {
		return w.failed
	}
	if w.closed {
		return fmt.Errorf("write: writer is closed")
	}
	if err := w.write(batch); err != nil {
		w.fail(err)
		return err
	}
	return nil
}

func (w *Writer) fail(err error) {
	if w.pipe != nil {
		w.pipe.stop()
	}
	w.failed = err
	if aerr := w.Abort(); aerr != nil {
		slog.Warn("abort data files after a failed write", "error", aerr)
	}
}

func (w *Writer) write(batch arrow.RecordBatch) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	n := int(batch.NumRows())
	if n == 0 {
		return nil
	}
	fields := w.spec.Schema.Fields
	if int(batch.NumCols()) != len(fields) {
		return pgerr.New(pgerr.DatatypeMismatch, "batch has %d columns, table has %d", batch.NumCols(), len(fields))
	}
	cols := make([]arrow.Array, len(fields))
	var release []arrow.Array
	defer func() {
		for _, a := range release {
			a.Release()
		}
	}()
	for k, f := range fields {
		col := batch.Column(k)
		if d, ok := col.(*array.Dictionary); ok {
			plain, err := undictionary(d)
			if err != nil {
				return fmt.Errorf("column %q: %w", f.Name, err)
			}
			release = append(release, plain)
			col = plain
		}
		if leafIsInterval(col.DataType()) {
			// An interval column is stored as the struct of its parts
			// (engine.IntervalPartsType).
			if parts, ok := engine.IntervalToParts(col, w.arrowTypes[k], memory.DefaultAllocator); ok {
				release = append(release, parts)
				col = parts
			}
		}
		if !sameShape(col.DataType(), w.arrowTypes[k]) {
			return pgerr.New(pgerr.DatatypeMismatch, "column %q is of type %s but the batch holds %s",
				f.Name, f.Type, col.DataType())
		}
		if f.Required && col.NullN() > 0 {
			return notNullViolation(f.Name)
		}
		cols[k] = col
	}
	if w.pipe == nil {
		w.pipe = startPipe(w)
	}
	return w.pipe.send(cols, n)
}

// writeCols writes the n rows of cols: into the sort buffer, or to their
// partitions' files. It runs on the pipe's goroutine.
func (w *Writer) writeCols(cols []arrow.Array, n int) error {
	if w.sort != nil {
		w.sorting.add(cols)
		if w.sorting.bytes >= w.sortBufferLimit() {
			return w.flushSorted()
		}
		return nil
	}
	return w.writeRows(cols, identity(n))
}

// identity is the rows 0..n-1 in order.
func identity(n int) []int {
	sel := make([]int, n)
	for i := range sel {
		sel[i] = i
	}
	return sel
}

// writeRows writes rows of cols, in the order given, to their partitions'
// files.
func (w *Writer) writeRows(cols []arrow.Array, rows []int) error {
	if len(w.transforms) == 0 {
		return w.writeTo("", nil, cols, rows)
	}
	groups, err := w.route(cols, rows)
	if err != nil {
		return err
	}
	for _, g := range groups {
		if err := w.writeTo(g.key, g.tuple, cols, g.rows); err != nil {
			return err
		}
	}
	return nil
}

// partitionGroup is the rows of a batch that belong to one partition.
type partitionGroup struct {
	key   string
	tuple []any
	rows  []int
}

// route computes the partition tuple of every row and groups the rows by it
// (groups in order of first appearance, rows in the order given).
func (w *Writer) route(cols []arrow.Array, rows []int) ([]*partitionGroup, error) {
	sources := make([]arrow.Array, len(w.transforms))
	parents := make([][]arrow.Array, len(w.transforms))
	for j, path := range w.sources {
		arr := cols[path[0]]
		for _, k := range path[1:] {
			parents[j] = append(parents[j], arr)
			arr = arr.(*array.Struct).Field(k)
		}
		sources[j] = arr
	}
	byKey := map[string]*partitionGroup{}
	var groups []*partitionGroup
	tuple := make([]any, len(w.transforms))
	var key []byte
	for _, i := range rows {
		key = key[:0]
		for j, t := range w.transforms {
			var v any
			if !anyNull(parents[j], i) {
				var err error
				if v, err = t.Value(sources[j], i); err != nil {
					return nil, err
				}
			}
			tuple[j] = v
			key = appendKey(key, v)
		}
		g := byKey[string(key)]
		if g == nil {
			g = &partitionGroup{key: string(key), tuple: append([]any(nil), tuple...)}
			byKey[g.key] = g
			groups = append(groups, g)
		}
		g.rows = append(g.rows, i)
	}
	return groups, nil
}

func anyNull(arrs []arrow.Array, i int) bool {
	for _, a := range arrs {
		if a.IsNull(i) {
			return true
		}
	}
	return false
}

// appendKey appends an unambiguous encoding of a partition value.
func appendKey(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, 0)
	case bool:
		if x {
			return append(dst, 1, 1)
		}
		return append(dst, 1, 0)
	case int32:
		return binary.LittleEndian.AppendUint32(append(dst, 2), uint32(x))
	case int64:
		return binary.LittleEndian.AppendUint64(append(dst, 3), uint64(x))
	case float32:
		return binary.LittleEndian.AppendUint32(append(dst, 4), math.Float32bits(x))
	case float64:
		return binary.LittleEndian.AppendUint64(append(dst, 5), math.Float64bits(x))
	case string:
		return append(binary.AppendUvarint(append(dst, 6), uint64(len(x))), x...)
	case []byte:
		return append(binary.AppendUvarint(append(dst, 7), uint64(len(x))), x...)
	case [16]byte:
		return append(append(dst, 8), x[:]...)
	case catalog.Decimal:
		s := x.Unscaled.String()
		return append(binary.AppendUvarint(append(dst, 9), uint64(len(s))), s...)
	}
	s := fmt.Sprint(v)
	return append(binary.AppendUvarint(append(dst, 10), uint64(len(s))), s...)
}

// writeTo writes rows of cols to the open file of partition key, opening
// one if needed and rolling to a new one at the target file size.
func (w *Writer) writeTo(key string, tuple []any, cols []arrow.Array, rows []int) error {
	for len(rows) > 0 {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		f := w.open[key]
		if f == nil {
			var err error
			if f, err = w.openFile(tuple); err != nil {
				return err
			}
			w.open[key] = f
			w.order = append(w.order, key)
		}
		chunk := rows[:min(len(rows), chunkRows)]
		rows = rows[len(chunk):]
		if err := f.write(cols, chunk); err != nil {
			return err
		}
		if f.size() >= w.opts.targetFileSize {
			if err := w.closeFile(key); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) openFile(tuple []any) (dataFile, error) {
	dir := strings.TrimRight(w.spec.DataDir, "/")
	if len(w.transforms) > 0 {
		dir += "/" + partitionPath(w.spec.Spec, w.transforms, tuple)
	}
	ext := "parquet"
	if w.format == catalog.FormatAvro {
		ext = "avro"
	}
	path := fmt.Sprintf("%s/00000-%d-%s.%s", dir, w.fileCount, w.queryID, ext)
	w.fileCount++
	out, err := w.spec.IO.Create(path)
	if err != nil {
		return nil, err
	}
	w.created = append(w.created, path)
	if tuple == nil {
		tuple = []any{}
	}
	if w.format == catalog.FormatAvro {
		f, err := newAvroFile(path, out, w.avro, w.layout, w.opts, w.modes, tuple)
		if err != nil {
			out.Close()
			return nil, err
		}
		return f, nil
	}
	return newParquetFile(path, out, w.layout, w.opts, w.modes, tuple), nil
}

func (w *Writer) specID() int {
	if w.spec.Spec == nil {
		return 0
	}
	return w.spec.Spec.ID
}

func (w *Writer) closeFile(key string) error {
	f := w.open[key]
	delete(w.open, key)
	for i, k := range w.order {
		if k == key {
			w.order = append(w.order[:i], w.order[i+1:]...)
			break
		}
	}
	df, err := f.close(w.specID())
	if err != nil {
		return err
	}
	if w.sort != nil && w.sort.custom == nil {
		id := w.spec.SortOrder.ID
		df.SortOrderID = &id
	}
	w.done = append(w.done, df)
	return nil
}

// Close finishes every open file and returns the data files written, in
// the order they were finished. On error the write is aborted.
func (w *Writer) Close() ([]*catalog.DataFile, error) {
	if w.failed != nil {
		return nil, w.failed
	}
	if w.closed {
		return nil, fmt.Errorf("write: writer is closed")
	}
	if w.pipe != nil {
		if err := w.pipe.stop(); err != nil {
			w.fail(err)
			return nil, err
		}
	}
	if err := w.flushSorted(); err != nil {
		w.fail(err)
		return nil, err
	}
	for len(w.order) > 0 {
		if err := w.closeFile(w.order[0]); err != nil {
			w.fail(err)
			return nil, err
		}
	}
	w.closed = true
	return w.done, nil
}

// Abort closes the open files and removes every file the writer created.
// It may be called after Close (the statement failed later, before commit).
func (w *Writer) Abort() error {
	if w.pipe != nil {
		w.pipe.stop()
	}
	for _, k := range w.order {
		w.open[k].abort()
	}
	w.open = map[string]dataFile{}
	w.order = nil
	w.sorting.release()
	var errs []error
	for _, p := range w.created {
		if err := w.spec.IO.Remove(p); err != nil {
			errs = append(errs, err)
		}
	}
	w.created = nil
	w.done = nil
	if w.failed == nil {
		w.failed = fmt.Errorf("write: aborted")
	}
	return errors.Join(errs...)
}

// newUUID returns a random (version 4) UUID in its text form.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// undictionary turns a dictionary-encoded column into its plain values.
func undictionary(d *array.Dictionary) (arrow.Array, error) {
	dict := d.Dictionary()
	b := array.NewBuilder(memory.DefaultAllocator, dict.DataType())
	defer b.Release()
	b.Reserve(d.Len())
	for i := 0; i < d.Len(); i++ {
		if d.IsNull(i) {
			b.AppendNull()
			continue
		}
		j := d.GetValueIndex(i)
		switch db := b.(type) {
		case *array.StringBuilder:
			db.Append(dict.(*array.String).Value(j))
		case *array.BinaryBuilder:
			db.Append(dict.(*array.Binary).Value(j))
		default:
			return nil, pgerr.Unsupported("writing a dictionary-encoded %s column", dict.DataType())
		}
	}
	return b.NewArray(), nil
}

// sameShape compares Arrow types by kind recursively (ignoring field names,
// nullability and metadata).
func sameShape(got, want arrow.DataType) bool {
	if got.ID() != want.ID() {
		return false
	}
	switch w := want.(type) {
	case *arrow.StructType:
		g := got.(*arrow.StructType)
		if g.NumFields() != w.NumFields() {
			return false
		}
		for i := range w.Fields() {
			if !sameShape(g.Field(i).Type, w.Field(i).Type) {
				return false
			}
		}
	case *arrow.MapType:
		g := got.(*arrow.MapType)
		return sameShape(g.KeyType(), w.KeyType()) && sameShape(g.ItemType(), w.ItemType())
	case *arrow.ListType:
		return sameShape(got.(*arrow.ListType).Elem(), w.Elem())
	case *arrow.FixedSizeBinaryType:
		return got.(*arrow.FixedSizeBinaryType).ByteWidth == w.ByteWidth
	case *arrow.Decimal128Type:
		g := got.(*arrow.Decimal128Type)
		return g.Scale == w.Scale
	case *arrow.TimestampType:
		return got.(*arrow.TimestampType).Unit == w.Unit
	case *arrow.Time64Type:
		return got.(*arrow.Time64Type).Unit == w.Unit
	}
	return true
}

// leafIsInterval reports intervals and lists (of lists) of them: the
// values of interval and interval[] columns, stored as their parts.
func leafIsInterval(dt arrow.DataType) bool {
	for {
		lt, ok := dt.(*arrow.ListType)
		if !ok {
			return dt.ID() == arrow.INTERVAL_MONTH_DAY_NANO
		}
		dt = lt.Elem()
	}
}
