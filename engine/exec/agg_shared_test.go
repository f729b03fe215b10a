package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// TestSharedAggregateArguments aggregates arguments that contain one
// another (TPC-H Q1's sums of price * (1 - discount) and of that times
// (1 + tax)) over the test table in batches of several sizes, and wants
// each group's values equal to those of every aggregate computed alone,
// which shares nothing; it checks which arguments were computed once, and
// that an error (overflow) is the same either way.
func TestSharedAggregateArguments(t *testing.T) {
	dec := func(s string, p, sc int32) expr.Expr {
		return lit(catalogDecimal(s), &arrow.Decimal128Type{Precision: p, Scale: sc})
	}
	disc := call("*", col(tD), call("-", dec("1", 1, 0), col(tD)))
	cases := []struct {
		name      string
		aggs      []AggCall
		providers []int // the aggregates computed for the others
	}{
		{"q1", []AggCall{
			{Fn: "sum", Arg: col(tD)},
			{Fn: "sum", Arg: disc},
			{Fn: "sum", Arg: call("*", disc, call("+", dec("1", 1, 0), col(tD)))},
			{Fn: "avg", Arg: disc, Filter: call("<", col(tID), i4(150))},
			{Fn: "count"},
			{Fn: "max", Arg: call("-", call("*", disc, call("+", dec("1", 1, 0), col(tD))), disc)},
		}, []int{1, 3, 2}},
		{"integers", []AggCall{
			{Fn: "sum", Arg: call("+", call("*", col(tV), i8(2)), col(tV))},
			{Fn: "sum", Arg: call("*", col(tV), i8(2))},
			{Fn: "min", Arg: call("*", call("+", call("*", col(tV), i8(2)), col(tV)), i8(3))},
			{Fn: "count", Arg: call("neg", call("*", col(tV), i8(2)))},
		}, []int{1, 0}},
		{"floats", []AggCall{
			{Fn: "sum", Arg: call("/", col(tX), f8(3))},
			{Fn: "avg", Arg: call("-", call("/", col(tX), f8(3)), col(tX))},
		}, []int{0}},
		{"functions are not shared", []AggCall{
			{Fn: "sum", Arg: call("length", col(tS))},
			{Fn: "sum", Arg: call("+", call("length", col(tS)), i4(1))},
		}, nil},
		{"overflow", []AggCall{
			{Fn: "sum", Arg: call("*", col(tV), i8(1<<40))},
			{Fn: "sum", Arg: call("+", call("*", col(tV), i8(1<<40)), i8(1))},
		}, []int{0}},
	}
	rows := tableRows(t)
	for _, c := range cases {
		for bname, sizes := range batchSizes() {
			t.Run(c.name+"/"+bname, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ctx := expr.WithAllocator(context.Background(), mem)
				src := func() engine.Operator { return NewBatches(tableSchema, makeBatches(t, mem, rows, sizes)) }
				run := func(aggs []AggCall) (map[string][]string, *hashAggOp) {
					op, err := NewHashAggregate(src(), byG, aggs)
					if err != nil {
						t.Fatal(err)
					}
					h := op.(*hashAggOp)
					got, err := drainText(ctx, t, op)
					out := map[string][]string{}
					if err != nil {
						out["error"] = []string{sqlstate(err)}
						return out, h
					}
					for _, r := range got {
						f := strings.Split(r, "|")
						out[f[0]] = f[1:]
					}
					return out, h
				}
				got, h := run(c.aggs)
				var providers []int
				if h.share != nil {
					providers = h.share.providers
				}
				if !equalInts(providers, c.providers) {
					t.Errorf("computed once: %v, want %v", providers, c.providers)
				}
				want := map[string][]string{}
				for _, a := range c.aggs {
					alone, h := run([]AggCall{a})
					if h.share != nil {
						t.Fatalf("one aggregate shares %v", h.share.providers)
					}
					for g, v := range alone {
						want[g] = append(want[g], v...)
					}
				}
				if e, ok := want["error"]; ok {
					want = map[string][]string{"error": e[:1]}
				}
				if len(got) != len(want) {
					t.Fatalf("%d groups, want %d: %v", len(got), len(want), got)
				}
				for g, w := range want {
					if strings.Join(got[g], "|") != strings.Join(w, "|") {
						t.Errorf("group %s: %v, want %v", g, got[g], w)
					}
				}
			})
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BenchmarkSharedArguments aggregates TPC-H Q1's two sums over 1M rows
// in two text groups: sum(q * (1 - q)) and sum(q * (1 - q) * (1 + q)),
// where the second reads the first one's array ("shared"), and the same
// work with the constant 1 of the second argument typed numeric(2,0) so
// that nothing is shared ("apart").
//
//	go test ./engine/exec -run '^$' -bench SharedArguments -count 6
func BenchmarkSharedArguments(b *testing.B) {
	const rows = 1 << 20
	q := groupBenchCol(1)
	one := func(p int32) expr.Expr {
		return lit(catalogDecimal("1"), &arrow.Decimal128Type{Precision: p, Scale: 0})
	}
	disc := func(p int32) expr.Expr { return call("*", q, call("-", one(p), q)) }
	keys := []expr.Expr{groupBenchCol(2), groupBenchCol(3)}
	batches := groupBenchBatches(rows, 10, false)
	for _, c := range []struct {
		name string
		p    int32
	}{{"shared", 1}, {"apart", 2}} {
		aggs := []AggCall{{Fn: "sum", Arg: disc(1)}, {Fn: "sum", Arg: call("*", disc(c.p), call("+", one(1), q))}}
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				for _, bt := range batches {
					bt.Retain()
				}
				op, err := NewHashAggregate(NewBatches(groupBenchSchema, append([]arrow.RecordBatch(nil), batches...)), keys, aggs)
				if err != nil {
					b.Fatal(err)
				}
				if shared := op.(*hashAggOp).share != nil; shared != (c.name == "shared") {
					b.Fatalf("shared = %v", shared)
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
		})
	}
}
