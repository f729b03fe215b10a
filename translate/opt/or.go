package opt

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// impliedByOr derives, from a condition (a OR b ...) over both inputs of
// a join, a condition over one input that every row passing it must
// meet: the OR of, in each branch, the conjuncts over that input only.
// TPC-H Q7's (n1 = 'FRANCE' AND n2 = 'GERMANY') OR (n1 = 'GERMANY' AND
// n2 = 'FRANCE') implies n1 IN ('FRANCE', 'GERMANY') for the first
// nation, which then filters it before the joins instead of after. The
// original condition stays. Only conjuncts that cannot raise an error
// and are deterministic are taken: the derived filter runs on rows the
// original condition would never have seen.
func impliedByOr(p expr.Expr, side plan.ColSet) (expr.Expr, bool) {
	call, ok := p.(*expr.Call)
	if !ok || call.Fn != "or" || len(call.Args) < 2 {
		return nil, false
	}
	branches := make([]expr.Expr, 0, len(call.Args))
	for _, b := range call.Args {
		var mine []expr.Expr
		for _, c := range plan.Conjuncts(b) {
			if refs := plan.RefsOf(c); len(refs) > 0 && refs.SubsetOf(side) && safeExpr(c) {
				mine = append(mine, c)
			}
		}
		if len(mine) == 0 {
			return nil, false // this branch says nothing about side
		}
		branches = append(branches, plan.AndOf(mine))
	}
	return &expr.Call{Fn: "or", Args: branches, T: expr.Bool}, true
}
