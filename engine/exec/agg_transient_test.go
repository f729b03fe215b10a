package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// TestRecycledArguments aggregates computed arguments over the test table
// in many small batches twice: under the default allocator, where the
// arguments of the aggregates that copy what they read come back in
// recycled buffers batch after batch, and under a checked allocator,
// which recycles nothing. The answers must be equal: an aggregate that
// kept values of a buffer handed out again would show the later batches'
// values. It also checks which arguments are evaluated as transient.
func TestRecycledArguments(t *testing.T) {
	dec := func(s string, p, sc int32) expr.Expr {
		return lit(catalogDecimal(s), &arrow.Decimal128Type{Precision: p, Scale: sc})
	}
	disc := call("*", col(tD), call("-", dec("1", 1, 0), col(tD)))
	vm := call("%", col(tV), i8(1000))
	upper := call("upper", call("||", col(tS), txt("!")))
	cases := []struct {
		name      string
		groups    []expr.Expr
		aggs      []AggCall
		transient []bool
	}{
		{"q1", byG, []AggCall{
			{Fn: "sum", Arg: disc},
			{Fn: "sum", Arg: call("*", disc, call("+", dec("1", 1, 0), col(tD)))},
			{Fn: "avg", Arg: disc, Filter: call("<", col(tID), i4(150))},
			{Fn: "count", Arg: disc},
			{Fn: "count"},
			{Fn: "min", Arg: disc},
			{Fn: "max", Arg: call("*", vm, i8(3))},
			{Fn: "stddev", Arg: call("+", vm, i8(1))},
			{Fn: "var_pop", Arg: disc},
			{Fn: "bool_or", Arg: call(">", col(tV), i8(0))},
		}, []bool{true, true, true, true, false, true, true, true, true, true}},
		{"values kept", byG, []AggCall{
			{Fn: "min", Arg: upper},
			{Fn: "max", Arg: upper},
			{Fn: "string_agg", Arg: upper, Args: []expr.Expr{txt(",")}},
			{Fn: "array_agg", Arg: call("*", vm, i8(2))},
			{Fn: "count", Arg: upper, Distinct: true},
			{Fn: "sum", Arg: call("*", vm, i8(2)), OrderBy: []SortKey{{E: col(tID)}}},
			{Fn: "sum", Arg: call("length", upper)},
		}, []bool{false, false, false, false, false, false, true}},
		{"computed keys", []expr.Expr{upper, call("%", col(tV), i8(3))}, []AggCall{
			{Fn: "sum", Arg: call("*", vm, i8(2))},
			{Fn: "max", Arg: upper},
		}, []bool{true, false}},
		{"no groups", nil, []AggCall{
			{Fn: "sum", Arg: disc},
			{Fn: "min", Arg: upper},
		}, []bool{true, false}},
	}
	rows := tableRows(t)
	for _, c := range cases {
		for bname, sizes := range batchSizes() {
			t.Run(c.name+"/"+bname, func(t *testing.T) {
				run := func(ctx context.Context, mem memory.Allocator) []string {
					src := NewBatches(tableSchema, makeBatches(t, mem, rows, sizes))
					op, err := NewHashAggregate(src, c.groups, c.aggs)
					if err != nil {
						t.Fatal(err)
					}
					if got := op.(*hashAggOp).transient; !slices.Equal(got, c.transient) {
						t.Errorf("transient %v, want %v", got, c.transient)
					}
					got, err := drainText(ctx, t, op)
					if err != nil {
						t.Fatal(err)
					}
					slices.Sort(got)
					return got
				}
				// Twice with recycling: the second run starts from
				// the buffers the first one left.
				var pooled []string
				for range 2 {
					pooled = run(context.Background(), memory.DefaultAllocator)
				}
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				want := run(expr.WithAllocator(context.Background(), mem), mem)
				if !slices.Equal(pooled, want) {
					t.Errorf("recycled:\n%v\nwant\n%v", pooled, want)
				}
			})
		}
	}
}
