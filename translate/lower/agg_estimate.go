package lower

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// groupEstimate is how many groups the aggregation x is expected to
// find, for sizing its table: the product of its group keys' distinct
// counts (from the statistics CALL system.compute_table_stats records
// for the scanned snapshot), at most the rows its input is estimated to
// have; 0 - no estimate - when a key is not a table column counted by
// statistics or reaches it through what may drop values (a filter, an
// inner or semi join, a limit): there the count only bounds the groups
// from above, and a table sized for millions of groups that finds a few
// zeroes memory for nothing. An estimate only sizes: more groups still
// grow the table.
func groupEstimate(x *plan.Agg) int64 {
	if len(x.Groups) == 0 {
		return 0
	}
	n := 1.0
	for _, g := range x.Groups {
		d := columnDistinct(x.In, g)
		if d <= 0 {
			return 0
		}
		n *= d
	}
	if rows := plan.EstimateRows(x.In); rows > 0 {
		n = min(n, rows)
	}
	if n > 1<<40 {
		return 1 << 40
	}
	return int64(n)
}

// columnDistinct is the distinct count of the table column e is, reached
// through projections that pass it on, sorts and the side of an outer
// join that keeps all its rows; 0 when e is not such a column, or its
// table's statistics do not count it.
func columnDistinct(r plan.Rel, e expr.Expr) float64 {
	c, ok := e.(*expr.Col)
	if !ok {
		return 0
	}
	id := plan.ColID(c.Idx)
	for {
		switch x := r.(type) {
		case *plan.Sort:
			r = x.In
		case *plan.Join:
			left, right := plan.SetOf(x.Left.OutCols()).Has(id), plan.SetOf(x.Right.OutCols()).Has(id)
			switch {
			case left && (x.Typ == plan.JoinLeft || x.Typ == plan.JoinFull):
				r = x.Left
			case right && (x.Typ == plan.JoinRight || x.Typ == plan.JoinFull):
				r = x.Right
			default:
				return 0
			}
		case *plan.Project:
			in, ok := x.PassedOn(id)
			if !ok {
				return 0
			}
			id, r = in, x.In
		case *plan.Scan:
			return x.ColumnNDV(id)
		default:
			return 0
		}
	}
}
