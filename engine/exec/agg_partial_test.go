package exec

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// Two-phase aggregation over four parts gives what one aggregation over
// the whole table gives (itself checked against PostgreSQL): exactly for
// exact aggregates, to the last few bits for float ones (the order of
// additions differs, as in PostgreSQL's parallel plans).
func TestPartialAggregate(t *testing.T) {
	rows := tableRows(t)
	cases := []struct {
		name   string
		groups []expr.Expr
		aggs   []AggCall
		approx bool
	}{
		{"exact by g", byG, []AggCall{
			{Fn: "count"}, {Fn: "count", Arg: col(tS)}, {Fn: "sum", Arg: col(tV)}, {Fn: "avg", Arg: col(tV)}, {Fn: "sum", Arg: col(tID)},
			{Fn: "avg", Arg: col(tD)}, {Fn: "min", Arg: col(tS)}, {Fn: "max", Arg: col(tD)}, {Fn: "bool_and", Arg: col(tB)},
			{Fn: "every", Arg: col(tB), Filter: call(">", col(tV), i8(0))}, {Fn: "stddev", Arg: col(tV)}, {Fn: "var_pop", Arg: col(tD)},
			{Fn: "variance", Arg: call("/", col(tD), i4(7))}, {Fn: "max", Arg: col(tX)},
		}, false},
		{"exact, no groups", nil, []AggCall{{Fn: "count"}, {Fn: "sum", Arg: col(tD)}, {Fn: "stddev_samp", Arg: col(tID)}, {Fn: "bool_or", Arg: col(tB)}}, false},
		{"exact, nothing matches", nil, []AggCall{{Fn: "count"}, {Fn: "sum", Arg: col(tG), Filter: lit(false, expr.Bool)},
			{Fn: "var_samp", Arg: col(tV), Filter: lit(false, expr.Bool)}}, false},
		{"float by s", []expr.Expr{col(tS)}, []AggCall{
			{Fn: "sum", Arg: col(tX), Filter: call("<", col(tX), f8(1e10))}, {Fn: "avg", Arg: col(tX), Filter: call("<", col(tX), f8(1e10))},
			{Fn: "stddev", Arg: col(tX), Filter: call("<", col(tX), f8(1e10))}, {Fn: "var_pop", Arg: &expr.Cast{Arg: col(tV), T: expr.Float4}},
		}, true},
	}
	for _, c := range cases {
		for bname, sizes := range batchSizes() {
			t.Run(c.name+"/"+bname, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ctx := expr.WithAllocator(context.Background(), mem)
				whole, err := NewHashAggregate(NewBatches(tableSchema, makeBatches(t, mem, rows, sizes)), c.groups, c.aggs)
				if err != nil {
					t.Fatal(err)
				}
				want, err := drain(ctx, t, whole)
				if err != nil {
					t.Fatal(err)
				}
				var parts []engine.Operator
				for k := int32(0); k < 4; k++ {
					p, err := NewHashAggregatePartial(quarter(t, mem, rows, sizes, k), c.groups, c.aggs)
					if err != nil {
						t.Fatal(err)
					}
					parts = append(parts, p)
				}
				g, err := NewGather(parts)
				if err != nil {
					t.Fatal(err)
				}
				final, err := NewHashAggregateFinal(g, len(c.groups), c.aggs)
				if err != nil {
					t.Fatal(err)
				}
				if !final.Schema().Equal(whole.Schema()) {
					t.Errorf("final schema %s, whole %s", final.Schema(), whole.Schema())
				}
				got, err := drain(ctx, t, final)
				if err != nil {
					t.Fatal(err)
				}
				got, want = sortedCopy(got), sortedCopy(want)
				if !c.approx {
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("two phases differ from one\n%s", diff(got, want))
					}
					return
				}
				if len(got) != len(want) {
					t.Fatalf("%d rows, want %d", len(got), len(want))
				}
				for i := range got {
					if !closeRows(got[i], want[i]) {
						t.Errorf("row %d: %s, want about %s", i, got[i], want[i])
					}
				}
			})
		}
	}
}

// closeRows compares rows field by field, numbers to 1e-9 relative.
func closeRows(a, b string) bool {
	fa, fb := strings.Split(a, "|"), strings.Split(b, "|")
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if fa[i] == fb[i] {
			continue
		}
		x, err1 := strconv.ParseFloat(fa[i], 64)
		y, err2 := strconv.ParseFloat(fb[i], 64)
		if err1 != nil || err2 != nil || math.Abs(x-y) > 1e-9*math.Max(math.Abs(x), math.Abs(y)) {
			return false
		}
	}
	return true
}

func TestPartialAggregateRefuses(t *testing.T) {
	cases := []AggCall{
		{Fn: "count", Arg: col(tS), Distinct: true},
		{Fn: "array_agg", Arg: col(tID)},
		{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{txt(",")}},
		{Fn: "mode", OrderBy: []SortKey{{E: col(tS)}}},
		{Fn: "max", Arg: col(tS), OrderBy: []SortKey{{E: col(tID)}}},
	}
	for _, a := range cases {
		_, err := NewHashAggregatePartial(NewBatches(tableSchema, nil), nil, []AggCall{a})
		if sqlstate(err) != "0A000" {
			t.Errorf("%s: %v, want SQLSTATE 0A000", a.Fn, err)
		}
	}
}
