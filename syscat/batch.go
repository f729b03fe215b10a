package syscat

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ArrowSchema is the Arrow schema of the table's batches.
func (t *Table) ArrowSchema() *arrow.Schema {
	fields := make([]arrow.Field, len(t.Columns))
	for i, c := range t.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: ArrowOf(c.Type), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// Batch computes the table's rows from s as one record batch.
//
// Row values, per column type: nil for NULL; bool; int16 / int32 / int64;
// uint32 or int64 for the oid family; float32 / float64; string for text,
// name, "char" and the other text-form types; time.Time for timestamptz;
// []int16 for int2vector and int2[]; []uint32 for oidvector and oid[];
// []string for text[], name[], aclitem[].
func (t *Table) Batch(ctx context.Context, mem memory.Allocator, s *Snapshot) (arrow.RecordBatch, error) {
	rows, err := t.Rows(ctx, s)
	if err != nil {
		return nil, err
	}
	schema := t.ArrowSchema()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for ri, row := range rows {
		if len(row) != len(t.Columns) {
			return nil, fmt.Errorf("%s.%s row %d: %d values for %d columns", t.Schema, t.Name, ri, len(row), len(t.Columns))
		}
		for ci, v := range row {
			if err := AppendValue(b.Field(ci), v); err != nil {
				return nil, fmt.Errorf("%s.%s column %s: %w", t.Schema, t.Name, t.Columns[ci].Name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// AppendValue appends a Go value in the forms Batch documents (also
// []int32 and []int64 lists) to b: the one conversion of catalog and
// metadata rows into Arrow.
func AppendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch b := b.(type) {
	case *array.BooleanBuilder:
		if x, ok := v.(bool); ok {
			b.Append(x)
			return nil
		}
	case *array.Int16Builder:
		if x, ok := v.(int16); ok {
			b.Append(x)
			return nil
		}
	case *array.Int32Builder:
		if x, ok := v.(int32); ok {
			b.Append(x)
			return nil
		}
	case *array.Int64Builder:
		switch x := v.(type) {
		case int64:
			b.Append(x)
			return nil
		case uint32:
			b.Append(int64(x))
			return nil
		}
	case *array.Float32Builder:
		if x, ok := v.(float32); ok {
			b.Append(x)
			return nil
		}
	case *array.Float64Builder:
		if x, ok := v.(float64); ok {
			b.Append(x)
			return nil
		}
	case *array.StringBuilder:
		if x, ok := v.(string); ok {
			b.Append(x)
			return nil
		}
	case *array.BinaryBuilder:
		if x, ok := v.([]byte); ok {
			b.Append(x)
			return nil
		}
	case *array.TimestampBuilder:
		if x, ok := v.(time.Time); ok {
			b.Append(arrow.Timestamp(x.UnixMicro()))
			return nil
		}
	case *array.ListBuilder:
		var elems []any
		switch x := v.(type) {
		case []int16:
			elems = anys(x)
		case []int32:
			elems = anys(x)
		case []int64:
			elems = anys(x)
		case []uint32:
			elems = anys(x)
		case []string:
			elems = anys(x)
		}
		if elems != nil { // anys never returns nil
			b.Append(true)
			for _, e := range elems {
				if err := AppendValue(b.ValueBuilder(), e); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return fmt.Errorf("value %v (%T) does not fit %s", v, v, b.Type())
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
