package translate

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// metaCol is one column of a metadata table.
type metaCol struct {
	name string
	typ  pgType
}

// metaBatch builds the rows of a metadata table as one Arrow batch. Row
// values, per column type: nil for NULL; bool; int32; int64; string (text
// and jsonb); []byte (bytea); time.Time (timestamptz); []int64 (bigint[]);
// []int32 (integer[]).
func metaBatch(mem memory.Allocator, cols []metaCol, rows [][]any) (arrow.RecordBatch, error) {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: arrowOf(c.typ), Nullable: true}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for ri, row := range rows {
		if len(row) != len(cols) {
			return nil, fmt.Errorf("row %d has %d values for %d columns", ri, len(row), len(cols))
		}
		for ci, v := range row {
			if err := appendMetaValue(b.Field(ci), v); err != nil {
				return nil, fmt.Errorf("column %s: %w", cols[ci].name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

func appendMetaValue(b array.Builder, v any) error {
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
	case *array.Int32Builder:
		if x, ok := v.(int32); ok {
			b.Append(x)
			return nil
		}
	case *array.Int64Builder:
		if x, ok := v.(int64); ok {
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
		switch x := v.(type) {
		case []int64:
			b.Append(true)
			vb := b.ValueBuilder().(*array.Int64Builder)
			for _, e := range x {
				vb.Append(e)
			}
			return nil
		case []int32:
			b.Append(true)
			vb := b.ValueBuilder().(*array.Int32Builder)
			for _, e := range x {
				vb.Append(e)
			}
			return nil
		}
	}
	return fmt.Errorf("value %v (%T) does not fit %s", v, v, b.Type())
}
