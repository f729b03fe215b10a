package opt

import (
	"math"
	"slices"
	"testing"
)

// TestJoinStepNDV: an equality whose columns have distinct counts keeps
// 1/max(ndv) of the cross product; one without falls back on the row
// counts, and so do two leaves linked by two equalities.
func TestJoinStepNDV(t *testing.T) {
	cases := []struct {
		name string
		sel  ndvSel // nil: no counts
		want float64
	}{
		{"row counts: the smaller table's rows per key", nil, 1e6},
		{"ndv of a key column", ndvSel{{0, 1}: 1.0 / 1e6}, 1e6},
		{"ndv of a column of 10 values", ndvSel{{0, 1}: 1.0 / 10}, 1e11},
		{"an equality without counts", ndvSel{{0, 1}: 0}, 1e6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGraph([]float64{1e6, 1e6}, [][2]int{{0, 1}})
			g.sel = c.sel
			rows, _ := g.step(g.rows[0], g.base[0], 1, 1)
			if math.Abs(rows-c.want) > c.want*1e-9 {
				t.Errorf("rows = %g, want %g", rows, c.want)
			}
		})
	}
	s := ndvSel{}
	s.add(0, 1, 0.5)
	if got := s[pair(0, 1)]; got != 0.5 {
		t.Errorf("one equality: selectivity %g, want 0.5", got)
	}
	s.add(1, 0, 0.1)
	if got := s[pair(0, 1)]; got != 0 {
		t.Errorf("two equalities: selectivity %g, want 0 (unknown: a pair of columns' count is not the product)", got)
	}
}

// TestJoinOrderNDV: a fact table joined with three filtered dimensions
// (each keeps a tenth of it) and with a table of as many rows on a column
// of ten distinct values. Row counts take that column for a key and see
// no harm in joining the big table early; its distinct counts put it
// last, after the dimensions have cut the fact table down, and the
// search finds the cheapest order.
func TestJoinOrderNDV(t *testing.T) {
	g := testGraph([]float64{1e5, 1e5, 1, 1, 1}, [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}})
	for i := 2; i <= 4; i++ {
		g.base[i] = 10
	}
	rowsOrder := g.exactOrder()
	g.sel = ndvSel{{0, 1}: 1.0 / 10, {0, 2}: 1.0 / 10, {0, 3}: 1.0 / 10, {0, 4}: 1.0 / 10}
	order := g.exactOrder()
	if order[len(order)-1] != 1 {
		t.Errorf("order %v: want leaf 1 (ten distinct keys) joined last", order)
	}
	if slices.Equal(order, rowsOrder) {
		t.Errorf("distinct counts chose the order row counts chose, %v", order)
	}
	if got, want := g.cost(order), bruteCost(g); got != want {
		t.Errorf("cost %g, want the least %g", got, want)
	}
	if greedy := g.greedyOrder(); g.cost(greedy) != g.cost(order) {
		t.Errorf("greedy %v costs %g, exact %v %g", greedy, g.cost(greedy), order, g.cost(order))
	}
}
