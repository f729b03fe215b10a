package translate

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
)

// lowerJoin lowers a join: a hash join on the equalities between the two
// sides in its condition (the rest is a residual condition), or a nested
// loop join when there are none. The engine builds its hash table on the
// right input unless told to build on the left (joinBuildSide).
func (l *lowerer) lowerJoin(x *joinRel, need colSet) (engine.Operator, []colID, error) {
	if x.apply {
		return l.lowerApply(x, need)
	}
	left, right, typ := x.left, x.right, x.typ
	swap, buildLeft := joinBuildSide(x)
	if swap {
		typ, _ = swapJoinType(typ)
		left, right = right, left
	}
	leftOut, rightOut := setOf(left.outCols()), setOf(right.outCols())
	leftKeys, rightKeys, nullSafe, residual := splitJoinCond(x, left, right)
	needL, needR := colSet{}, colSet{}
	split := func(s colSet) {
		for id := range s {
			if leftOut.has(id) {
				needL.add(id)
			}
			if rightOut.has(id) {
				needR.add(id)
			}
		}
	}
	split(need)
	if x.cond != nil {
		split(refsOf(x.cond))
	}
	lop, llayout, err := l.lower(left, needL)
	if err != nil {
		return nil, nil, err
	}
	rop, rlayout, err := l.lower(right, needR)
	if err != nil {
		lop.Close()
		return nil, nil, err
	}
	fail := func(err error) (engine.Operator, []colID, error) {
		lop.Close()
		rop.Close()
		return nil, nil, err
	}
	// Without an equality key, IN's NULL semantics are approximated: a
	// comparison that is NULL counts as no match.
	nullAware := x.nullAware && len(leftKeys) == 1 && !nullSafe[0]
	spec := exec.JoinSpec{Type: execJoinType(typ), NullSafe: nullSafe, NullAware: nullAware, Single: x.single, BuildLeft: buildLeft}
	if spec.LeftKeys, err = l.remapAll(leftKeys, llayout); err != nil {
		return fail(err)
	}
	if spec.RightKeys, err = l.remapAll(rightKeys, rlayout); err != nil {
		return fail(err)
	}
	both := append(append([]colID(nil), llayout...), rlayout...)
	if len(residual) > 0 {
		if spec.Residual, err = l.remap(andOf(residual), both); err != nil {
			return fail(err)
		}
	}
	var op engine.Operator
	if len(leftKeys) > 0 {
		op, err = exec.NewHashJoin(lop, rop, spec, l.opts)
	} else {
		op, err = exec.NewNestedLoopJoin(lop, rop, spec, l.opts)
	}
	if err != nil {
		return fail(err)
	}
	switch typ {
	case joinSemi, joinAnti:
		return op, llayout, nil
	case joinMark:
		return op, append(append([]colID(nil), llayout...), x.mark), nil
	}
	return op, both, nil
}

// splitJoinCond splits the condition of x, whose inputs are left and
// right (x's own or exchanged), into the equalities between the two
// sides (the hash keys) and the rest.
func splitJoinCond(x *joinRel, left, right rel) (leftKeys, rightKeys []expr.Expr, nullSafe []bool, residual []expr.Expr) {
	leftOut, rightOut := setOf(left.outCols()), setOf(right.outCols())
	for i, c := range conjuncts(x.cond) {
		// A null-aware join (NOT IN) has exactly one key: the IN
		// comparison, first in the condition; the rest is residual.
		if x.nullAware && (i > 0 || len(leftKeys) > 0) {
			residual = append(residual, c)
			continue
		}
		if lk, rk, safe, ok := equiKey(c, leftOut, rightOut); ok {
			leftKeys, rightKeys, nullSafe = append(leftKeys, lk), append(rightKeys, rk), append(nullSafe, safe)
			continue
		}
		residual = append(residual, c)
	}
	return leftKeys, rightKeys, nullSafe, residual
}

// buildLeftMargin is how many times smaller than the right input the
// left one must be estimated for an existence join to build on it: a
// build costs more a row than a probe, and estimates are rough.
const buildLeftMargin = 2

// joinBuildSide says which input of x the engine holds in memory. An
// inner or outer join exchanges its inputs (swap) to put the side
// estimated smaller on the right, where the engine builds. A semi, anti
// or mark join, or a scalar subquery's single left join, keeps its inputs
// (its output is the left side's rows) and builds on the left (buildLeft)
// when that is clearly smaller and the join has hash keys.
func joinBuildSide(x *joinRel) (swap, buildLeft bool) {
	if x.apply {
		return false, false
	}
	switch x.typ {
	case joinSemi, joinAnti, joinMark:
	case joinLeft:
		if !x.single {
			_, ok := swapJoinType(x.typ)
			return ok && estimateRows(x.left) < estimateRows(x.right), false
		}
	default:
		_, ok := swapJoinType(x.typ)
		return ok && estimateRows(x.left) < estimateRows(x.right), false
	}
	if estimateRows(x.left)*buildLeftMargin >= estimateRows(x.right) {
		return false, false
	}
	keys, _, _, _ := splitJoinCond(x, x.left, x.right)
	return false, len(keys) > 0
}

// joinBuildNote is what EXPLAIN adds to a join that holds its left input
// in memory (the engine holds the right one otherwise).
func joinBuildNote(x *joinRel) string {
	if swap, buildLeft := joinBuildSide(x); swap || buildLeft {
		return " build left"
	}
	return ""
}

