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
	b.Run("int8_selective", benchSelectiveHashJoin)
}

// benchSelectiveHashJoin probes 1M rows against 100k unique build keys
// where one probe row in ten finds its partner, in no order (Q09's
// lineitem against the parts of one colour).
func benchSelectiveHashJoin(b *testing.B) {
	const probeRows, buildRows = 1_000_000, 100_000
	schema := joinBenchSchema(expr.Int8)
	r := rand.New(rand.NewSource(1))
	want := 0
	probe := joinBenchBatches(schema, probeRows, func(int) int64 {
		k := r.Int63n(10 * buildRows)
		if k%10 == 0 {
			want++
		}
		return k
	})
	perm := r.Perm(buildRows)
	build := joinBenchBatches(schema, buildRows, func(i int) int64 { return 10 * int64(perm[i]) })
	k := &expr.Col{Idx: 0, Name: "k", T: expr.Int8}
	spec := JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{k}, RightKeys: []expr.Expr{k}}
	runJoinBench(b, probe, build, schema, spec, NewHashJoin, want, probeRows)
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

// BenchmarkJoinResidualPairs is TPC-H Q21's EXISTS shape: 1M probe rows
// each with four candidates among 400k build rows (100k keys), kept by
// the residual l.v <> r.v, a semi join. "pairs" checks the residual on
// the candidate pairs directly, "engine" gathers them and evaluates it;
// "pairs_build_left" holds the probe rows and streams the others past.
func BenchmarkJoinResidualPairs(b *testing.B) {
	const probeRows, keys = 1_000_000, 100_000
	schema := joinBenchSchema(expr.Int8)
	r := rand.New(rand.NewSource(1))
	type kv struct{ k, v int64 }
	probeVals := make([]kv, probeRows)
	for i := range probeVals {
		probeVals[i] = kv{r.Int63n(keys), r.Int63n(4)}
	}
	buildVals := make([]kv, 4*keys)
	vs := map[int64]map[int64]bool{}
	for i := range buildVals {
		buildVals[i] = kv{int64(i % keys), r.Int63n(3)}
		if vs[buildVals[i].k] == nil {
			vs[buildVals[i].k] = map[int64]bool{}
		}
		vs[buildVals[i].k][buildVals[i].v] = true
	}
	want := 0
	for _, p := range probeVals {
		for v := range vs[p.k] {
			if v != p.v {
				want++
				break
			}
		}
	}
	batches := func(vals []kv) []arrow.RecordBatch {
		var out []arrow.RecordBatch
		for pos := 0; pos < len(vals); pos += 4096 {
			rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
			for _, x := range vals[pos:min(pos+4096, len(vals))] {
				rb.Field(0).(*array.Int64Builder).Append(x.k)
				rb.Field(1).(*array.Int64Builder).Append(x.v)
			}
			out = append(out, rb.NewRecordBatch())
			rb.Release()
		}
		return out
	}
	probe, build := batches(probeVals), batches(buildVals)
	k := &expr.Col{Idx: 0, Name: "k", T: expr.Int8}
	res := &expr.Call{Fn: "<>", Args: []expr.Expr{&expr.Col{Idx: 1, T: expr.Int8}, &expr.Col{Idx: 3, T: expr.Int8}}, T: expr.Bool}
	for _, mode := range []string{"pairs", "engine", "pairs_build_left"} {
		spec := JoinSpec{Type: JoinSemi, LeftKeys: []expr.Expr{k}, RightKeys: []expr.Expr{k}, Residual: res, BuildLeft: mode == "pairs_build_left"}
		b.Run(mode, func(b *testing.B) {
			newJoin := func(l, r engine.Operator, s JoinSpec, o ...expr.CompileOptions) (engine.Operator, error) {
				op, err := NewHashJoin(l, r, s, o...)
				if err == nil && mode == "engine" {
					op.(*joinOp).pairCmps = nil
				}
				return op, err
			}
			runJoinBench(b, probe, build, schema, spec, newJoin, want, probeRows)
		})
	}
}
