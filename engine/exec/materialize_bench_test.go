package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// BenchmarkMaterialized compares reading an aggregation's result twice
// through one Materialized with running the aggregation twice (what an
// inlined WITH query referenced twice does).
func BenchmarkMaterialized(b *testing.B) {
	rows := tableRows(b)
	var batches = makeBatches(b, memory.DefaultAllocator, rows, []int{50, 50, 100, 100})
	for i := 0; i < 5; i++ { // 1500 rows
		batches = append(batches, batches[:4]...)
	}
	agg := func() engine.Operator {
		op, err := NewHashAggregate(NewBatches(tableSchema, batches), []expr.Expr{col(tID)}, []AggCall{{Fn: "sum", Arg: col(tV), Name: "s"}})
		if err != nil {
			b.Fatal(err)
		}
		return op
	}
	ctx := context.Background()
	b.Run("twice", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for k := 0; k < 2; k++ {
				if _, err := drain(ctx, b, agg()); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("materialized", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			in := agg()
			m := NewMaterialized(in, in.Schema(), nil)
			r1, r2 := m.Reader(), m.Reader()
			for _, r := range []engine.Operator{r1, r2} {
				if _, err := drain(ctx, b, r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
