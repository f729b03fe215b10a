package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// The window benchmarks run over 1M rows (1024 batches of 1024) in 1000
// partitions: k is the partition key, v the order key and summed value.
func benchWindow(b *testing.B, calls []WindowCall) {
	const nBatches = 1024
	batches := benchBatches(memory.DefaultAllocator, nBatches, 1000)
	runBench(b, batches, func(in engine.Operator) (engine.Operator, error) {
		return NewWindow(in, []expr.Expr{benchCol(0)}, []SortKey{{E: benchCol(1)}}, calls)
	})
	b.ReportMetric(float64(nBatches*1024)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// row_number() OVER (PARTITION BY k ORDER BY v)
func BenchmarkWindowRowNumber(b *testing.B) {
	benchWindow(b, []WindowCall{{Fn: "row_number", Frame: DefaultFrame()}})
}

// sum(v) OVER (PARTITION BY k ORDER BY v): the default RANGE frame, a
// running sum whose peers share the value.
func BenchmarkWindowRunningSum(b *testing.B) {
	benchWindow(b, []WindowCall{{Fn: "sum", Args: []expr.Expr{benchCol(1)}, Frame: DefaultFrame()}})
}
