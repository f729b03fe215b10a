package opt

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// Aggregates computed only for the keys that are looked up.
//
// A correlated aggregate subquery, x < (SELECT avg(y) FROM t WHERE t.k =
// o.k), becomes a left join of the outer query with t grouped by k
// (bind/subquery.go). That aggregate would run over all of t, though the
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
func restrictKeys(r plan.Rel) plan.Rel {
	r = plan.MapChildren(r, restrictKeys)
	j, ok := r.(*plan.Join)
	if !ok || j.Apply || j.NullAware {
		return r
	}
	switch j.Typ {
	case plan.JoinLeft, plan.JoinSemi, plan.JoinAnti, plan.JoinMark:
		if right, ok := restrictAggSide(j.Right, j.Left, j.Cond); ok {
			nj := *j
			nj.Right = right
			return &nj
		}
	case plan.JoinInner:
		if right, ok := restrictAggSide(j.Right, j.Left, j.Cond); ok {
			nj := *j
			nj.Right = right
			return &nj
		}
		if left, ok := restrictAggSide(j.Left, j.Right, j.Cond); ok {
			nj := *j
			nj.Left = left
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
func restrictAggSide(side, outer plan.Rel, cond expr.Expr) (plan.Rel, bool) {
	agg, passed := aggBelow(side)
	if agg == nil || len(agg.Groups) == 0 {
		return nil, false
	}
	keys := lookupKeys(agg, passed, plan.SetOf(outer.OutCols()), cond)
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
			na.In = in
			return replaceAgg(side, &na), true
		}
	}
	return nil, false
}

// aggBelow finds the aggregation under a chain of filters and
// projections; passed are the aggregation's columns the chain passes
// through unchanged to side's output.
func aggBelow(side plan.Rel) (*plan.Agg, plan.ColSet) {
	switch x := side.(type) {
	case *plan.Agg:
		return x, plan.SetOf(x.OutCols())
	case *plan.Filter:
		return aggBelow(x.In)
	case *plan.Project:
		agg, passed := aggBelow(x.In)
		if agg == nil {
			return nil, nil
		}
		through := plan.ColSet{}
		for i, e := range x.Exprs {
			if c, ok := e.(*expr.Col); ok && plan.ColID(c.Idx) == x.Cols[i] && passed.Has(x.Cols[i]) {
				through.Add(x.Cols[i])
			}
		}
		return agg, through
	}
	return nil, nil
}

// replaceAgg rebuilds the chain of side with agg at its bottom.
func replaceAgg(side plan.Rel, agg *plan.Agg) plan.Rel {
	switch x := side.(type) {
	case *plan.Filter:
		n := *x
		n.In = replaceAgg(x.In, agg)
		return &n
	case *plan.Project:
		n := *x
		n.In = replaceAgg(x.In, agg)
		return &n
	}
	return agg
}

// lookupKeys finds the conjuncts of cond that equate an expression over
// the outer columns with a group key of agg, of one hashable type.
func lookupKeys(agg *plan.Agg, passed, outer plan.ColSet, cond expr.Expr) []lookupKey {
	var keys []lookupKey
	seen := map[int]bool{}
	for _, c := range plan.Conjuncts(cond) {
		call, ok := c.(*expr.Call)
		if !ok || call.Fn != "=" || len(call.Args) != 2 {
			continue
		}
		for k := 0; k < 2; k++ {
			g, ok := call.Args[k].(*expr.Col)
			if !ok || !passed.Has(plan.ColID(g.Idx)) {
				continue
			}
			gi := plan.IndexOf(agg.GroupCols, plan.ColID(g.Idx))
			o := call.Args[1-k]
			refs := plan.RefsOf(o)
			if gi < 0 || seen[gi] || len(refs) == 0 || !refs.SubsetOf(outer) || !safeExpr(o) {
				continue
			}
			inner := agg.Groups[gi]
			if !arrow.TypeEqual(inner.Type(), o.Type()) || !plan.HashableKey(o.Type()) {
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
func restrictInput(agg *plan.Agg, outer plan.Rel, ks []lookupKey) (plan.Rel, bool) {
	need := plan.ColSet{}
	innerRefs := plan.ColSet{}
	eqs := make([]expr.Expr, len(ks))
	innerSafe := true
	for _, k := range ks {
		need.AddRefs(k.outer)
		g := agg.Groups[k.group]
		innerRefs.AddRefs(g)
		innerSafe = innerSafe && safeExpr(g)
	}
	if !innerRefs.SubsetOf(plan.SetOf(agg.In.OutCols())) {
		return nil, false // a group key over outer references
	}
	rows, reads := plan.EstimateRows(agg.In), scanCost(agg.In)
	for _, keepJoins := range []bool{true, false} {
		src, rn, ok := keySource(outer, need, keepJoins)
		if !ok || plan.EstimateRows(src)*keySourceShrink > rows || scanCost(src) >= reads {
			continue
		}
		if _, bare := src.(*plan.Scan); bare {
			// A whole table: its keys are usually all the inner side has
			// (a foreign key), so the semi join would only cost.
			continue
		}
		if plan.SetOf(plan.ProducedCols(src)).Intersects(plan.SetOf(plan.ProducedCols(agg.In))) {
			return nil, false // the same nodes on both sides
		}
		for i, k := range ks {
			eqs[i] = &expr.Call{Fn: "=", Args: []expr.Expr{agg.Groups[k.group], rn.apply(k.outer)}, T: expr.Bool}
		}
		cond := plan.AndOf(eqs)
		if alreadyRestricted(agg.In, cond) {
			return nil, false
		}
		return semiBelow(agg.In, innerRefs, innerSafe, src, cond), true
	}
	return nil, false
}

// alreadyRestricted reports whether r already is such a semi join (the
// tree was optimized before).
func alreadyRestricted(r plan.Rel, cond expr.Expr) bool {
	key := plan.FormatExpr(cond)
	found := false
	plan.Visit(r, func(n plan.Rel) {
		if j, ok := n.(*plan.Join); ok && j.Typ == plan.JoinSemi && plan.FormatExpr(j.Cond) == key {
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
func semiBelow(r plan.Rel, refs plan.ColSet, safe bool, src plan.Rel, cond expr.Expr) plan.Rel {
	switch x := r.(type) {
	case *plan.Filter:
		// A filter right on a scan stays there: it is cheap, and its
		// conditions prune the scan's files (lower/prune.go).
		_, onScan := x.In.(*plan.Scan)
		if safe && !onScan && refs.SubsetOf(plan.SetOf(x.In.OutCols())) {
			n := *x
			n.In = semiBelow(x.In, refs, safe, src, cond)
			return &n
		}
	case *plan.Project:
		if passesThrough(x, refs) && refs.SubsetOf(plan.SetOf(x.In.OutCols())) {
			n := *x
			n.In = semiBelow(x.In, refs, safe, src, cond)
			return &n
		}
	case *plan.Sort:
		n := *x
		n.In = semiBelow(x.In, refs, safe, src, cond)
		return &n
	case *plan.Join:
		lo, ro := plan.SetOf(x.Left.OutCols()), plan.SetOf(x.Right.OutCols())
		switch {
		case x.Typ != plan.JoinRight && x.Typ != plan.JoinFull && refs.SubsetOf(lo):
			n := *x
			n.Left = semiBelow(x.Left, refs, safe, src, cond)
			return &n
		case (x.Typ == plan.JoinInner || x.Typ == plan.JoinRight) && !x.Apply && refs.SubsetOf(ro):
			n := *x
			n.Right = semiBelow(x.Right, refs, safe, src, cond)
			return &n
		}
	}
	return &plan.Join{Typ: plan.JoinSemi, Left: r, Right: src, Cond: cond}
}

// passesThrough reports whether the projection passes every column of
// refs through unchanged.
func passesThrough(p *plan.Project, refs plan.ColSet) bool {
	pass := plan.ColSet{}
	for i, e := range p.Exprs {
		if c, ok := e.(*expr.Col); ok && plan.ColID(c.Idx) == p.Cols[i] {
			pass.Add(p.Cols[i])
		}
	}
	return refs.SubsetOf(pass)
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
func keySource(r plan.Rel, need plan.ColSet, keepJoins bool) (plan.Rel, renames, bool) {
	switch x := r.(type) {
	case *plan.Scan:
		if !need.SubsetOf(plan.SetOf(x.Cols)) {
			return nil, nil, false
		}
		c := *x
		return &c, nil, true
	case *plan.Values:
		if !need.SubsetOf(plan.SetOf(x.Cols)) {
			return nil, nil, false
		}
		for _, row := range x.Rows {
			for _, e := range row {
				if !constantRow(e) {
					return nil, nil, false
				}
			}
		}
		c := *x
		return &c, nil, true
	case *plan.Filter:
		return filterSource(x, need, keepJoins)
	case *plan.Project:
		return projectSource(x, need, keepJoins)
	case *plan.Sort:
		return keySource(x.In, need, keepJoins)
	case *plan.Limit:
		return keySource(x.In, need, keepJoins)
	case *plan.Window:
		if !need.SubsetOf(plan.SetOf(x.In.OutCols())) {
			return nil, nil, false
		}
		return keySource(x.In, need, keepJoins)
	case *plan.Join:
		return joinSource(x, need, keepJoins)
	}
	return nil, nil, false
}

// projectSource is the key source of a projection's input, when each
// needed column is a column of the input (the same or renamed).
func projectSource(x *plan.Project, need plan.ColSet, keepJoins bool) (plan.Rel, renames, bool) {
	inNeed := plan.ColSet{}
	rn := renames{}
	for id := range need {
		i := plan.IndexOf(x.Cols, id)
		if i < 0 {
			return nil, nil, false
		}
		c, ok := x.Exprs[i].(*expr.Col)
		if !ok {
			return nil, nil, false
		}
		if plan.ColID(c.Idx) != id {
			rn[id] = c
		}
		inNeed.Add(plan.ColID(c.Idx))
	}
	src, inner, ok := keySource(x.In, inNeed, keepJoins)
	if !ok {
		return nil, nil, false
	}
	for id, e := range rn {
		rn[id] = inner.apply(e)
	}
	for id, e := range inner {
		if need.Has(id) {
			if _, renamed := rn[id]; !renamed {
				rn[id] = e
			}
		}
	}
	return src, rn, true
}

// renames maps needed columns to the key source's columns that stand for
// them; nil is none.
type renames map[plan.ColID]expr.Expr

// apply rewrites e's columns that are renamed.
func (rn renames) apply(e expr.Expr) expr.Expr {
	if len(rn) == 0 {
		return e
	}
	out, _ := plan.RewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
		if c, ok := e.(*expr.Col); ok {
			if to, ok := rn[plan.ColID(c.Idx)]; ok {
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
func filterSource(x *plan.Filter, need plan.ColSet, keepJoins bool) (plan.Rel, renames, bool) {
	preds := plan.Conjuncts(x.Pred)
	if mj, ok := x.In.(*plan.Join); ok && mj.Typ == plan.JoinMark && !mj.Apply && !need.Has(mj.Mark) {
		for _, p := range preds {
			if c, ok := p.(*expr.Col); !ok || plan.ColID(c.Idx) != mj.Mark {
				continue
			}
			var best plan.Rel
			var bestRn renames
			if keepJoins {
				best, _ = markSource(x, mj, need, keepJoins)
			}
			if src, rn, ok := subquerySource(mj, need, keepJoins); ok && (best == nil || plan.EstimateRows(src) <= plan.EstimateRows(best)) {
				best, bestRn = src, rn
			}
			if best != nil {
				return best, bestRn, true
			}
			break
		}
	}
	src, rn, ok := keySource(x.In, need, keepJoins)
	if !ok {
		return nil, nil, false
	}
	return withFilter(src, safeConds(preds, plan.SetOf(src.OutCols()))), rn, true
}

// subquerySource is the key source of the right input of a mark join
// whose condition has left = right for each needed column (of one type:
// the equality then holds for the right column too).
func subquerySource(mj *plan.Join, need plan.ColSet, keepJoins bool) (plan.Rel, renames, bool) {
	lo, ro := plan.SetOf(mj.Left.OutCols()), plan.SetOf(mj.Right.OutCols())
	rn := renames{}
	rneed := plan.ColSet{}
	for _, c := range plan.Conjuncts(mj.Cond) {
		call, ok := c.(*expr.Call)
		if !ok || call.Fn != "=" || len(call.Args) != 2 {
			continue
		}
		a, aok := call.Args[0].(*expr.Col)
		b, bok := call.Args[1].(*expr.Col)
		if !aok || !bok || !arrow.TypeEqual(a.T, b.T) {
			continue
		}
		if ro.Has(plan.ColID(a.Idx)) {
			a, b = b, a
		}
		if need.Has(plan.ColID(a.Idx)) && lo.Has(plan.ColID(a.Idx)) && ro.Has(plan.ColID(b.Idx)) {
			rn[plan.ColID(a.Idx)] = b
			rneed.Add(plan.ColID(b.Idx))
		}
	}
	if len(rn) != len(need) {
		return nil, nil, false
	}
	src, inner, ok := keySource(mj.Right, rneed, keepJoins)
	if !ok || len(inner) > 0 {
		return nil, nil, false
	}
	return src, rn, true
}

// markSource keeps filter(mark join, mark) with both inputs replaced by
// their key sources, and the filter's other safe conditions.
func markSource(x *plan.Filter, mj *plan.Join, need plan.ColSet, keepJoins bool) (plan.Rel, bool) {
	if mj.Cond == nil || !safeExpr(mj.Cond) {
		return nil, false
	}
	lo, ro := plan.SetOf(mj.Left.OutCols()), plan.SetOf(mj.Right.OutCols())
	condRefs := plan.RefsOf(mj.Cond)
	lneed, rneed := plan.ColSet{}, plan.ColSet{}
	for id := range need {
		lneed.Add(id)
	}
	for id := range condRefs {
		switch {
		case lo.Has(id):
			lneed.Add(id)
		case ro.Has(id):
			rneed.Add(id)
		default:
			return nil, false
		}
	}
	l, lrn, ok := keySource(mj.Left, lneed, keepJoins)
	if !ok || len(lrn) > 0 {
		return nil, false
	}
	r, rrn, ok := keySource(mj.Right, rneed, keepJoins)
	if !ok || len(rrn) > 0 {
		return nil, false
	}
	nj := *mj
	nj.Left, nj.Right = l, r
	have := plan.SetOf(nj.OutCols())
	return withFilter(&nj, safeConds(plan.Conjuncts(x.Pred), have)), true
}

// joinSource is the key source of a join: the source of the input that
// produces the needed columns on rows it keeps (an outer join's
// preserved side), or with keepJoins of both inputs of an inner join
// when the columns come from both.
func joinSource(x *plan.Join, need plan.ColSet, keepJoins bool) (plan.Rel, renames, bool) {
	lo, ro := plan.SetOf(x.Left.OutCols()), plan.SetOf(x.Right.OutCols())
	needL, needR := plan.ColSet{}, plan.ColSet{}
	for id := range need {
		switch {
		case lo.Has(id):
			needL.Add(id)
		case ro.Has(id) && x.Typ != plan.JoinSemi && x.Typ != plan.JoinAnti && x.Typ != plan.JoinMark:
			needR.Add(id)
		default:
			return nil, nil, false // a mark, or not there
		}
	}
	switch x.Typ {
	case plan.JoinInner, plan.JoinLeft, plan.JoinSemi, plan.JoinAnti, plan.JoinMark:
		if len(needR) == 0 {
			return keySource(x.Left, needL, keepJoins)
		}
	}
	switch x.Typ {
	case plan.JoinInner, plan.JoinRight:
		if len(needL) == 0 && !x.Apply {
			return keySource(x.Right, needR, keepJoins)
		}
	}
	if x.Typ != plan.JoinInner || x.Apply || !keepJoins {
		return nil, nil, false
	}
	// Columns from both inputs: an inner join of their sources on the
	// safe conditions between them.
	both := plan.SetOf(x.Left.OutCols())
	for id := range ro {
		both.Add(id)
	}
	conds := safeConds(plan.Conjuncts(x.Cond), both)
	for _, c := range conds {
		for id := range plan.RefsOf(c) {
			if lo.Has(id) {
				needL.Add(id)
			} else {
				needR.Add(id)
			}
		}
	}
	l, lrn, ok := keySource(x.Left, needL, keepJoins)
	if !ok || len(lrn) > 0 {
		return nil, nil, false
	}
	r, rrn, ok := keySource(x.Right, needR, keepJoins)
	if !ok || len(rrn) > 0 {
		return nil, nil, false
	}
	have := plan.SetOf(l.OutCols())
	for _, id := range r.OutCols() {
		have.Add(id)
	}
	return &plan.Join{Typ: plan.JoinInner, Left: l, Right: r, Cond: plan.AndOf(safeConds(conds, have))}, nil, true
}

// safeConds are the conditions of preds that are safe to evaluate on
// more rows and (unless have is nil) only use columns in have.
func safeConds(preds []expr.Expr, have plan.ColSet) []expr.Expr {
	var out []expr.Expr
	for _, p := range preds {
		if safeExpr(p) && (have == nil || plan.RefsOf(p).SubsetOf(have)) {
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
		return (arrow.TypeEqual(x.Arg.Type(), x.T) || plan.WidensInt(x.Arg.Type(), x.T)) && safeExpr(x.Arg)
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
func scanCost(r plan.Rel) float64 {
	n := 0.0
	plan.Visit(r, func(x plan.Rel) {
		if s, ok := x.(*plan.Scan); ok {
			n += plan.EstimateRows(s)
		}
	})
	return n
}
