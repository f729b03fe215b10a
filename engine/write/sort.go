package write

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// maxSortBufferBytes caps the rows a sorted write holds in memory.
//
// Memory: the rows of a data file must all be in memory to be written in
// order (short of spilling sorted runs and merging them, which a write of
// this size does not need). The Writer keeps ONE buffer for all partitions
// rather than one per open file, so memory stays bounded by this constant
// whatever the fanout: when the buffer is full its rows are sorted, routed
// to their partitions and every file open is finished. Each data file is
// therefore one sorted run; a statement bigger than the buffer writes more,
// smaller files per partition, as Spark's per-task local sort does.
const maxSortBufferBytes = 256 << 20

// sortKeys computes the sort key of rows: per sort field, its source
// column (a path through structs) and the transform applied to it.
type sortKeys struct {
	fields []sortKeyField
	// custom, when set, orders the rows instead (WriterSpec.RowOrder).
	custom func(cols []arrow.Array) ([]int, error)
}

type sortKeyField struct {
	path       []int
	transform  *PartitionTransform
	desc       bool
	nullsFirst bool
}

// newSortKeys checks a sort order against the schema.
func newSortKeys(s *catalog.Schema, order *catalog.SortOrder) (*sortKeys, error) {
	k := &sortKeys{}
	for _, f := range order.Fields {
		if f.Transform.Name == "void" {
			continue
		}
		path, src := sourcePath(s, f.SourceID)
		if src == nil {
			return nil, pgerr.New(pgerr.UndefinedColumn,
				"sort order %d has source field id %d, which is not a column outside lists and maps", order.ID, f.SourceID)
		}
		t, err := NewPartitionTransform(f.Transform, src.Type)
		if err != nil {
			return nil, err
		}
		k.fields = append(k.fields, sortKeyField{path: path, transform: t,
			desc: f.Direction == "desc", nullsFirst: f.NullOrder == "nulls-first"})
	}
	return k, nil
}

// sortBuffer holds the columns of the batches of a sorted write.
type sortBuffer struct {
	batches [][]arrow.Array
	bytes   int64
}

// add retains cols and keeps them.
func (b *sortBuffer) add(cols []arrow.Array) {
	kept := make([]arrow.Array, len(cols))
	for k, c := range cols {
		c.Retain()
		kept[k] = c
		b.bytes += arraySize(c.Data())
	}
	b.batches = append(b.batches, kept)
}

func (b *sortBuffer) release() {
	for _, cols := range b.batches {
		for _, c := range cols {
			c.Release()
		}
	}
	b.batches, b.bytes = nil, 0
}

// arraySize is the bytes of an array's buffers and children.
func arraySize(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, c := range d.Children() {
		n += arraySize(c)
	}
	return n
}

// flushSorted sorts the buffered rows, writes them and finishes every open
// file, so that each file holds one sorted run.
func (w *Writer) flushSorted() error {
	if w.sort == nil || len(w.sorting.batches) == 0 {
		return nil
	}
	defer w.sorting.release()
	cols := w.sorting.batches[0]
	if len(w.sorting.batches) > 1 {
		cols = make([]arrow.Array, len(w.spec.Schema.Fields))
		defer func() {
			for _, c := range cols {
				if c != nil {
					c.Release()
				}
			}
		}()
		parts := make([]arrow.Array, len(w.sorting.batches))
		for k := range cols {
			for j, b := range w.sorting.batches {
				parts[j] = b[k]
			}
			c, err := array.Concatenate(parts, memory.DefaultAllocator)
			if err != nil {
				return fmt.Errorf("sorted write: gather column %q: %w", w.spec.Schema.Fields[k].Name, err)
			}
			cols[k] = c
		}
	}
	rows, err := w.sort.order(cols)
	if err != nil {
		return err
	}
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if err := w.writeRows(cols, rows); err != nil {
		return err
	}
	for len(w.order) > 0 {
		if err := w.closeFile(w.order[0]); err != nil {
			return err
		}
	}
	return nil
}

// order returns the row indexes of cols in sort order (stable: rows with
// equal keys keep their arrival order).
func (k *sortKeys) order(cols []arrow.Array) ([]int, error) {
	if k.custom != nil {
		rows, err := k.custom(cols)
		if err == nil && len(rows) != cols[0].Len() {
			err = fmt.Errorf("sorted write: row order of %d rows for %d", len(rows), cols[0].Len())
		}
		return rows, err
	}
	n := cols[0].Len()
	keys := make([][]any, len(k.fields))
	for j, f := range k.fields {
		arr := cols[f.path[0]]
		var parents []arrow.Array
		for _, c := range f.path[1:] {
			parents = append(parents, arr)
			arr = arr.(*array.Struct).Field(c)
		}
		vals := make([]any, n)
		for i := range vals {
			if anyNull(parents, i) {
				continue
			}
			v, err := f.transform.Value(arr, i)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		keys[j] = vals
	}
	rows := identity(n)
	slices.SortStableFunc(rows, func(a, b int) int {
		for j, f := range k.fields {
			if c := f.compare(keys[j][a], keys[j][b]); c != 0 {
				return c
			}
		}
		return 0
	})
	return rows, nil
}

// compare orders two key values of a field: NULLs first or last as the
// field says (whatever the direction), values ascending or descending.
func (f *sortKeyField) compare(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		if f.nullsFirst {
			return -1
		}
		return 1
	case b == nil:
		if f.nullsFirst {
			return 1
		}
		return -1
	}
	c := compareValues(a, b)
	if f.desc {
		return -c
	}
	return c
}

// compareValues orders two non-null values of one type (values.go's Go
// forms). Floats follow the spec's order: -NaN < -Inf < ... < -0 < 0 < ...
// < Inf < NaN.
func compareValues(a, b any) int {
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case int32:
		return cmp.Compare(x, b.(int32))
	case int64:
		return cmp.Compare(x, b.(int64))
	case float32:
		return cmp.Compare(floatOrder(float64(x)), floatOrder(float64(b.(float32))))
	case float64:
		return cmp.Compare(floatOrder(x), floatOrder(b.(float64)))
	case string:
		return cmp.Compare(x, b.(string))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	case [16]byte:
		y := b.([16]byte)
		return bytes.Compare(x[:], y[:])
	case catalog.Decimal:
		return x.Unscaled.Cmp(b.(catalog.Decimal).Unscaled)
	}
	return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

// floatOrder maps a float to an integer with the spec's total order.
func floatOrder(f float64) int64 {
	bits := math.Float64bits(f)
	if bits>>63 != 0 {
		return -int64(bits&^(1<<63)) - 1
	}
	return int64(bits)
}
