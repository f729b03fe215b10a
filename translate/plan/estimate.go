package plan

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icegate/icegate/engine/expr"
)

// JoinBuildNote is what EXPLAIN adds to a join that holds its left input
// in memory (the engine holds the right one otherwise).
func JoinBuildNote(x *Join) string {
	if swap, buildLeft := JoinBuildSide(x); swap || buildLeft {
		return " build left"
	}
	return ""
}

// EquiKey recognizes l = r (or IS NOT DISTINCT FROM) with each side over
// one input only, both of the same type.
func EquiKey(c expr.Expr, left, right ColSet) (lk, rk expr.Expr, nullSafe, ok bool) {
	call, isCall := c.(*expr.Call)
	if !isCall || len(call.Args) != 2 || (call.Fn != "=" && call.Fn != "is_not_distinct_from") {
		return nil, nil, false, false
	}
	a, b := call.Args[0], call.Args[1]
	if !arrow.TypeEqual(a.Type(), b.Type()) || !HashableKey(a.Type()) {
		return nil, nil, false, false
	}
	ra, rb := RefsOf(a), RefsOf(b)
	if len(ra) == 0 || len(rb) == 0 {
		return nil, nil, false, false
	}
	switch {
	case ra.SubsetOf(left) && rb.SubsetOf(right):
		return a, b, call.Fn != "=", true
	case rb.SubsetOf(left) && ra.SubsetOf(right):
		return b, a, call.Fn != "=", true
	}
	return nil, nil, false, false
}

// HashableKey reports whether equal values of type t always have equal
// key encodings (floats: 0 = -0 and NaN = NaN are handled by the
// encoding; lists and maps are not keys).
func HashableKey(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.STRUCT:
		return false
	}
	return true
}

// EstimateRows is a rough row count of r from table statistics (snapshot
// summaries) and guessed selectivities, for choosing a hash join's build
// side.
func EstimateRows(r Rel) float64 {
	rows, _ := Estimate(r)
	return rows
}

// Estimate is EstimateRows's (rows) and the row count of the largest
// table r's rows come from before any filter (base), which an equi join
// divides by: joining n filtered rows of a table to the table it refers
// to (a key to a smaller table) keeps about n rows.
func Estimate(r Rel) (rows, base float64) {
	switch x := r.(type) {
	case *Scan:
		if x.Snapshot == nil {
			return 0, 0
		}
		if n, ok := SummaryInt(x.Snapshot.Summary, "total-records"); ok {
			return float64(n), float64(n)
		}
		return 1e6, 1e6
	case *OneRow:
		return 1, 1
	case Leaf:
		return x.Estimate()
	case *Values:
		return float64(len(x.Rows)), float64(len(x.Rows))
	case *Filter:
		n, b := Estimate(x.In)
		return n * selectivity(x.Pred), b
	case *Agg:
		if len(x.Groups) == 0 {
			return 1, 1
		}
		n, _ := Estimate(x.In)
		return n / 10, n / 10
	case *Join:
		return estimateJoin(x)
	case *Limit:
		n, b := Estimate(x.In)
		if x.Limit >= 0 {
			n = min(float64(x.Limit), n)
		}
		return n, b
	case *SetOp:
		n := 0.0
		for _, in := range x.Ins {
			n += EstimateRows(in)
		}
		return n, n
	case *TableFunc:
		n := EstimateRows(x.In) * 100
		return n, n
	}
	if cs := Children(r); len(cs) == 1 {
		return Estimate(cs[0])
	}
	return 1e6, 1e6
}

