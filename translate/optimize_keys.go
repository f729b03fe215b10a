package translate

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
)

// Aggregates computed only for the keys that are looked up.
//
// A correlated aggregate subquery, x < (SELECT avg(y) FROM t WHERE t.k =
// o.k), becomes a left join of the outer query with t grouped by k
// (bind_subquery.go). That aggregate would run over all of t, though the
// join only looks up the groups of the outer rows' keys. restrictKeys
// puts a semi join below the aggregation that keeps the rows of t whose
// k is among the values of a key source: a cheap relation whose values
// of the outer key are a superset of the outer rows' (the table that
// produces the outer key column, with the conditions on it, and the
// semi joins that filter it). Each group's aggregate only depends on the
// rows of its own key, so the groups that remain are unchanged, and the
// ones that go are exactly groups of keys no outer row has. A NULL key
// never matches either way.
//
// The key source reads the outer query's own tables at the same
// snapshots (copies of its scan nodes), and keeps only conditions that
// are deterministic and cannot raise an error: it is evaluated over rows
// the outer query may never evaluate them on. The rewrite is applied
// when the estimates say the key source is much smaller than the
// aggregation's input.

// keySourceShrink is how many times smaller (by estimated rows) than the
// aggregation's input a key source must be.
const keySourceShrink = 4

// restrictKeys applies the rewrite everywhere in r, inner joins first.
func restrictKeys(r rel) rel {
	r = mapChildren(r, restrictKeys)
	j, ok := r.(*joinRel)
	if !ok || j.apply || j.nullAware {
		return r
	}
	switch j.typ {
	case joinLeft, joinSemi, joinAnti, joinMark:
		if right, ok := restrictAggSide(j.right, j.left, j.cond); ok {
			nj := *j
			nj.right = right
			return &nj
		}
	case joinInner:
		if right, ok := restrictAggSide(j.right, j.left, j.cond); ok {
			nj := *j
			nj.right = right
			return &nj
		}
		if left, ok := restrictAggSide(j.left, j.right, j.cond); ok {
			nj := *j
			nj.left = left
			return &nj
		}
	}
	return r
}

// lookupKey is one equality of a join condition between an outer
// expression and a group key of the aggregation on the other side.
type lookupKey struct {
	group int       // index in the aggregation's groups
	outer expr.Expr // over the outer side's columns
}

// restrictAggSide returns side (an aggregation, maybe under filters and
// projections) with its input restricted to the keys the outer side
// looks up through cond, when that pays.
func restrictAggSide(side, outer rel, cond expr.Expr) (rel, bool) {
	agg, passed := aggBelow(side)
	if agg == nil || len(agg.groups) == 0 {
		return nil, false
	}
	keys := lookupKeys(agg, passed, setOf(outer.outCols()), cond)
	if len(keys) == 0 {
		return nil, false
	}
	// All keys together restrict most; a single one may find a key
	// source where all of them do not.
	tries := [][]lookupKey{keys}
	if len(keys) > 1 {
		for _, k := range keys {
			tries = append(tries, []lookupKey{k})
		}
	}
	for _, ks := range tries {
		if in, ok := restrictInput(agg, outer, ks); ok {
			na := *agg
			na.in = in
			return replaceAgg(side, &na), true
		}
	}
	return nil, false
}

// aggBelow finds the aggregation under a chain of filters and
// projections; passed are the aggregation's columns the chain passes
// through unchanged to side's output.
func aggBelow(side rel) (*aggRel, colSet) {
	switch x := side.(type) {
	case *aggRel:
		return x, setOf(x.outCols())
	case *filterRel:
		return aggBelow(x.in)
	case *projectRel:
		agg, passed := aggBelow(x.in)
		if agg == nil {
			return nil, nil
		}
		through := colSet{}
		for i, e := range x.exprs {
			if c, ok := e.(*expr.Col); ok && colID(c.Idx) == x.cols[i] && passed.has(x.cols[i]) {
				through.add(x.cols[i])
			}
		}
		return agg, through
	}
	return nil, nil
}

// replaceAgg rebuilds the chain of side with agg at its bottom.
func replaceAgg(side rel, agg *aggRel) rel {
	switch x := side.(type) {
	case *filterRel:
		n := *x
		n.in = replaceAgg(x.in, agg)
		return &n
	case *projectRel:
		n := *x
		n.in = replaceAgg(x.in, agg)
		return &n
	}
	return agg
}

