package opt

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// Distinct counts for cost_order_joins: an equality a.x = b.y between two
// leaves (the only one between them) keeps 1 / max(ndv(x), ndv(y)) of
// their cross product, each count being the column's distinct values in
// its table's statistics file (the Puffin theta sketches CALL
// system.compute_table_stats writes for the scanned snapshot), at most
// the leaf's estimated rows (a filtered leaf keeps fewer distinct
// values). An equality whose columns have no counts falls back on the
// row counts (joinGraph.step).

// ndvSel is the selectivity of the equality linking two leaves from the
// distinct counts of its columns, or 0 when they have none or more than
// one equality links the leaves: the distinct count of a pair of columns
// is not the product of theirs (TPC-H's partsupp is keyed by
// (ps_partkey, ps_suppkey), and lineitem's rows each find one of its
// rows, where the product of the counts would have one in 2.5 thousand
// find one), so such a pair keeps the estimate from row counts.
type ndvSel map[[2]int]float64

// pair is the key of leaves a and b in either order.
func pair(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// add records an equality between leaves a and b: sel its selectivity,
// 0 when unknown. A second equality between them makes the pair's
// unknown.
func (s ndvSel) add(a, b int, sel float64) {
	k := pair(a, b)
	if _, seen := s[k]; seen {
		sel = 0
	}
	s[k] = sel
}

// equiSel is the selectivity of the equality lk = rk between leaves l and
// r from the distinct counts of their columns; 0 when either is unknown.
func equiSel(l, r plan.Rel, lk, rk expr.Expr, lrows, rrows float64) float64 {
	ln, rn := columnNDV(l, lk), columnNDV(r, rk)
	if ln <= 0 || rn <= 0 {
		return 0
	}
	return 1 / max(min(ln, lrows), min(rn, rrows), 1)
}

// columnNDV is the distinct count of the table column e is, reached
// through filters and projections that pass it on; 0 when e is not such
// a column or its table's statistics do not count it.
func columnNDV(r plan.Rel, e expr.Expr) float64 {
	c, ok := e.(*expr.Col)
	if !ok {
		return 0
	}
	id := plan.ColID(c.Idx)
	for {
		switch x := r.(type) {
		case *plan.Filter:
			r = x.In
			continue
		case *plan.Project:
			in, ok := x.PassedOn(id)
			if !ok {
				return 0
			}
			id, r = in, x.In
			continue
		case *plan.Scan:
			return x.ColumnNDV(id)
		}
		return 0
	}
}

// ndvStep is the estimated rows of joining leaf i to a prefix of rows
// over the leaves in set when every equality linking i to them has
// distinct counts; ok false otherwise.
func (g *joinGraph) ndvStep(rows float64, set uint64, i int) (float64, bool) {
	if g.sel == nil {
		return 0, false
	}
	out := rows * g.rows[i]
	for k := 0; k < g.n; k++ {
		if set&(1<<k) == 0 || g.link[i]&(1<<k) == 0 {
			continue
		}
		s := g.sel[pair(i, k)]
		if s == 0 {
			return 0, false
		}
		out *= s
	}
	return out, true
}
