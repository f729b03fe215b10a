package opt

import (
	"math"
	"testing"
)

// testGraph builds a joinGraph from row counts (each leaf unfiltered:
// rows = base) and equality edges.
func testGraph(rows []float64, edges [][2]int) *joinGraph {
	n := len(rows)
	g := &joinGraph{n: n, rows: rows, base: rows, link: make([]uint64, n), touch: make([]uint64, n)}
	for _, e := range edges {
		g.link[e[0]] |= 1 << e[1]
		g.link[e[1]] |= 1 << e[0]
		g.touch[e[0]] |= 1 << e[1]
		g.touch[e[1]] |= 1 << e[0]
	}
	return g
}

// connected reports whether every leaf of order after the first is linked
// to one before it, and every leaf appears once.
func connected(g *joinGraph, order []int) bool {
	if len(order) != g.n {
		return false
	}
	var set uint64
	for k, i := range order {
		if set&(1<<i) != 0 || (k > 0 && g.link[i]&set == 0) {
			return false
		}
		set |= 1 << i
	}
	return true
}

// bruteCost is the least cost over every connected permutation.
func bruteCost(g *joinGraph) float64 {
	best := math.Inf(1)
	var rec func(order []int, used uint64)
	rec = func(order []int, used uint64) {
		if len(order) == g.n {
			if connected(g, order) {
				best = min(best, g.cost(order))
			}
			return
		}
		for i := 0; i < g.n; i++ {
			if used&(1<<i) == 0 {
				rec(append(order, i), used|1<<i)
			}
		}
	}
	rec(nil, 0)
	return best
}

func TestJoinOrderSearch(t *testing.T) {
	cases := []struct {
		name  string
		rows  []float64
		edges [][2]int
	}{
		{"chain big first", []float64{1e6, 20, 5000}, [][2]int{{0, 2}, {2, 1}}},
		{"star", []float64{6e6, 25, 1e4, 1.5e6, 1.5e5, 5}, [][2]int{{0, 2}, {0, 3}, {3, 4}, {4, 1}, {2, 1}, {1, 5}}},
		{"tpch q9 shape", []float64{6e6, 2e5, 1e4, 8e5, 1.5e6, 25}, [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 3}, {0, 4}, {2, 5}}},
		{"cycle", []float64{100, 1000, 10, 1e5, 50}, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}},
		{"disconnected", []float64{100, 1000, 10}, [][2]int{{0, 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGraph(c.rows, c.edges)
			want := bruteCost(g)
			exact, greedy := g.exactOrder(), g.greedyOrder()
			if math.IsInf(want, 1) {
				if exact != nil || greedy != nil {
					t.Fatalf("no connected order exists, got exact %v greedy %v", exact, greedy)
				}
				return
			}
			if !connected(g, exact) || !connected(g, greedy) {
				t.Fatalf("orders not connected: exact %v greedy %v", exact, greedy)
			}
			if got := g.cost(exact); got != want {
				t.Errorf("exact order %v costs %g, the cheapest costs %g", exact, got, want)
			}
			if g.cost(greedy) < want {
				t.Errorf("greedy order %v costs %g, below the cheapest %g", greedy, g.cost(greedy), want)
			}
			if today := g.linkedOrder(); len(today) != g.n {
				t.Errorf("linked order %v misses leaves", today)
			}
		})
	}
}
