package exec

import (
	"context"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestAggSpillByInput: aggregations with aggregates that keep values
// (DISTINCT, ORDER BY in the call, string_agg, array_agg, ordered-set
// aggregates) spill their input rows by group past a small statement_mem
// and give exactly the groups of the aggregation in memory; one group
// larger than the limit still fails with 53200.
func TestAggSpillByInput(t *testing.T) {
	mem := checkedMem(t)
	input := replayable(t, mem, randomRows(30000, 7), []int{1000, 777, 1024, 3})
	f8 := func(v float64) expr.Expr { return lit(v, arrow.PrimitiveTypes.Float64) }
	aggs := []AggCall{
		{Fn: "count", Name: "n"},
		{Fn: "count", Arg: col(tG), Distinct: true, Name: "ndg"},
		{Fn: "sum", Arg: col(tV), Distinct: true, Name: "sdv"},
		{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{lit(",", expr.Text)}, Name: "ss"},
		{Fn: "array_agg", Arg: col(tD), OrderBy: []SortKey{{E: col(tX), Desc: true, NullsFirst: true}, {E: col(tID)}}, Filter: col(tB), Name: "ad"},
		{Fn: "percentile_cont", Args: []expr.Expr{f8(0.5)}, OrderBy: []SortKey{{E: col(tX)}}, Name: "px"},
		{Fn: "percentile_disc", Args: []expr.Expr{f8(0.3)}, OrderBy: []SortKey{{E: col(tS), Desc: true}}, Name: "ps"},
		{Fn: "avg", Arg: col(tD), Name: "avgd"},
	}
	id30 := call("/", col(tID), lit(int32(30), col(tID).Type()))
	cases := []struct {
		name   string
		groups []expr.Expr
		small  int64 // a limit that makes the partitions spill again
	}{
		{"id/30", []expr.Expr{id30}, 64 << 10},
		// A tenth of the rows have a NULL s (groups of 1000 rows) or a
		// NULL g (one group of 3000 rows).
		{"text and bool", []expr.Expr{col(tS), col(tB)}, 256 << 10},
		{"int with NULLs", []expr.Expr{col(tG)}, 512 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op, err := NewHashAggregate(input(), c.groups, aggs)
			if err != nil {
				t.Fatal(err)
			}
			want, err := drain(context.Background(), t, op)
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(want)
			for _, limit := range []int64{c.small, 1 << 20} {
				e := newSpillEnv(t, limit, -1)
				op, err := NewHashAggregate(input(), c.groups, aggs)
				if err != nil {
					t.Fatal(err)
				}
				got, err := drain(e.ctx, t, op)
				if err != nil {
					t.Fatalf("limit %d: %v", limit, err)
				}
				if op.(spiller).SpilledBytes() == 0 {
					t.Errorf("limit %d: the aggregation did not spill", limit)
				}
				sort.Strings(got)
				if len(got) != len(want) {
					t.Fatalf("limit %d: %d groups, want %d", limit, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("limit %d: group %s, want %s", limit, got[i], want[i])
					}
				}
				e.checkClean(t)
			}
		})
	}
	t.Run("one group too large", func(t *testing.T) {
		e := newSpillEnv(t, 64<<10, -1)
		op, err := NewHashAggregate(input(), []expr.Expr{col(tB)}, aggs[3:4])
		if err != nil {
			t.Fatal(err)
		}
		_, err = drain(e.ctx, t, op)
		if sqlstate(err) != pgerr.OutOfMemory {
			t.Fatalf("err %v, want 53200", err)
		}
		op.Close()
		e.checkClean(t)
	})
}
