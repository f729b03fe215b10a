package lower

import (
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// statsScan is a scan of a 10,000-row table whose columns 1, 2 and 3
// (field ids 1-3) have 1000, 50 and no recorded distinct counts.
func statsScan(first plan.ColID) *plan.Scan {
	md := &catalog.TableMetadata{Statistics: []catalog.StatisticsFile{{SnapshotID: 7, BlobMetadata: []byte(`[
		{"type": "apache-datasketches-theta-v1", "fields": [1], "properties": {"ndv": "1000"}},
		{"type": "apache-datasketches-theta-v1", "fields": [2], "properties": {"ndv": "50"}}]`)}}}
	return &plan.Scan{
		Table:    &catalog.Table{Metadata: md},
		Snapshot: &catalog.Snapshot{SnapshotID: 7, Summary: map[string]string{"total-records": "10000"}},
		FieldIDs: []int{1, 2, 3},
		Cols:     []plan.ColID{first, first + 1, first + 2},
	}
}

func TestGroupEstimate(t *testing.T) {
	c := func(id plan.ColID) expr.Expr { return &expr.Col{Idx: int(id), T: expr.Int8} }
	scan := statsScan(1)
	other := statsScan(11)
	cases := []struct {
		name   string
		in     plan.Rel
		groups []expr.Expr
		want   int64
	}{
		{"one counted column", scan, []expr.Expr{c(1)}, 1000},
		{"two columns multiply", scan, []expr.Expr{c(1), c(2)}, 10000},
		{"capped by the rows", scan, []expr.Expr{c(1), c(2), c(1)}, 10000},
		{"a column not counted", scan, []expr.Expr{c(1), c(3)}, 0},
		{"an expression", scan, []expr.Expr{call2("+", c(1), c(2))}, 0},
		{"through a projection", &plan.Project{In: scan, Exprs: []expr.Expr{c(2)}, Cols: []plan.ColID{20}}, []expr.Expr{c(20)}, 50},
		{"through a sort", &plan.Sort{In: scan}, []expr.Expr{c(1)}, 1000},
		{"not through a filter", &plan.Filter{In: scan, Pred: &expr.Lit{V: true, T: expr.Bool}}, []expr.Expr{c(1)}, 0},
		{"kept side of a left join", &plan.Join{Typ: plan.JoinLeft, Left: scan, Right: other}, []expr.Expr{c(1)}, 1000},
		{"not the other side", &plan.Join{Typ: plan.JoinLeft, Left: scan, Right: other}, []expr.Expr{c(11)}, 0},
		{"not an inner join", &plan.Join{Typ: plan.JoinInner, Left: scan, Right: other}, []expr.Expr{c(1)}, 0},
		{"no groups", scan, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := groupEstimate(&plan.Agg{In: tc.in, Groups: tc.groups}); got != tc.want {
				t.Fatalf("%d groups, want %d", got, tc.want)
			}
		})
	}
}

func call2(fn string, a, b expr.Expr) expr.Expr {
	return &expr.Call{Fn: fn, Args: []expr.Expr{a, b}, T: a.Type()}
}