// lookupKeys finds the conjuncts of cond that equate an expression over
// the outer columns with a group key of agg, of one hashable type.
func lookupKeys(agg *aggRel, passed, outer colSet, cond expr.Expr) []lookupKey {
	var keys []lookupKey
	seen := map[int]bool{}
	for _, c := range conjuncts(cond) {
		call, ok := c.(*expr.Call)
		if !ok || call.Fn != "=" || len(call.Args) != 2 {
			continue
		}
		for k := 0; k < 2; k++ {
			g, ok := call.Args[k].(*expr.Col)
			if !ok || !passed.has(colID(g.Idx)) {
				continue
			}
			gi := indexOf(agg.groupCols, colID(g.Idx))
			o := call.Args[1-k]
			refs := refsOf(o)
			if gi < 0 || seen[gi] || len(refs) == 0 || !refs.subsetOf(outer) || !safeExpr(o) {
				continue
			}
			inner := agg.groups[gi]
			if !arrow.TypeEqual(inner.Type(), o.Type()) || !hashableKey(o.Type()) {
				continue
			}
			seen[gi] = true
			keys = append(keys, lookupKey{group: gi, outer: o})
			break
		}
	}
	return keys
}

// restrictInput returns agg's input restricted to the keys ks of outer,
// when a key source is found and pays.
func restrictInput(agg *aggRel, outer rel, ks []lookupKey) (rel, bool) {
	need := colSet{}
	innerRefs := colSet{}
	eqs := make([]expr.Expr, len(ks))
	innerSafe := true
	for _, k := range ks {
		need.addRefs(k.outer)
		g := agg.groups[k.group]
		innerRefs.addRefs(g)
		innerSafe = innerSafe && safeExpr(g)
	}
	if !innerRefs.subsetOf(setOf(agg.in.outCols())) {
		return nil, false // a group key over outer references
	}
	rows, reads := estimateRows(agg.in), scanCost(agg.in)
	for _, keepJoins := range []bool{true, false} {
		src, rn, ok := keySource(outer, need, keepJoins)
		if !ok || estimateRows(src)*keySourceShrink > rows || scanCost(src) >= reads {
			continue
		}
		if _, bare := src.(*scanRel); bare {
			// A whole table: its keys are usually all the inner side has
			// (a foreign key), so the semi join would only cost.
			continue
		}
		if setOf(producedCols(src)).intersects(setOf(producedCols(agg.in))) {
			return nil, false // the same nodes on both sides
		}
		for i, k := range ks {
			eqs[i] = &expr.Call{Fn: "=", Args: []expr.Expr{agg.groups[k.group], rn.apply(k.outer)}, T: expr.Bool}
		}
		cond := andOf(eqs)
		if alreadyRestricted(agg.in, cond) {
			return nil, false
		}
		return semiBelow(agg.in, innerRefs, innerSafe, src, cond), true
	}
	return nil, false
}

// alreadyRestricted reports whether r already is such a semi join (the
// tree was optimized before).
func alreadyRestricted(r rel, cond expr.Expr) bool {
	key := fmtExpr(cond)
	found := false
	visitRel(r, func(n rel) {
		if j, ok := n.(*joinRel); ok && j.typ == joinSemi && fmtExpr(j.cond) == key {
			found = true
		}
	})
	return found
}

