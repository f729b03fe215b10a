package exec

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// TestTopNMatchesSort: ORDER BY ... LIMIT n keeps exactly the first n
// rows of the stable full sort, ties going to the earlier input row,
// whatever the limit, the keys (NULLs first or last, descending, several
// keys, many ties) and the batching, over more rows than the buffer the
// top-N compacts at.
func TestTopNMatchesSort(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	col := func(i int) expr.Expr {
		f := schema.Field(i)
		return &expr.Col{Idx: i, Name: f.Name, T: f.Type}
	}
	r := rand.New(rand.NewSource(3))
	makeInput := func(rows, distinct int, sizes []int) []arrow.RecordBatch {
		var out []arrow.RecordBatch
		id := int64(0)
		for k := 0; id < int64(rows); k++ {
			n := min(sizes[k%len(sizes)], rows-int(id))
			rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
			for range n {
				rb.Field(0).(*array.Int64Builder).Append(id)
				id++
				if r.Intn(20) == 0 {
					rb.Field(1).AppendNull()
				} else {
					rb.Field(1).(*array.Int64Builder).Append(int64(r.Intn(distinct)))
				}
				if r.Intn(25) == 0 {
					rb.Field(2).AppendNull()
				} else {
					rb.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("w%d", r.Intn(distinct)))
				}
			}
			out = append(out, rb.NewRecordBatch())
			rb.Release()
		}
		return out
	}
	run := func(batches []arrow.RecordBatch, build func(engine.Operator) (engine.Operator, error)) []string {
		t.Helper()
		for _, b := range batches {
			b.Retain()
		}
		op, err := build(NewBatches(schema, slices.Clone(batches)))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := drain(context.Background(), t, op)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	keySets := map[string][]SortKey{
		"k":                     {{E: col(1)}},
		"k desc nulls first":    {{E: col(1), Desc: true, NullsFirst: true}},
		"k nulls first, s desc": {{E: col(1), NullsFirst: true}, {E: col(2), Desc: true}},
		"s, k desc nulls last":  {{E: col(2)}, {E: col(1), Desc: true}},
	}
	for _, in := range []struct {
		name           string
		rows, distinct int
		sizes          []int
	}{
		{"many ties", 30000, 7, []int{1024}},
		{"few ties", 30000, 100000, []int{997, 3, 2048}},
		{"descending input", 20000, 1 << 30, []int{1000}},
	} {
		batches := makeInput(in.rows, in.distinct, in.sizes)
		for name, keys := range keySets {
			full := run(batches, func(src engine.Operator) (engine.Operator, error) { return NewSort(src, keys) })
			for _, limit := range []int64{0, 1, 10, 4095, 5000, 40000} {
				got := run(batches, func(src engine.Operator) (engine.Operator, error) { return NewTopN(src, keys, limit) })
				want := full[:min(int(limit), len(full))]
				if !slices.Equal(got, want) {
					t.Fatalf("%s, ORDER BY %s LIMIT %d: %d rows, first %q; the sort's first %d: %q",
						in.name, name, limit, len(got), got[:min(5, len(got))], len(want), want[:min(5, len(want))])
				}
			}
		}
		for _, b := range batches {
			b.Release()
		}
	}
}
