package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// metaOut is a metadata column of a scan's output: its output index and
// its field.
type metaOut struct {
	out   int
	field catalog.NestedField
}

// metaColumns are the metadata columns a scan produces. When _deleted is
// one of them the scan keeps deleted rows and flags them, as Iceberg's
// readers do for that column; otherwise deletes drop rows and _deleted is
// false.
type metaColumns struct {
	cols        []metaOut
	markDeleted bool
}

// newMetaColumns finds the metadata columns among the projected field ids.
func newMetaColumns(spec engine.ScanSpec) metaColumns {
	var m metaColumns
	for i, id := range spec.FieldIDs {
		if !IsMetadataField(id) {
			continue
		}
		f := topField(spec, id)
		if f == nil {
			continue
		}
		m.cols = append(m.cols, metaOut{out: i, field: *f})
		if id == FieldIDDeleted {
			m.markDeleted = true
		}
	}
	return m
}

// fill sets out[c.out] for each metadata column, for a batch of n rows
// read from position first of task's file. del flags the deleted rows;
// dropped says whether they were removed from the batch.
func (m metaColumns) fill(mem memory.Allocator, task *catalog.FileScanTask, out []arrow.Array, first int64, del []bool, dropped bool) error {
	if len(m.cols) == 0 {
		return nil
	}
	rows := len(del)
	if dropped {
		rows -= countTrue(del)
	}
	for _, c := range m.cols {
		var a arrow.Array
		var err error
		switch c.field.ID {
		case FieldIDFile:
			a, err = constantArray(mem, c.field.Type, task.File.Path, rows)
		case FieldIDSpecID:
			a, err = constantArray(mem, c.field.Type, int32(task.File.SpecID), rows)
		case FieldIDPartition:
			a, err = constantArray(mem, c.field.Type, partitionValue(task), rows)
		case FieldIDPos:
			a = positionArray(mem, first, del, dropped)
		case FieldIDDeleted:
			a = deletedArray(mem, del, dropped)
		default:
			err = fmt.Errorf("unknown metadata column %d", c.field.ID)
		}
		if err != nil {
			return fmt.Errorf("metadata column %s: %w", c.field.Name, err)
		}
		out[c.out] = a
	}
	return nil
}

// positionArray holds the file positions of the batch's rows (without the
// deleted ones when dropped).
func positionArray(mem memory.Allocator, first int64, del []bool, dropped bool) arrow.Array {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Reserve(len(del))
	for j, d := range del {
		if dropped && d {
			continue
		}
		b.UnsafeAppend(first + int64(j))
	}
	return b.NewArray()
}

// deletedArray is _deleted for the batch: the delete flags when deleted
// rows are kept, else false for every remaining row.
func deletedArray(mem memory.Allocator, del []bool, dropped bool) arrow.Array {
	b := array.NewBooleanBuilder(mem)
	defer b.Release()
	if dropped {
		b.AppendValues(make([]bool, len(del)-countTrue(del)), nil)
	} else {
		b.AppendValues(del, nil)
	}
	return b.NewArray()
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// inheritLineage fills the nulls of the row lineage columns among out
// (as read from the file, rows first.. of it, del and dropped as for
// fill) with the values the rows inherit: first_row_id plus position, and
// the file's data sequence number. Without a first_row_id (a file added
// before the table was format 3, not yet given one) _row_id stays null,
// and so do both for a file a transaction added and has not committed
// (its values are not final; a writer that moves such rows leaves them
// to be assigned by the commit).
func (s *scanRun) inheritLineage(task *catalog.FileScanTask, out []arrow.Array, first int64, del []bool, dropped bool) error {
	if t := s.spec.Table; t != nil && t.Uncommitted[task.File.SnapshotID] {
		return nil
	}
	for i, id := range s.spec.FieldIDs {
		if !IsLineageField(id) || out[i] == nil {
			continue
		}
		col, ok := out[i].(*array.Int64)
		if !ok {
			return fmt.Errorf("row lineage column %d read as %s", id, out[i].DataType())
		}
		var base int64
		switch {
		case id == FieldIDLastUpdatedSeqNum:
			base = task.File.DataSequenceNumber
		case task.File.FirstRowID != nil:
			base = *task.File.FirstRowID
		default:
			continue
		}
		if col.NullN() == 0 {
			continue
		}
		b := array.NewInt64Builder(s.mem)
		b.Reserve(col.Len())
		r := 0
		for j := range del {
			if dropped && del[j] {
				continue
			}
			switch {
			case !col.IsNull(r):
				b.UnsafeAppend(col.Value(r))
			case id == FieldIDRowID:
				b.UnsafeAppend(base + first + int64(j))
			default:
				b.UnsafeAppend(base)
			}
			r++
		}
		if r != col.Len() {
			b.Release()
			return fmt.Errorf("row lineage column %d has %d rows, want %d", id, col.Len(), r)
		}
		out[i].Release()
		out[i] = b.NewArray()
		b.Release()
	}
	return nil
}
