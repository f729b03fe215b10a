package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
)

// TestPairComparisons checks which residuals TestJoin's cases check on
// the pairs directly, so that those cases cover that path, and that the
// others keep to the expression engine.
func TestPairComparisons(t *testing.T) {
	ls, rs := joinSideSchema("l_", false), joinSideSchema("r_", false)
	want := map[string]int{"p_lt_p": 1, "k_ne_k": 1, "rk_gt_lk_and_p_ge_p": 2, "p_eq_p_and_k_le_k": 2}
	for _, res := range joinResiduals {
		if res.e == nil {
			continue
		}
		got := len(pairComparisons(res.e(ls, rs), 2*jWidth))
		if got != want[res.name] {
			t.Errorf("%s: %d comparisons on the pairs, want %d", res.name, got, want[res.name])
		}
	}
	k := func(i int) expr.Expr { return &expr.Col{Idx: i, T: expr.Int8} }
	others := []struct {
		name string
		e    expr.Expr
	}{
		{"one side a constant", call("<", k(1), lit(int64(3), expr.Int8))},
		{"int4 against int8", &expr.Call{Fn: "<", Args: []expr.Expr{&expr.Col{Idx: 4, T: expr.Int4}, k(6)}, T: expr.Bool}},
		{"numeric", call("<", sideCol(ls, jD, 0), sideCol(rs, jD, jWidth))},
		{"or", call("or", call("<", k(1), k(6)), call(">", k(1), k(6)))},
		{"and with an arithmetic side", call("and", call("<", k(1), k(6)), call("<", call("+", k(1), k(6)), k(6)))},
		{"out of range", &expr.Call{Fn: "<", Args: []expr.Expr{k(1), k(2 * jWidth)}, T: expr.Bool}},
	}
	for _, c := range others {
		if p := pairComparisons(c.e, 2*jWidth); p != nil {
			t.Errorf("%s: %d comparisons on the pairs, want none", c.name, len(p))
		}
	}
	if pairComparable(arrow.BinaryTypes.String) || !pairComparable(expr.Date) {
		t.Errorf("pairComparable: text or date misjudged")
	}
}
