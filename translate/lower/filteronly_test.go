package lower

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// noRunEnv lowers without running subqueries.
type noRunEnv struct{}

func (noRunEnv) Location() *time.Location { return time.UTC }
func (noRunEnv) RunNow(context.Context, engine.Operator, int) ([]*expr.Lit, error) {
	return nil, nil
}

// TestFilterOnlyFlags: a filter moved into the scan below it flags the
// columns only its predicate reads (ScanSpec.FilterOnly), whatever sits
// above (projection, aggregation, join, sort, the result), and none that
// an operator above reads too.
func TestFilterOnlyFlags(t *testing.T) {
	q := &plan.ColTable{}
	add := func(name string, dt arrow.DataType) plan.ColID {
		return q.Add(plan.ColMeta{Name: name, ArrowType: dt})
	}
	// t(a1 bigint, a2 bigint, a3 text, a4 text), u(b1 bigint, b2 text)
	a1, a2 := add("a1", expr.Int8), add("a2", expr.Int8)
	a3, a4 := add("a3", arrow.BinaryTypes.String), add("a4", arrow.BinaryTypes.String)
	b1, b2 := add("b1", expr.Int8), add("b2", arrow.BinaryTypes.String)
	long := &catalog.PrimitiveType{ID: catalog.TLong}
	text := &catalog.PrimitiveType{ID: catalog.TString}
	tScan := func() *plan.Scan {
		return &plan.Scan{Table: &catalog.Table{Metadata: &catalog.TableMetadata{}}, Name: "t",
			Schema: &catalog.Schema{Fields: []catalog.NestedField{
				{ID: 1, Name: "a1", Type: long}, {ID: 2, Name: "a2", Type: long},
				{ID: 3, Name: "a3", Type: text}, {ID: 4, Name: "a4", Type: text}}},
			FieldIDs: []int{1, 2, 3, 4}, Cols: []plan.ColID{a1, a2, a3, a4}}
	}
	uScan := func() *plan.Scan {
		return &plan.Scan{Table: &catalog.Table{Metadata: &catalog.TableMetadata{}}, Name: "u",
			Schema:   &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "b1", Type: long}, {ID: 2, Name: "b2", Type: text}}},
			FieldIDs: []int{1, 2}, Cols: []plan.ColID{b1, b2}}
	}
	col := func(id plan.ColID) expr.Expr {
		m := q.Meta(id)
		return &expr.Col{Idx: int(id), Name: m.Name, T: m.ArrowType}
	}
	str := func(s string) expr.Expr { return &expr.Lit{V: s, T: arrow.BinaryTypes.String} }
	cmp := func(fn string, a, b expr.Expr) expr.Expr {
		return &expr.Call{Fn: fn, Args: []expr.Expr{a, b}, T: expr.Bool}
	}
	and := func(a, b expr.Expr) expr.Expr { return &expr.Call{Fn: "and", Args: []expr.Expr{a, b}, T: expr.Bool} }
	a3x := cmp("=", col(a3), str("x"))
	a4y := cmp("like", col(a4), str("y%"))
	sumA1 := add("sum", expr.Int8)
	cases := []struct {
		name string
		root plan.Rel
		out  []plan.ColID
		// want: per scan lowered (in order), the names of the columns
		// flagged filter-only, nil when none
		want [][]string
	}{
		{"the result reads a1", &plan.Filter{In: tScan(), Pred: a3x}, []plan.ColID{a1},
			[][]string{{"a3"}}},
		{"the result reads the filtered column", &plan.Filter{In: tScan(), Pred: a3x}, []plan.ColID{a1, a3},
			[][]string{nil}},
		{"a projection reads a4", &plan.Project{In: &plan.Filter{In: tScan(), Pred: and(a3x, a4y)},
			Exprs: []expr.Expr{col(a4)}, Cols: []plan.ColID{a4}}, []plan.ColID{a4},
			[][]string{{"a3"}}},
		{"an aggregation", &plan.Agg{In: &plan.Filter{In: tScan(), Pred: and(a3x, a4y)},
			Groups: []expr.Expr{col(a2)}, GroupCols: []plan.ColID{a2},
			Aggs: []plan.AggCall{{Fn: "sum", Arg: col(a1), Name: "sum", T: expr.Int8}}, AggCols: []plan.ColID{sumA1}},
			[]plan.ColID{a2, sumA1}, [][]string{{"a3", "a4"}}},
		{"an aggregation of the filtered column", &plan.Agg{In: &plan.Filter{In: tScan(), Pred: and(a3x, a4y)},
			Groups: []expr.Expr{col(a4)}, GroupCols: []plan.ColID{a4},
			Aggs: []plan.AggCall{{Fn: "sum", Arg: col(a1), Name: "sum", T: expr.Int8}}, AggCols: []plan.ColID{sumA1}},
			[]plan.ColID{a4, sumA1}, [][]string{{"a3"}}},
		{"a sort key", &plan.Sort{In: &plan.Filter{In: tScan(), Pred: and(a3x, a4y)}, Keys: []plan.SortKey{{E: col(a4)}}},
			[]plan.ColID{a1}, [][]string{{"a3"}}},
		{"a join key", &plan.Join{Typ: plan.JoinInner,
			Left:  &plan.Filter{In: tScan(), Pred: and(a3x, cmp("=", col(a1), &expr.Lit{V: int64(3), T: expr.Int8}))},
			Right: &plan.Filter{In: uScan(), Pred: cmp("<>", col(b2), str("z"))},
			Cond:  cmp("=", col(a2), col(b1))},
			[]plan.ColID{a4, b2}, [][]string{{"a1", "a3"}, nil}},
		{"a join residual", &plan.Join{Typ: plan.JoinInner,
			Left:  &plan.Filter{In: tScan(), Pred: a3x},
			Right: &plan.Filter{In: uScan(), Pred: cmp("<>", col(b2), str("z"))},
			Cond:  and(cmp("=", col(a2), col(b1)), cmp("<>", col(a3), col(b2)))},
			[]plan.ColID{a1}, [][]string{nil, nil}},
		{"a filter the scan cannot apply", &plan.Filter{In: tScan(),
			Pred: and(a3x, cmp("<", &expr.Call{Fn: "random", T: expr.Float8}, &expr.Lit{V: 0.5, T: expr.Float8}))},
			[]plan.ColID{a1}, [][]string{nil}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := New(context.Background(), noRunEnv{}, q)
			l.Stats = map[plan.Rel]*OpStats{} // records the scans
			cols := make([]pgtypes.Column, len(c.out))
			for i, id := range c.out {
				cols[i].Name = q.Meta(id).Name
			}
			op, err := l.Plan(&plan.Select{Root: c.root, Out: c.out, Cols: cols, ColTable: q})
			if err != nil {
				t.Fatal(err)
			}
			defer op.Close()
			var got [][]string
			for _, r := range l.ScanStats {
				spec := r.Scan.Spec()
				var names []string
				for i, f := range spec.FilterOnly {
					if f {
						names = append(names, r.Scan.Schema().Field(i).Name)
					}
				}
				if len(spec.Exact) == 0 && spec.FilterOnly != nil {
					t.Errorf("scan of %s: columns flagged without conjuncts", r.Rel.Name)
				}
				got = append(got, names)
			}
			if !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Errorf("filter-only columns %q, want %q", got, c.want)
			}
		})
	}
}