// semiBelow puts r SEMI JOIN src ON cond as low in r as it can go: down
// to the input that produces the key columns (refs), through operators
// that pass each row on by itself. It goes below filters only when the
// keys cannot raise an error (else they are evaluated on the rows the
// aggregation sees, as before), and not below a filter on a scan.
func semiBelow(r rel, refs colSet, safe bool, src rel, cond expr.Expr) rel {
	switch x := r.(type) {
	case *filterRel:
		// A filter right on a scan stays there: it is cheap, and its
		// conditions prune the scan's files (lower_prune.go).
		_, onScan := x.in.(*scanRel)
		if safe && !onScan && refs.subsetOf(setOf(x.in.outCols())) {
			n := *x
			n.in = semiBelow(x.in, refs, safe, src, cond)
			return &n
		}
	case *projectRel:
		if passesThrough(x, refs) && refs.subsetOf(setOf(x.in.outCols())) {
			n := *x
			n.in = semiBelow(x.in, refs, safe, src, cond)
			return &n
		}
	case *sortRel:
		n := *x
		n.in = semiBelow(x.in, refs, safe, src, cond)
		return &n
	case *joinRel:
		lo, ro := setOf(x.left.outCols()), setOf(x.right.outCols())
		switch {
		case x.typ != joinRight && x.typ != joinFull && refs.subsetOf(lo):
			n := *x
			n.left = semiBelow(x.left, refs, safe, src, cond)
			return &n
		case (x.typ == joinInner || x.typ == joinRight) && !x.apply && refs.subsetOf(ro):
			n := *x
			n.right = semiBelow(x.right, refs, safe, src, cond)
			return &n
		}
	}
	return &joinRel{typ: joinSemi, left: r, right: src, cond: cond}
}

// passesThrough reports whether the projection passes every column of
// refs through unchanged.
func passesThrough(p *projectRel, refs colSet) bool {
	pass := colSet{}
	for i, e := range p.exprs {
		if c, ok := e.(*expr.Col); ok && colID(c.Idx) == p.cols[i] {
			pass.add(p.cols[i])
		}
	}
	return refs.subsetOf(pass)
}

// keySource returns a relation whose rows, projected on the columns
// need, include those of r: each row of r has a row of the source that
// agrees with it on every column the source produces. It is built from
// r's scans (copied: same table, snapshot and column ids), the
// conditions of r's filters that are safe to evaluate on more rows, and,
// with keepJoins, the semi joins (a filter on a mark join's mark) and
// inner joins r needs for them; every other operator is dropped or makes
// it fail. A needed column the source does not produce is in rename:
// there, the source's column equal to it on every row of r that matters
// (x IN (SELECT y ...) keeps only rows whose x equals some y).
func keySource(r rel, need colSet, keepJoins bool) (rel, renames, bool) {
	switch x := r.(type) {
	case *scanRel:
		if !need.subsetOf(setOf(x.cols)) {
			return nil, nil, false
		}
		c := *x
		return &c, nil, true
	case *valuesRel:
		if !need.subsetOf(setOf(x.cols)) {
			return nil, nil, false
		}
		for _, row := range x.rows {
			for _, e := range row {
				if !constantRow(e) {
					return nil, nil, false
				}
			}
		}
		c := *x
		return &c, nil, true
	case *filterRel:
		return filterSource(x, need, keepJoins)
	case *projectRel:
		return projectSource(x, need, keepJoins)
	case *sortRel:
		return keySource(x.in, need, keepJoins)
	case *limitRel:
		return keySource(x.in, need, keepJoins)
	case *windowRel:
		if !need.subsetOf(setOf(x.in.outCols())) {
			return nil, nil, false
		}
		return keySource(x.in, need, keepJoins)
	case *joinRel:
		return joinSource(x, need, keepJoins)
	}
	return nil, nil, false
}

// projectSource is the key source of a projection's input, when each
// needed column is a column of the input (the same or renamed).
func projectSource(x *projectRel, need colSet, keepJoins bool) (rel, renames, bool) {
	inNeed := colSet{}
	rn := renames{}
	for id := range need {
		i := indexOf(x.cols, id)
		if i < 0 {
			return nil, nil, false
		}
		c, ok := x.exprs[i].(*expr.Col)
		if !ok {
			return nil, nil, false
		}
		if colID(c.Idx) != id {
			rn[id] = c
		}
		inNeed.add(colID(c.Idx))
	}
	src, inner, ok := keySource(x.in, inNeed, keepJoins)
	if !ok {
		return nil, nil, false
	}
	for id, e := range rn {
		rn[id] = inner.apply(e)
	}
	for id, e := range inner {
		if need.has(id) {
			if _, renamed := rn[id]; !renamed {
				rn[id] = e
			}
		}
	}
	return src, rn, true
}

// renames maps needed columns to the key source's columns that stand for
// them; nil is none.
type renames map[colID]expr.Expr

// apply rewrites e's columns that are renamed.
func (rn renames) apply(e expr.Expr) expr.Expr {
	if len(rn) == 0 {
		return e
	}
	out, _ := rewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
		if c, ok := e.(*expr.Col); ok {
			if to, ok := rn[colID(c.Idx)]; ok {
				return to, nil
			}
		}
		return e, nil
	})
	return out
}

