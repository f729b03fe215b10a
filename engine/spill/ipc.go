package spill

import (
	"bufio"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Batches are spilled in Arrow's IPC stream format, uncompressed: on
// lineitem-like rows LZ4 (arrow-go's frame codec) shrinks the files to 40%
// but makes writing and reading back about five times slower (BenchmarkSpill,
// bench/README.md), and a spilling statement is bound by the CPU first.
// The reader takes either. Extension types (icegate's numeric) are written
// as their storage and given back their type when read, so the reader
// needs no registry of extension types.

// Writer writes batches of one schema to a temporary file.
type Writer struct {
	file   *File
	buf    *bufio.Writer
	w      *ipc.Writer
	schema *arrow.Schema // as given
	stored *arrow.Schema // without extension types
	rows   int64
}

// NewWriter starts writing batches of schema to file.
func NewWriter(file *File, schema *arrow.Schema, mem memory.Allocator) *Writer {
	return newWriter(file, schema, mem, false)
}

func newWriter(file *File, schema *arrow.Schema, mem memory.Allocator, lz4 bool) *Writer {
	stored := storageSchema(schema)
	buf := bufio.NewWriterSize(file, 256<<10)
	opts := []ipc.Option{ipc.WithSchema(stored), ipc.WithAllocator(mem)}
	if lz4 {
		opts = append(opts, ipc.WithLZ4())
	}
	w := ipc.NewWriter(buf, opts...)
	return &Writer{file: file, buf: buf, w: w, schema: schema, stored: stored}
}

// Write appends b.
func (w *Writer) Write(b arrow.RecordBatch) error {
	if b.NumRows() == 0 {
		return nil
	}
	cols := make([]arrow.Array, b.NumCols())
	for i, c := range b.Columns() {
		cols[i] = retype(c, w.stored.Field(i).Type)
	}
	rec := array.NewRecordBatch(w.stored, cols, b.NumRows())
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	if err := w.w.Write(rec); err != nil {
		return fmt.Errorf("spill: write batch: %w", err)
	}
	w.rows += b.NumRows()
	return nil
}

// Rows is the number of rows written.
func (w *Writer) Rows() int64 { return w.rows }

// Finish ends the stream and flushes it to the file.
func (w *Writer) Finish() error {
	if err := w.w.Close(); err != nil {
		return fmt.Errorf("spill: end stream: %w", err)
	}
	if err := w.buf.Flush(); err != nil {
		return fmt.Errorf("spill: flush: %w", err)
	}
	return nil
}

// Reader reads back the batches a Writer wrote, with the schema given to
// the Writer.
type Reader struct {
	r      *ipc.Reader
	schema *arrow.Schema
	cur    arrow.RecordBatch
}

// NewReader reads file, written with schema.
func NewReader(file *File, schema *arrow.Schema, mem memory.Allocator) (*Reader, error) {
	r, err := ipc.NewReader(bufio.NewReaderSize(file.Reader(), 256<<10), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("spill: read stream: %w", err)
	}
	return &Reader{r: r, schema: schema}, nil
}

// Next is the next batch, nil at the end. It is valid until the next call
// to Next or Close; a caller that keeps it retains it.
func (r *Reader) Next() (arrow.RecordBatch, error) {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if !r.r.Next() {
		if err := r.r.Err(); err != nil {
			return nil, fmt.Errorf("spill: read batch: %w", err)
		}
		return nil, nil
	}
	rec := r.r.RecordBatch()
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		cols[i] = retype(c, r.schema.Field(i).Type)
	}
	r.cur = array.NewRecordBatch(r.schema, cols, rec.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return r.cur, nil
}

// Close releases the reader.
func (r *Reader) Close() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.r.Release()
}

func storageSchema(s *arrow.Schema) *arrow.Schema {
	fields := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		f.Type = storageType(f.Type)
		fields[i] = f
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md)
}

// storageType is t with every extension type, at any depth, replaced by
// its storage type.
func storageType(t arrow.DataType) arrow.DataType {
	switch t := t.(type) {
	case arrow.ExtensionType:
		return storageType(t.StorageType())
	case *arrow.ListType:
		return arrow.ListOfField(storageField(t.ElemField()))
	case *arrow.LargeListType:
		return arrow.LargeListOfField(storageField(t.ElemField()))
	case *arrow.FixedSizeListType:
		return arrow.FixedSizeListOfField(t.Len(), storageField(t.ElemField()))
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i, f := range t.Fields() {
			fs[i] = storageField(f)
		}
		return arrow.StructOf(fs...)
	case *arrow.MapType:
		m := arrow.MapOfWithMetadata(storageType(t.KeyType()), t.KeyField().Metadata,
			storageType(t.ItemType()), t.ItemField().Metadata)
		m.KeysSorted = t.KeysSorted
		return m
	}
	return t
}

func storageField(f arrow.Field) arrow.Field {
	f.Type = storageType(f.Type)
	return f
}

// retype views a's data as type want, which has the same layout (a type
// and its storage type, at any depth). It returns a new reference.
func retype(a arrow.Array, want arrow.DataType) arrow.Array {
	if arrow.TypeEqual(a.DataType(), want) {
		a.Retain()
		return a
	}
	d := retypeData(a.Data(), want)
	defer d.Release()
	return array.MakeFromData(d)
}

func retypeData(d arrow.ArrayData, want arrow.DataType) arrow.ArrayData {
	storage := want
	if ext, ok := want.(arrow.ExtensionType); ok {
		storage = ext.StorageType()
	}
	var childTypes []arrow.DataType
	if nt, ok := storage.(arrow.NestedType); ok {
		for _, f := range nt.Fields() {
			childTypes = append(childTypes, f.Type)
		}
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		if i < len(childTypes) {
			children[i] = retypeData(c, childTypes[i])
		} else {
			c.Retain()
			children[i] = c
		}
	}
	out := array.NewData(want, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	if dict := d.Dictionary(); dict != nil {
		out.SetDictionary(dict)
	}
	for _, c := range children {
		c.Release()
	}
	return out
}
