package plan

import "github.com/icegate/icegate/engine/expr"

// MarkFilter recognizes a filter over a mark join j that makes it a semi
// or anti join: among preds (the filter's conjuncts), the mark itself
// (semi) or its negation (anti), with the mark used nowhere else. It
// returns the join type and the conjuncts left; ok is false when the
// filter does not have that form. Lowering runs the join so, and EXPLAIN
// shows it so.
func MarkFilter(j *Join, preds []expr.Expr) (typ JoinType, rest []expr.Expr, ok bool) {
	typ = -1
	for _, p := range preds {
		if c, isCol := p.(*expr.Col); isCol && ColID(c.Idx) == j.Mark && typ < 0 {
			typ = JoinSemi
			continue
		}
		if n, isCall := p.(*expr.Call); isCall && n.Fn == "not" && len(n.Args) == 1 && typ < 0 {
			if c, isCol := n.Args[0].(*expr.Col); isCol && ColID(c.Idx) == j.Mark {
				typ = JoinAnti
				continue
			}
		}
		rest = append(rest, p)
	}
	if typ < 0 || RefsOf(AndOf(rest)).Has(j.Mark) {
		return 0, nil, false
	}
	return typ, rest, true
}
