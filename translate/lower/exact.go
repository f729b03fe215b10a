package lower

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// A filter directly over a table scan hands its predicate to the scan
// (engine.ScanSpec.Exact), which evaluates it as the Filter operator
// would, on each batch it reads, and returns only the rows it keeps: no
// Filter operator is left. Plain EXPLAIN still shows the plan's Filter;
// EXPLAIN ANALYZE counts the rows the scan read, before the filter.

// The columns the scan reads only for the predicate (those the filter's
// parent does not need) are flagged engine.ScanSpec.FilterOnly: the scan
// returns them all NULL rather than building them for the rows it keeps.
// The parent's need is what every operator above reads (a join already
// emits the columns outside it as NULL, JoinSpec.Unused).

// exactFilter is a filter's predicate offered to the scan below it;
// taken when the scan applies it. need is what the filter's parent reads.
type exactFilter struct {
	scan  *plan.Scan
	pred  expr.Expr
	need  plan.ColSet
	taken bool
}

// filterOnly flags the columns of a scan's layout that the filter's
// parent does not need (nil when none): the predicate alone reads them.
func (ex *exactFilter) filterOnly(layout []plan.ColID) []bool {
	var out []bool
	for i, id := range layout {
		if ex.need.Has(id) {
			continue
		}
		if out == nil {
			out = make([]bool, len(layout))
		}
		out[i] = true
	}
	return out
}

// scanCanApply reports whether a scan may evaluate pred in its workers:
// columns, constants, casts, CASE and functions that give the same
// result whichever rows are evaluated in which order (no volatile
// function, no function of Go values, which may read the session), and
// subqueries (a filter's are uncorrelated here: constants once lowered).
func scanCanApply(pred expr.Expr) bool {
	switch x := pred.(type) {
	case *expr.Col, *expr.Lit:
		return true
	case *plan.Subquery:
		return true
	case *expr.Cast:
		return scanCanApply(x.Arg)
	case *expr.Call:
		if x.Go != nil || expr.Volatile(x.Fn) {
			return false
		}
		for _, a := range x.Args {
			if !scanCanApply(a) {
				return false
			}
		}
		return true
	case *expr.Case:
		for _, w := range x.Whens {
			if !scanCanApply(w.Cond) || !scanCanApply(w.Then) {
				return false
			}
		}
		return x.Else == nil || scanCanApply(x.Else)
	}
	return false
}