// filterSource is the key source of a filter: its input's, with the
// filter's safe conditions over the columns that source produces. A
// condition that is a mark join's mark (IN, EXISTS) keeps the join as the
// semi join it is when keepJoins, or, when the join's condition equates
// each needed column with a column of the subquery, is the subquery's
// key source, whichever is estimated smaller.
func filterSource(x *filterRel, need colSet, keepJoins bool) (rel, renames, bool) {
	preds := conjuncts(x.pred)
	if mj, ok := x.in.(*joinRel); ok && mj.typ == joinMark && !mj.apply && !need.has(mj.mark) {
		for _, p := range preds {
			if c, ok := p.(*expr.Col); !ok || colID(c.Idx) != mj.mark {
				continue
			}
			var best rel
			var bestRn renames
			if keepJoins {
				best, _ = markSource(x, mj, need, keepJoins)
			}
			if src, rn, ok := subquerySource(mj, need, keepJoins); ok && (best == nil || estimateRows(src) <= estimateRows(best)) {
				best, bestRn = src, rn
			}
			if best != nil {
				return best, bestRn, true
			}
			break
		}
	}
	src, rn, ok := keySource(x.in, need, keepJoins)
	if !ok {
		return nil, nil, false
	}
	return withFilter(src, safeConds(preds, setOf(src.outCols()))), rn, true
}

// subquerySource is the key source of the right input of a mark join
// whose condition has left = right for each needed column (of one type:
// the equality then holds for the right column too).
func subquerySource(mj *joinRel, need colSet, keepJoins bool) (rel, renames, bool) {
	lo, ro := setOf(mj.left.outCols()), setOf(mj.right.outCols())
	rn := renames{}
	rneed := colSet{}
	for _, c := range conjuncts(mj.cond) {
		call, ok := c.(*expr.Call)
		if !ok || call.Fn != "=" || len(call.Args) != 2 {
			continue
		}
		a, aok := call.Args[0].(*expr.Col)
		b, bok := call.Args[1].(*expr.Col)
		if !aok || !bok || !arrow.TypeEqual(a.T, b.T) {
			continue
		}
		if ro.has(colID(a.Idx)) {
			a, b = b, a
		}
		if need.has(colID(a.Idx)) && lo.has(colID(a.Idx)) && ro.has(colID(b.Idx)) {
			rn[colID(a.Idx)] = b
			rneed.add(colID(b.Idx))
		}
	}
	if len(rn) != len(need) {
		return nil, nil, false
	}
	src, inner, ok := keySource(mj.right, rneed, keepJoins)
	if !ok || len(inner) > 0 {
		return nil, nil, false
	}
	return src, rn, true
}

// markSource keeps filter(mark join, mark) with both inputs replaced by
// their key sources, and the filter's other safe conditions.
func markSource(x *filterRel, mj *joinRel, need colSet, keepJoins bool) (rel, bool) {
	if mj.cond == nil || !safeExpr(mj.cond) {
		return nil, false
	}
	lo, ro := setOf(mj.left.outCols()), setOf(mj.right.outCols())
	condRefs := refsOf(mj.cond)
	lneed, rneed := colSet{}, colSet{}
	for id := range need {
		lneed.add(id)
	}
	for id := range condRefs {
		switch {
		case lo.has(id):
			lneed.add(id)
		case ro.has(id):
			rneed.add(id)
		default:
			return nil, false
		}
	}
	l, lrn, ok := keySource(mj.left, lneed, keepJoins)
	if !ok || len(lrn) > 0 {
		return nil, false
	}
	r, rrn, ok := keySource(mj.right, rneed, keepJoins)
	if !ok || len(rrn) > 0 {
		return nil, false
	}
	nj := *mj
	nj.left, nj.right = l, r
	have := setOf(nj.outCols())
	return withFilter(&nj, safeConds(conjuncts(x.pred), have)), true
}