// estimateJoin estimates a join: an equi join keeps each side's rows in
// the proportion the other side keeps of its base (the smaller base: the
// side referred to); an outer join keeps at least its outer rows.
func estimateJoin(x *Join) (rows, base float64) {
	l, lb := Estimate(x.Left)
	r, rb := Estimate(x.Right)
	switch x.Typ {
	case JoinSemi, JoinAnti, JoinMark:
		return l, lb
	}
	if x.Cond == nil {
		return l * r, lb * rb
	}
	base = max(lb, rb)
	if keys, _, _, _ := SplitJoinCond(x, x.Left, x.Right); len(keys) == 0 || x.Apply {
		return max(l, r), base
	}
	rows = l * r / max(min(lb, rb), 1)
	switch x.Typ {
	case JoinLeft:
		rows = max(rows, l)
	case JoinRight:
		rows = max(rows, r)
	case JoinFull:
		rows = max(rows, l, r)
	}
	return rows, base
}

func WidensInt(from, to arrow.DataType) bool {
	rank := map[arrow.Type]int{arrow.INT16: 1, arrow.INT32: 2, arrow.INT64: 3}
	a, b := rank[from.ID()], rank[to.ID()]
	return a > 0 && b > 0 && a <= b
}

// SplitJoinCond splits the condition of x, whose inputs are left and
// right (x's own or exchanged), into the equalities between the two
// sides (the hash keys) and the rest.
func SplitJoinCond(x *Join, left, right Rel) (leftKeys, rightKeys []expr.Expr, nullSafe []bool, residual []expr.Expr) {
	leftOut, rightOut := SetOf(left.OutCols()), SetOf(right.OutCols())
	for i, c := range Conjuncts(x.Cond) {
		// A null-aware join (NOT IN) has exactly one key: the IN
		// comparison, first in the condition; the rest is residual.
		if x.NullAware && (i > 0 || len(leftKeys) > 0) {
			residual = append(residual, c)
			continue
		}
		if lk, rk, safe, ok := EquiKey(c, leftOut, rightOut); ok {
			leftKeys, rightKeys, nullSafe = append(leftKeys, lk), append(rightKeys, rk), append(nullSafe, safe)
			continue
		}
		residual = append(residual, c)
	}
	return leftKeys, rightKeys, nullSafe, residual
}

// JoinBuildSide says which input of x the engine holds in memory. An
// inner or outer join exchanges its inputs (swap) to put the side
// estimated smaller on the right, where the engine builds, unless both read
// only the system catalog (readsCatalogOnly). A semi, anti
// or mark join, or a scalar subquery's single left join, keeps its inputs
// (its output is the left side's rows) and builds on the left (buildLeft)
// when that is clearly smaller and the join has hash keys.
func JoinBuildSide(x *Join) (swap, buildLeft bool) {
	if x.Apply {
		return false, false
	}
	swapSmaller := func() bool {
		_, ok := SwapJoinType(x.Typ)
		return ok && EstimateRows(x.Left) < EstimateRows(x.Right) && !(readsCatalogOnly(x.Left) && readsCatalogOnly(x.Right))
	}
	switch x.Typ {
	case JoinSemi, JoinAnti, JoinMark:
	case JoinLeft:
		if !x.Single {
			return swapSmaller(), false
		}
	default:
		return swapSmaller(), false
	}
	if EstimateRows(x.Left)*buildLeftMargin >= EstimateRows(x.Right) {
		return false, false
	}
	keys, _, _, _ := SplitJoinCond(x, x.Left, x.Right)
	return false, len(keys) > 0
}

// A CatalogSource is a leaf that reads the system catalog
// (pg_catalog, information_schema).
type CatalogSource interface {
	Leaf
	SystemCatalog()
}

// readsCatalogOnly reports whether every leaf under r reads the system
// catalog (or is a VALUES list or a single row). A join of two such inputs
// keeps its inputs as written (builds on the right): the catalog's
// relations are small, their sizes only guessed, and the rows then come out
// in the left input's order, as PostgreSQL's do for the catalog joins
// clients read without ORDER BY (GORM's ColumnTypes lists a table's
// columns in the order information_schema.columns gives them).
func readsCatalogOnly(r Rel) bool {
	switch r.(type) {
	case CatalogSource, *Values, *OneRow:
		return true
	case Leaf:
		return false
	}
	kids := Children(r)
	if len(kids) == 0 {
		return false
	}
	for _, c := range kids {
		if !readsCatalogOnly(c) {
			return false
		}
	}
	return true
}

