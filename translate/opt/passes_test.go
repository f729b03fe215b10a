package opt

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// crossJoinFiltered is FROM (VALUES ...) a(x), (VALUES ...) b(y) WHERE
// a.x = b.y, as the binder builds it: a filter over a condition-less join.
func crossJoinFiltered() plan.Rel {
	i32 := arrow.PrimitiveTypes.Int32
	lit := func(v int32) expr.Expr { return &expr.Lit{V: v, T: i32} }
	left := &plan.Values{Rows: [][]expr.Expr{{lit(1)}, {lit(2)}}, Cols: []plan.ColID{0}}
	right := &plan.Values{Rows: [][]expr.Expr{{lit(2)}, {lit(3)}}, Cols: []plan.ColID{1}}
	eq := &expr.Call{Fn: "=", Args: []expr.Expr{&expr.Col{Idx: 0, T: i32}, &expr.Col{Idx: 1, T: i32}}, T: arrow.FixedWidthTypes.Boolean}
	return &plan.Filter{In: &plan.Join{Typ: plan.JoinInner, Left: left, Right: right}, Pred: eq}
}

func TestPassesByName(t *testing.T) {
	for _, c := range []struct {
		name     string
		disabled string
		joinCond bool // the equality became the join's condition
	}{
		{"all passes", "", true},
		{"without push-down", "push_down,push_down_joined", false},
		{"push-down once is enough here", "push_down_joined", true},
		{"others do not push", "order_joins, sink_semi_joins, restrict_keys", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ParseDisabled(c.disabled)
			if err != nil {
				t.Fatal(err)
			}
			in := crossJoinFiltered()
			out := Optimize(in, Config{Disabled: d})
			if _, ok := in.(*plan.Filter); !ok {
				t.Fatal("Optimize changed its input")
			}
			var join *plan.Join
			plan.Visit(out, func(r plan.Rel) {
				if j, ok := r.(*plan.Join); ok {
					join = j
				}
			})
			if join == nil {
				t.Fatal("no join in the optimized tree")
			}
			if got := join.Cond != nil; got != c.joinCond {
				t.Errorf("join condition present = %v, want %v", got, c.joinCond)
			}
			if n := len(Applied(Config{Disabled: d})); n != len(Passes())-len(d) {
				t.Errorf("Applied lists %d passes, want %d", n, len(Passes())-len(d))
			}
		})
	}
}

func TestParseDisabledRefusesUnknownPasses(t *testing.T) {
	_, err := ParseDisabled("push_down, pushdown")
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InvalidParameterValue {
		t.Fatalf("got %v, want 22023", err)
	}
}
