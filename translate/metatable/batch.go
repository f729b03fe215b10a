package metatable

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// Column is one column of a metadata table.
type Column struct {
	Name string
	Typ  plan.Type
}

// Batch builds the rows of a metadata table as one Arrow batch. Row
// values, per column type: nil for NULL; bool; int32; int64; string (text
// and jsonb); []byte (bytea); time.Time (timestamptz); []int64 (bigint[]);
// []int32 (integer[]).
func Batch(mem memory.Allocator, cols []Column, rows [][]any) (arrow.RecordBatch, error) {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: plan.ArrowOf(c.Typ), Nullable: true}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for ri, row := range rows {
		if len(row) != len(cols) {
			return nil, fmt.Errorf("row %d has %d values for %d columns", ri, len(row), len(cols))
		}
		for ci, v := range row {
			if err := syscat.AppendValue(b.Field(ci), v); err != nil {
				return nil, fmt.Errorf("column %s: %w", cols[ci].Name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}
