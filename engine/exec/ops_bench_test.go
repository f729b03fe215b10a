package exec

import (
	"context"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

var benchSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: expr.Int4, Nullable: true},
	{Name: "v", Type: expr.Int8, Nullable: true},
	{Name: "s", Type: expr.Text, Nullable: true},
}, nil)

// benchBatches makes n batches of 1024 rows: k in [0, groups), v random,
// s one of groups strings; 1 row in 16 NULL.
func benchBatches(mem memory.Allocator, n, groups int) []arrow.RecordBatch {
	r := rand.New(rand.NewSource(1))
	words := make([]string, groups)
	for i := range words {
		words[i] = "key-" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26))
	}
	out := make([]arrow.RecordBatch, n)
	for b := range out {
		rb := array.NewRecordBuilder(mem, benchSchema)
		for i := 0; i < 1024; i++ {
			if r.Intn(16) == 0 {
				rb.Field(0).AppendNull()
				rb.Field(1).AppendNull()
				rb.Field(2).AppendNull()
				continue
			}
			rb.Field(0).(*array.Int32Builder).Append(int32(r.Intn(groups)))
			rb.Field(1).(*array.Int64Builder).Append(r.Int63n(1_000_000))
			rb.Field(2).(*array.StringBuilder).Append(words[r.Intn(groups)])
		}
		out[b] = rb.NewRecordBatch()
		rb.Release()
	}
	return out
}

const benchBytesPerRow = 4 + 8 + 8

func runBench(b *testing.B, batches []arrow.RecordBatch, build func(engine.Operator) (engine.Operator, error)) {
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(int64(len(batches) * 1024 * benchBytesPerRow))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, bt := range batches {
			bt.Retain()
		}
		op, err := build(NewBatches(benchSchema, append([]arrow.RecordBatch(nil), batches...)))
		if err != nil {
			b.Fatal(err)
		}
		if err := op.Open(ctx); err != nil {
			b.Fatal(err)
		}
		for {
			bt, err := op.Next()
			if err != nil {
				b.Fatal(err)
			}
			if bt == nil {
				break
			}
		}
		op.Close()
	}
}

func benchCol(i int) expr.Expr {
	f := benchSchema.Field(i)
	return &expr.Col{Idx: i, Name: f.Name, T: f.Type}
}

func BenchmarkFilter(b *testing.B) {
	batches := benchBatches(memory.DefaultAllocator, 64, 100)
	pred := &expr.Call{Fn: "<", Args: []expr.Expr{benchCol(1), &expr.Lit{V: int64(500_000), T: expr.Int8}}, T: expr.Bool}
	runBench(b, batches, func(in engine.Operator) (engine.Operator, error) { return NewFilter(in, pred) })
}

func BenchmarkHashAggregate(b *testing.B) {
	for _, g := range []struct {
		name string
		key  int
		n    int
	}{{"int_100", 0, 100}, {"int_10000", 0, 10000}, {"text_1000", 2, 1000}} {
		b.Run(g.name, func(b *testing.B) {
			batches := benchBatches(memory.DefaultAllocator, 64, g.n)
			runBench(b, batches, func(in engine.Operator) (engine.Operator, error) {
				return NewHashAggregate(in, []expr.Expr{benchCol(g.key)}, []AggCall{
					{Fn: "count"}, {Fn: "sum", Arg: benchCol(1)}, {Fn: "min", Arg: benchCol(1)},
				})
			})
		})
	}
}

func BenchmarkSort(b *testing.B) {
	batches := benchBatches(memory.DefaultAllocator, 64, 1000)
	runBench(b, batches, func(in engine.Operator) (engine.Operator, error) {
		return NewSort(in, []SortKey{{E: benchCol(2)}, {E: benchCol(1), Desc: true, NullsFirst: true}})
	})
}

func BenchmarkTopN(b *testing.B) {
	batches := benchBatches(memory.DefaultAllocator, 64, 1000)
	runBench(b, batches, func(in engine.Operator) (engine.Operator, error) {
		return NewTopN(in, []SortKey{{E: benchCol(1)}}, 10)
	})
}