// joinSource is the key source of a join: the source of the input that
// produces the needed columns on rows it keeps (an outer join's
// preserved side), or with keepJoins of both inputs of an inner join
// when the columns come from both.
func joinSource(x *joinRel, need colSet, keepJoins bool) (rel, renames, bool) {
	lo, ro := setOf(x.left.outCols()), setOf(x.right.outCols())
	needL, needR := colSet{}, colSet{}
	for id := range need {
		switch {
		case lo.has(id):
			needL.add(id)
		case ro.has(id) && x.typ != joinSemi && x.typ != joinAnti && x.typ != joinMark:
			needR.add(id)
		default:
			return nil, nil, false // a mark, or not there
		}
	}
	switch x.typ {
	case joinInner, joinLeft, joinSemi, joinAnti, joinMark:
		if len(needR) == 0 {
			return keySource(x.left, needL, keepJoins)
		}
	}
	switch x.typ {
	case joinInner, joinRight:
		if len(needL) == 0 && !x.apply {
			return keySource(x.right, needR, keepJoins)
		}
	}
	if x.typ != joinInner || x.apply || !keepJoins {
		return nil, nil, false
	}
	// Columns from both inputs: an inner join of their sources on the
	// safe conditions between them.
	both := setOf(x.left.outCols())
	for id := range ro {
		both.add(id)
	}
	conds := safeConds(conjuncts(x.cond), both)
	for _, c := range conds {
		for id := range refsOf(c) {
			if lo.has(id) {
				needL.add(id)
			} else {
				needR.add(id)
			}
		}
	}
	l, lrn, ok := keySource(x.left, needL, keepJoins)
	if !ok || len(lrn) > 0 {
		return nil, nil, false
	}
	r, rrn, ok := keySource(x.right, needR, keepJoins)
	if !ok || len(rrn) > 0 {
		return nil, nil, false
	}
	have := setOf(l.outCols())
	for _, id := range r.outCols() {
		have.add(id)
	}
	return &joinRel{typ: joinInner, left: l, right: r, cond: andOf(safeConds(conds, have))}, nil, true
}

// safeConds are the conditions of preds that are safe to evaluate on
// more rows and (unless have is nil) only use columns in have.
func safeConds(preds []expr.Expr, have colSet) []expr.Expr {
	var out []expr.Expr
	for _, p := range preds {
		if safeExpr(p) && (have == nil || refsOf(p).subsetOf(have)) {
			out = append(out, p)
		}
	}
	return out
}

// safeExpr reports whether e is deterministic and cannot raise an
// error on any row: columns, constants, comparisons, boolean logic, null
// tests, IN lists, LIKE with a constant pattern, widening integer casts
// and casts of NULL.
func safeExpr(e expr.Expr) bool {
	switch x := e.(type) {
	case *expr.Col, *expr.Lit:
		return true
	case *expr.Cast:
		if l, ok := x.Arg.(*expr.Lit); ok && l.V == nil {
			return true // NULL converts to NULL
		}
		return (arrow.TypeEqual(x.Arg.Type(), x.T) || widensInt(x.Arg.Type(), x.T)) && safeExpr(x.Arg)
	case *expr.Call:
		if x.Go != nil {
			return false
		}
		switch x.Fn {
		case "=", "<>", "<", "<=", ">", ">=", "and", "or", "not", "isnull", "isnotnull",
			"is_distinct_from", "is_not_distinct_from", "in":
		case "like", "not_like", "ilike", "not_ilike":
			if len(x.Args) != 2 {
				return false
			}
			p, ok := x.Args[1].(*expr.Lit)
			if !ok {
				return false
			}
			if s, ok := p.V.(string); ok && strings.HasSuffix(s, `\`) {
				return false
			}
		default:
			return false
		}
		for _, a := range x.Args {
			if !safeExpr(a) {
				return false
			}
		}
		return true
	}
	return false
}

// constantRow reports whether e, a value of a VALUES row, is a constant
// or a constant's cast: the outer query evaluates the same rows, so it
// would raise a cast's error too.
func constantRow(e expr.Expr) bool {
	if c, ok := e.(*expr.Cast); ok {
		e = c.Arg
	}
	_, ok := e.(*expr.Lit)
	return ok
}

// scanCost is the number of rows the scans of r read, by the estimates.
func scanCost(r rel) float64 {
	n := 0.0
	visitRel(r, func(x rel) {
		if s, ok := x.(*scanRel); ok {
			n += estimateRows(s)
		}
	})
	return n
}
