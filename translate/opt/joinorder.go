package opt

import (
	"math"
	"math/bits"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// costOrderMaxExact is the largest cluster of inner joins whose order
// costOrderJoins chooses among all connected left-deep orders; a larger
// one is ordered greedily.
const costOrderMaxExact = 10

// costOrderMinLeaves is the smallest cluster costOrderJoins orders. At
// TPC-H scale factor 1 the chosen orders of clusters of three and four
// tables (Q11, Q21) measured slower than order_joins' own, whose semi
// join reductions (reduce.go) already shrink the large table, and Q8's
// eight tables faster.
const costOrderMinLeaves = 5

// costOrderGain is how much cheaper than the order order_joins would
// build a chosen order must be estimated for costOrderJoins to use it:
// the estimates are rough, and an order no clearly better is not worth
// the risk of a worse one.
const costOrderGain = 2

// costOrderJoins puts the leaves of each cluster of inner joins in the
// order, among the left-deep orders in which every join has a condition
// linking it to the tables joined before, that keeps the sum of the
// estimated intermediate row counts least. The pass order_joins, which
// runs next, keeps an order whose every step is linked, so it then
// builds the joins in this order. A cluster with a leaf whose size is
// not known from table statistics (a snapshot's total-records) keeps
// its order, as does one whose best order is not clearly cheaper.
func costOrderJoins(r plan.Rel) plan.Rel {
	j, ok := r.(*plan.Join)
	if !ok || j.Typ != plan.JoinInner || j.Apply {
		return plan.MapChildren(r, costOrderJoins)
	}
	var leaves []plan.Rel
	var conds []expr.Expr
	var flatten func(r plan.Rel)
	flatten = func(r plan.Rel) {
		if j, ok := r.(*plan.Join); ok && j.Typ == plan.JoinInner && !j.Apply {
			flatten(j.Left)
			flatten(j.Right)
			conds = append(conds, plan.Conjuncts(j.Cond)...)
			return
		}
		leaves = append(leaves, costOrderJoins(r))
	}
	flatten(j)
	rebuilt := func(order []int) plan.Rel {
		cur := leaves[order[0]]
		for _, i := range order[1:] {
			cur = &plan.Join{Typ: plan.JoinInner, Left: cur, Right: leaves[i]}
		}
		cur.(*plan.Join).Cond = plan.AndOf(conds)
		return cur
	}
	if len(leaves) < costOrderMinLeaves {
		return keepOrder(j, leaves)
	}
	g := newJoinGraph(leaves, conds)
	if g == nil || g.cyclic() {
		return keepOrder(j, leaves)
	}
	today := g.linkedOrder()
	var best []int
	if len(leaves) <= costOrderMaxExact {
		best = g.exactOrder()
	} else {
		best = g.greedyOrder()
	}
	if best == nil || g.cost(best)*costOrderGain > g.cost(today) {
		return keepOrder(j, leaves)
	}
	return rebuilt(best)
}

// keepOrder is the cluster of inner joins r as written, with its leaves
// replaced, in the order flatten met them, by leaves.
func keepOrder(r plan.Rel, leaves []plan.Rel) plan.Rel {
	next := 0
	var walk func(r plan.Rel) plan.Rel
	walk = func(r plan.Rel) plan.Rel {
		if j, ok := r.(*plan.Join); ok && j.Typ == plan.JoinInner && !j.Apply {
			nj := *j
			nj.Left = walk(j.Left)
			nj.Right = walk(j.Right)
			return &nj
		}
		next++
		return leaves[next-1]
	}
	return walk(r)
}

// joinGraph is what costOrderJoins knows of a cluster: each leaf's
// estimated rows and base table rows, and which leaves an equality
// links.
type joinGraph struct {
	rows, base []float64
	// link[i] has bit k set when a condition with equi keys links leaf
	// i with leaf k alone; touch[i] when any condition refers to both.
	link, touch []uint64
	n           int
	// sel is the selectivity of the equalities linking two leaves from
	// their columns' distinct counts (joinorder_ndv.go); nil when no
	// leaf has any.
	sel ndvSel
}

// newJoinGraph returns nil when a leaf's size is not known from table
// statistics or the cluster is too large for the bit sets.
func newJoinGraph(leaves []plan.Rel, conds []expr.Expr) *joinGraph {
	n := len(leaves)
	if n > 64 {
		return nil
	}
	g := &joinGraph{n: n, rows: make([]float64, n), base: make([]float64, n), link: make([]uint64, n), touch: make([]uint64, n)}
	cols := make([]plan.ColSet, n)
	for i, leaf := range leaves {
		if !sizeKnown(leaf) {
			return nil
		}
		g.rows[i], g.base[i] = plan.Estimate(leaf)
		cols[i] = plan.SetOf(plan.ProducedCols(leaf))
	}
	for _, c := range conds {
		refs := plan.RefsOf(c)
		var in uint64
		for i := range leaves {
			if refs.Intersects(cols[i]) {
				in |= 1 << i
			}
		}
		for i := range leaves {
			if in&(1<<i) != 0 {
				g.touch[i] |= in &^ (1 << i)
			}
		}
		if bits.OnesCount64(in) != 2 {
			continue
		}
		a := bits.TrailingZeros64(in)
		b := 63 - bits.LeadingZeros64(in)
		if lk, rk, _, ok := plan.EquiKey(c, cols[a], cols[b]); ok {
			g.link[a] |= 1 << b
			g.link[b] |= 1 << a
			if g.sel == nil {
				g.sel = ndvSel{}
			}
			g.sel.add(a, b, equiSel(leaves[a], leaves[b], lk, rk, g.rows[a], g.rows[b]))
		}
	}
	return g
}

// cyclic reports whether conditions link the leaves in a cycle (TPC-H
// Q5: customer and supplier of the same nation). Without distinct
// counts a join's estimate assumes one side's column is a key, which
// the equality closing a cycle seldom is (c_nationkey = s_nationkey):
// such a cluster keeps the order order_joins gives it.
func (g *joinGraph) cyclic() bool {
	edges := 0
	for _, t := range g.touch {
		edges += bits.OnesCount64(t)
	}
	return edges/2 >= g.n
}

// sizeKnown reports whether every table r reads has its row count in
// its snapshot's summary.
func sizeKnown(r plan.Rel) bool {
	switch x := r.(type) {
	case *plan.Scan:
		if x.Snapshot == nil {
			return false
		}
		_, ok := plan.SummaryInt(x.Snapshot.Summary, "total-records")
		return ok
	case *plan.Values, *plan.OneRow:
		return true
	case plan.Leaf:
		return false
	}
	kids := plan.Children(r)
	if len(kids) == 0 {
		return false
	}
	for _, k := range kids {
		if !sizeKnown(k) {
			return false
		}
	}
	return true
}

// step is the estimated rows and base of joining leaf i to a prefix of
// rows and base over the leaves in set: an equi join whose columns have
// distinct counts keeps 1/max(ndv) of the cross product (ndvStep); one without keeps each side's rows in the proportion the
// other keeps of its base (the smaller base, the table referred to, has
// about one row per key); without an equality it is a cross product.
func (g *joinGraph) step(rows, base float64, set uint64, i int) (float64, float64) {
	if g.link[i]&set != 0 {
		if r, ok := g.ndvStep(rows, set, i); ok {
			return r, max(base, g.base[i])
		}
		return rows * g.rows[i] / max(min(base, g.base[i]), 1), max(base, g.base[i])
	}
	return rows * g.rows[i], base * g.base[i]
}

// cost is the sum of the estimated intermediate row counts of joining
// the leaves in order, left-deep, and of the inputs each join builds
// its hash table from (the smaller).
func (g *joinGraph) cost(order []int) float64 {
	rows, base := g.rows[order[0]], g.base[order[0]]
	set := uint64(1) << order[0]
	total := 0.0
	for k, i := range order[1:] {
		total += min(rows, g.rows[i])
		rows, base = g.step(rows, base, set, i)
		set |= 1 << i
		if k < len(order)-2 {
			total += rows
		}
	}
	return total
}

// linkedOrder is the order order_joins builds from the leaves as they
// are: each next leaf the first that a condition links to those joined.
func (g *joinGraph) linkedOrder() []int {
	order := []int{0}
	set := uint64(1)
	for len(order) < g.n {
		pick := -1
		for i := 0; i < g.n; i++ {
			if set&(1<<i) == 0 && g.touch[i]&set != 0 {
				pick = i
				break
			}
		}
		if pick < 0 {
			for i := 0; i < g.n; i++ {
				if set&(1<<i) == 0 {
					pick = i
					break
				}
			}
		}
		order = append(order, pick)
		set |= 1 << pick
	}
	return order
}

// exactOrder is the cheapest left-deep order in which every leaf after
// the first is linked by an equality to the leaves before it, by
// dynamic programming over the sets of leaves joined; nil when there is
// none (a cluster that needs a cross product keeps its order).
func (g *joinGraph) exactOrder() []int {
	type state struct {
		cost, rows, base float64
		last             int
		prev             uint64
		ok               bool
	}
	full := uint64(1)<<g.n - 1
	dp := make([]state, full+1)
	for i := 0; i < g.n; i++ {
		dp[1<<i] = state{rows: g.rows[i], base: g.base[i], last: i, ok: true}
	}
	for set := uint64(1); set <= full; set++ {
		s := dp[set]
		if !s.ok {
			continue
		}
		for i := 0; i < g.n; i++ {
			if set&(1<<i) != 0 || g.link[i]&set == 0 {
				continue
			}
			rows, base := g.step(s.rows, s.base, set, i)
			c := s.cost + min(s.rows, g.rows[i])
			next := set | 1<<i
			if next != full {
				c += rows
			}
			if d := dp[next]; !d.ok || c < d.cost {
				dp[next] = state{cost: c, rows: rows, base: base, last: i, prev: set, ok: true}
			}
		}
	}
	if !dp[full].ok {
		return nil
	}
	order := make([]int, g.n)
	for set, k := full, g.n-1; k >= 0; k-- {
		s := dp[set]
		order[k] = s.last
		set = s.prev
	}
	return order
}

// greedyOrder starts from each leaf in turn and adds the linked leaf
// that keeps the next intermediate result smallest, returning the
// cheapest of those orders; nil when every start needs a cross product.
func (g *joinGraph) greedyOrder() []int {
	var best []int
	bestCost := math.Inf(1)
	for start := 0; start < g.n; start++ {
		order := []int{start}
		set := uint64(1) << start
		rows, base := g.rows[start], g.base[start]
		for len(order) < g.n {
			pick, pr, pb := -1, 0.0, 0.0
			for i := 0; i < g.n; i++ {
				if set&(1<<i) != 0 || g.link[i]&set == 0 {
					continue
				}
				r, b := g.step(rows, base, set, i)
				if pick < 0 || r < pr {
					pick, pr, pb = i, r, b
				}
			}
			if pick < 0 {
				break
			}
			order = append(order, pick)
			set |= 1 << pick
			rows, base = pr, pb
		}
		if len(order) == g.n {
			if c := g.cost(order); c < bestCost {
				best, bestCost = order, c
			}
		}
	}
	return best
}
