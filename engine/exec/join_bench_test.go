package exec

import (
	"context"
	"math/rand"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

func joinBenchSchema(kt arrow.DataType) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: kt, Nullable: true},
		{Name: "v", Type: expr.Int8, Nullable: true},
	}, nil)
}

// joinBenchBatches makes rows rows in batches of 1024: k from keys(i)
// (as text "k<n>" when the key type is text), v = i.
func joinBenchBatches(schema *arrow.Schema, rows int, keys func(i int) int64) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for pos := 0; pos < rows; pos += 1024 {
		n := min(1024, rows-pos)
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := pos; i < pos+n; i++ {
			switch kb := rb.Field(0).(type) {
			case *array.Int64Builder:
				kb.Append(keys(i))
			case *array.StringBuilder:
				kb.Append("k" + strconv.FormatInt(keys(i), 10))
			}
			rb.Field(1).(*array.Int64Builder).Append(int64(i))
		}
		out = append(out, rb.NewRecordBatch())
		rb.Release()
	}
	return out
}

// BenchmarkHashJoin probes 1M rows against a 100k-row build side on an
// int8 (Arrow int64) or text key; every probe row finds one partner.
func BenchmarkHashJoin(b *testing.B) {
	b.Run("int8", func(b *testing.B) { benchHashJoin(b, expr.Int8) })
	b.Run("text", func(b *testing.B) { benchHashJoin(b, expr.Text) })
}

// BenchmarkNestedLoopJoin joins 4k x 4k rows on l.v < r.v (8M of the 16M
// pairs match).
func BenchmarkNestedLoopJoin(b *testing.B) {
	const rows = 4096
	schema := joinBenchSchema(expr.Int8)
	side := joinBenchBatches(schema, rows, func(i int) int64 { return int64(i) })
	v := func(i int) expr.Expr { return &expr.Col{Idx: i, Name: "v", T: expr.Int8} }
	res := &expr.Call{Fn: "<", Args: []expr.Expr{v(1), v(3)}, T: expr.Bool}
	runJoinBench(b, side, side, schema, JoinSpec{Type: JoinInner, Residual: res}, NewNestedLoopJoin, rows*(rows-1)/2, rows*rows)
}

func benchHashJoin(b *testing.B, kt arrow.DataType) {
	const probeRows, buildRows = 1_000_000, 100_000
	schema := joinBenchSchema(kt)
	r := rand.New(rand.NewSource(1))
	probe := joinBenchBatches(schema, probeRows, func(int) int64 { return r.Int63n(buildRows) })
	perm := r.Perm(buildRows)
	build := joinBenchBatches(schema, buildRows, func(i int) int64 { return int64(perm[i]) })
	k := &expr.Col{Idx: 0, Name: "k", T: kt}
	spec := JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{k}, RightKeys: []expr.Expr{k}}
	runJoinBench(b, probe, build, schema, spec, NewHashJoin, probeRows, probeRows)
}

// runJoinBench joins probe with build and reports the input pairs (probe
// rows for a hash join) handled per second.
func runJoinBench(b *testing.B, probe, build []arrow.RecordBatch, schema *arrow.Schema, spec JoinSpec,
	newJoin func(l, r engine.Operator, s JoinSpec, o ...expr.CompileOptions) (engine.Operator, error), wantRows, work int) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	out := 0
	for i := 0; i < b.N; i++ {
		for _, bt := range probe {
			bt.Retain()
		}
		for _, bt := range build {
			bt.Retain()
		}
		op, err := newJoin(
			NewBatches(schema, append([]arrow.RecordBatch(nil), probe...)),
			NewBatches(schema, append([]arrow.RecordBatch(nil), build...)), spec)
		if err != nil {
			b.Fatal(err)
		}
		if err := op.Open(ctx); err != nil {
			b.Fatal(err)
		}
		out = 0
		for {
			bt, err := op.Next()
			if err != nil {
				b.Fatal(err)
			}
			if bt == nil {
				break
			}
			out += int(bt.NumRows())
		}
		op.Close()
	}
	b.StopTimer()
	if out != wantRows {
		b.Fatalf("joined %d rows, want %d", out, wantRows)
	}
	b.ReportMetric(float64(work)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkSemiJoinBuildSide joins 50k outer rows with 1M subquery rows
// (q04's shape: few outer rows, a large subquery; about 63% of the outer
// rows have partners) building on either side.
func BenchmarkSemiJoinBuildSide(b *testing.B) {
	const outerRows, innerRows = 50_000, 1_000_000
	schema := joinBenchSchema(expr.Int8)
	r := rand.New(rand.NewSource(1))
	outer := joinBenchBatches(schema, outerRows, func(i int) int64 { return int64(i) * 20 })
	inner := joinBenchBatches(schema, innerRows, func(int) int64 { return r.Int63n(outerRows * 20) })
	k := &expr.Col{Idx: 0, Name: "k", T: expr.Int8}
	for _, typ := range []JoinType{JoinSemi, JoinMark} {
		for _, left := range []bool{false, true} {
			name := typ.String() + "/build_right"
			if left {
				name = typ.String() + "/build_left"
			}
			want := outerRows
			if typ == JoinSemi {
				want = 31_737 // outer rows with a partner among the inner ones
			}
			b.Run(name, func(b *testing.B) {
				spec := JoinSpec{Type: typ, LeftKeys: []expr.Expr{k}, RightKeys: []expr.Expr{k}, BuildLeft: left}
				runJoinBench(b, outer, inner, schema, spec, NewHashJoin, want, innerRows)
			})
		}
	}
}