// selectivity is the estimated fraction of rows pred keeps: a guess per
// conjunct by its operator, multiplied across conjuncts (as if they were
// independent), at least selMinimum.
func selectivity(pred expr.Expr) float64 {
	s := 1.0
	ranged := ColSet{}
	for _, c := range Conjuncts(pred) {
		// A range closed on both sides (x >= a AND x < b) counts once.
		if id, ok := rangeColumn(c); ok {
			if ranged.Has(id) {
				continue
			}
			ranged.Add(id)
		}
		s *= conjunctSelectivity(c)
	}
	return min(max(s, selMinimum), 1)
}

// SummaryInt reads an integer field of a snapshot summary.
func SummaryInt(summary map[string]string, key string) (int64, bool) {
	v, ok := summary[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// SourceGuess is the Estimate of a source that cannot count its rows
// cheaply.
func SourceGuess() (rows, base float64) { return 1000, 1000 }

// buildLeftMargin is how many times smaller than the right input the
// left one must be estimated for an existence join to build on it: a
// build costs more a row than a probe, and estimates are rough.
const buildLeftMargin = 2

// SwapJoinType is the join type with the inputs exchanged.
func SwapJoinType(t JoinType) (JoinType, bool) {
	switch t {
	case JoinInner, JoinFull:
		return t, true
	case JoinLeft:
		return JoinRight, true
	case JoinRight:
		return JoinLeft, true
	}
	return t, false
}

// Selectivity guesses, in the absence of column statistics.
const (
	selEqual    = 0.1  // = and IS NOT DISTINCT FROM
	selRange    = 0.33 // <, <=, >, >=
	selLike     = 0.25 // LIKE, ILIKE, regular expressions
	selIsNull   = 0.1
	selBool     = 0.5 // a boolean column
	selUnknown  = 0.33
	selMinimum  = 0.005 // the least a filter keeps
	selInMaxima = 0.9   // the most an IN list keeps
)

// rangeColumn is the column a comparison <, <=, > or >= bounds by
// something that reads no column.
func rangeColumn(e expr.Expr) (ColID, bool) {
	c, ok := e.(*expr.Call)
	if !ok || len(c.Args) != 2 {
		return 0, false
	}
	switch c.Fn {
	case "<", "<=", ">", ">=":
	default:
		return 0, false
	}
	for i, a := range c.Args {
		if col, ok := a.(*expr.Col); ok && len(RefsOf(c.Args[1-i])) == 0 {
			return ColID(col.Idx), true
		}
	}
	return 0, false
}

func conjunctSelectivity(e expr.Expr) float64 {
	switch e := e.(type) {
	case *expr.Lit:
		if b, ok := e.V.(bool); ok && b {
			return 1
		}
		return 0
	case *expr.Col:
		return selBool
	case *expr.Call:
		switch e.Fn {
		case "and":
			s := 1.0
			for _, a := range e.Args {
				s *= conjunctSelectivity(a)
			}
			return s
		case "or":
			miss := 1.0
			for _, a := range e.Args {
				miss *= 1 - conjunctSelectivity(a)
			}
			return 1 - miss
		case "not":
			if len(e.Args) == 1 {
				return min(max(1-conjunctSelectivity(e.Args[0]), 0.1), 0.9)
			}
		case "=", "is_not_distinct_from":
			return selEqual
		case "<>", "is_distinct_from":
			return 1 - selEqual
		case "<", "<=", ">", ">=":
			return selRange
		case "in":
			return min(float64(len(e.Args)-1)*selEqual, selInMaxima)
		case "like", "ilike", "~", "~*":
			return selLike
		case "not_like", "not_ilike", "!~", "!~*":
			return 1 - selLike
		case "isnull":
			return selIsNull
		case "isnotnull":
			return 1 - selIsNull
		}
	}
	return selUnknown
}