// swapJoinType is the join type with the inputs exchanged.
func swapJoinType(t joinType) (joinType, bool) {
	switch t {
	case joinInner, joinFull:
		return t, true
	case joinLeft:
		return joinRight, true
	case joinRight:
		return joinLeft, true
	}
	return t, false
}

func execJoinType(t joinType) exec.JoinType {
	switch t {
	case joinLeft:
		return exec.JoinLeft
	case joinRight:
		return exec.JoinRight
	case joinFull:
		return exec.JoinFull
	case joinSemi:
		return exec.JoinSemi
	case joinAnti:
		return exec.JoinAnti
	case joinMark:
		return exec.JoinMark
	}
	return exec.JoinInner
}

// equiKey recognizes l = r (or IS NOT DISTINCT FROM) with each side over
// one input only, both of the same type.
func equiKey(c expr.Expr, left, right colSet) (lk, rk expr.Expr, nullSafe, ok bool) {
	call, isCall := c.(*expr.Call)
	if !isCall || len(call.Args) != 2 || (call.Fn != "=" && call.Fn != "is_not_distinct_from") {
		return nil, nil, false, false
	}
	a, b := call.Args[0], call.Args[1]
	if !arrow.TypeEqual(a.Type(), b.Type()) || !hashableKey(a.Type()) {
		return nil, nil, false, false
	}
	ra, rb := refsOf(a), refsOf(b)
	if len(ra) == 0 || len(rb) == 0 {
		return nil, nil, false, false
	}
	switch {
	case ra.subsetOf(left) && rb.subsetOf(right):
		return a, b, call.Fn != "=", true
	case rb.subsetOf(left) && ra.subsetOf(right):
		return b, a, call.Fn != "=", true
	}
	return nil, nil, false, false
}

// hashableKey reports whether equal values of type t always have equal
// key encodings (floats: 0 = -0 and NaN = NaN are handled by the
// encoding; lists and maps are not keys).
func hashableKey(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.STRUCT:
		return false
	}
	return true
}

// estimateRows is a rough row count of r from table statistics (snapshot
// summaries) and guessed selectivities, for choosing a hash join's build
// side.
func estimateRows(r rel) float64 {
	rows, _ := estimate(r)
	return rows
}

// estimate is estimateRows's (rows) and the row count of the largest
// table r's rows come from before any filter (base), which an equi join
// divides by: joining n filtered rows of a table to the table it refers
// to (a key to a smaller table) keeps about n rows.
func estimate(r rel) (rows, base float64) {
	switch x := r.(type) {
	case *scanRel:
		if x.snapshot == nil {
			return 0, 0
		}
		if n, ok := summaryInt(x.snapshot.Summary, "total-records"); ok {
			return float64(n), float64(n)
		}
		return 1e6, 1e6
	case *oneRowRel:
		return 1, 1
	case *cteScanRel:
		return estimate(x.cte.body) // a shared WITH query: its body's rows
	case *sysRel, *metaRel, *changesRel:
		return 1000, 1000
	case *valuesRel:
		return float64(len(x.rows)), float64(len(x.rows))
	case *filterRel:
		n, b := estimate(x.in)
		return n * selectivity(x.pred), b
	case *aggRel:
		if len(x.groups) == 0 {
			return 1, 1
		}
		n, _ := estimate(x.in)
		return n / 10, n / 10
	case *joinRel:
		return estimateJoin(x)
	case *limitRel:
		n, b := estimate(x.in)
		if x.limit >= 0 {
			n = min(float64(x.limit), n)
		}
		return n, b
	case *setOpRel:
		n := 0.0
		for _, in := range x.ins {
			n += estimateRows(in)
		}
		return n, n
	case *tableFuncRel:
		n := estimateRows(x.in) * 100
		return n, n
	}
	if cs := relChildren(r); len(cs) == 1 {
		return estimate(cs[0])
	}
	return 1e6, 1e6
}

// estimateJoin estimates a join: an equi join keeps each side's rows in
// the proportion the other side keeps of its base (the smaller base: the
// side referred to); an outer join keeps at least its outer rows.
func estimateJoin(x *joinRel) (rows, base float64) {
	l, lb := estimate(x.left)
	r, rb := estimate(x.right)
	switch x.typ {
	case joinSemi, joinAnti, joinMark:
		return l, lb
	}
	if x.cond == nil {
		return l * r, lb * rb
	}
	base = max(lb, rb)
	if keys, _, _, _ := splitJoinCond(x, x.left, x.right); len(keys) == 0 || x.apply {
		return max(l, r), base
	}
	rows = l * r / max(min(lb, rb), 1)
	switch x.typ {
	case joinLeft:
		rows = max(rows, l)
	case joinRight:
		rows = max(rows, r)
	case joinFull:
		rows = max(rows, l, r)
	}
	return rows, base
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

// selectivity is the estimated fraction of rows pred keeps: a guess per
// conjunct by its operator, multiplied across conjuncts (as if they were
// independent), at least selMinimum.
func selectivity(pred expr.Expr) float64 {
	s := 1.0
	ranged := colSet{}
	for _, c := range conjuncts(pred) {
		// A range closed on both sides (x >= a AND x < b) counts once.
		if id, ok := rangeColumn(c); ok {
			if ranged.has(id) {
				continue
			}
			ranged.add(id)
		}
		s *= conjunctSelectivity(c)
	}
	return min(max(s, selMinimum), 1)
}

// rangeColumn is the column a comparison <, <=, > or >= bounds by
// something that reads no column.
func rangeColumn(e expr.Expr) (colID, bool) {
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
		if col, ok := a.(*expr.Col); ok && len(refsOf(c.Args[1-i])) == 0 {
			return colID(col.Idx), true
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
