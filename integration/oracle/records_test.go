package oracle

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/uuid"
)

// Row values for the tables the tests write: Go values in the Arrow
// builders' own types, nil for NULL, and the three nested shapes below.
type (
	structVal []any    // one value per struct field, in field order
	listVal   []any    // list elements
	mapVal    [][2]any // key/value pairs in order
)

// buildRecord turns rows into one Arrow record of schema sc.
func buildRecord(sc *arrow.Schema, rows [][]any) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for r, row := range rows {
		if len(row) != sc.NumFields() {
			return nil, fmt.Errorf("row %d has %d values for %d columns", r, len(row), sc.NumFields())
		}
		for c, v := range row {
			if err := appendValue(b.Field(c), v); err != nil {
				return nil, fmt.Errorf("row %d column %s: %w", r, sc.Field(c).Name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// appendValue appends v to the builder of its column; a value of the wrong
// Go type is an error.
func appendValue(bld array.Builder, v any) (err error) {
	if v == nil {
		bld.AppendNull()
		return nil
	}
	ok := true
	switch b := bld.(type) {
	case *array.BooleanBuilder:
		var x bool
		if x, ok = v.(bool); ok {
			b.Append(x)
		}
	case *array.Int32Builder:
		var x int32
		if x, ok = v.(int32); ok {
			b.Append(x)
		}
	case *array.Int64Builder:
		var x int64
		if x, ok = v.(int64); ok {
			b.Append(x)
		}
	case *array.Float32Builder:
		var x float32
		if x, ok = v.(float32); ok {
			b.Append(x)
		}
	case *array.Float64Builder:
		var x float64
		if x, ok = v.(float64); ok {
			b.Append(x)
		}
	case *array.Decimal128Builder:
		var x decimal128.Num
		if x, ok = v.(decimal128.Num); ok {
			b.Append(x)
		}
	case *array.Date32Builder:
		var x arrow.Date32
		if x, ok = v.(arrow.Date32); ok {
			b.Append(x)
		}
	case *array.Time64Builder:
		var x arrow.Time64
		if x, ok = v.(arrow.Time64); ok {
			b.Append(x)
		}
	case *array.TimestampBuilder:
		var x arrow.Timestamp
		if x, ok = v.(arrow.Timestamp); ok {
			b.Append(x)
		}
	case *array.StringBuilder:
		var x string
		if x, ok = v.(string); ok {
			b.Append(x)
		}
	case *array.LargeStringBuilder:
		var x string
		if x, ok = v.(string); ok {
			b.Append(x)
		}
	case *extensions.UUIDBuilder:
		var x uuid.UUID
		if x, ok = v.(uuid.UUID); ok {
			b.Append(x)
		}
	case *array.BinaryBuilder:
		var x []byte
		if x, ok = v.([]byte); ok {
			b.Append(x)
		}
	case *array.FixedSizeBinaryBuilder:
		var x []byte
		if x, ok = v.([]byte); ok {
			b.Append(x)
		}
	case *array.StructBuilder:
		var x structVal
		if x, ok = v.(structVal); ok {
			if len(x) != b.NumField() {
				return fmt.Errorf("struct value has %d fields, type has %d", len(x), b.NumField())
			}
			b.Append(true)
			for k, f := range x {
				if err := appendValue(b.FieldBuilder(k), f); err != nil {
					return err
				}
			}
		}
	case *array.MapBuilder:
		var x mapVal
		if x, ok = v.(mapVal); ok {
			b.Append(true)
			for _, kv := range x {
				if err := appendValue(b.KeyBuilder(), kv[0]); err != nil {
					return err
				}
				if err := appendValue(b.ItemBuilder(), kv[1]); err != nil {
					return err
				}
			}
		}
	case *array.ListBuilder:
		var x listVal
		if x, ok = v.(listVal); ok {
			b.Append(true)
			for _, e := range x {
				if err := appendValue(b.ValueBuilder(), e); err != nil {
					return err
				}
			}
		}
	default:
		return fmt.Errorf("no builder case for %T", bld)
	}
	if !ok {
		return fmt.Errorf("value %v (%T) does not fit builder %T", v, v, bld)
	}
	return nil
}
