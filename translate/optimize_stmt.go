package translate

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// optimizeStatement optimizes a bound query as a whole: its tree, the
// body of every shared WITH query it reads and the plan of every
// subquery its expressions hold, each once. The bound query is not
// changed (a prepared statement optimizes it again at each Execute); the
// result shares nothing that was rewritten.
func optimizeStatement(p *selectPlan, cfg opt.Config) *selectPlan {
	o := &stmtOptimizer{cfg: cfg, ctes: map[*cteShared]*cteShared{}, subs: map[*subqueryExpr]*subqueryExpr{}}
	return o.plan(p)
}

type stmtOptimizer struct {
	cfg  opt.Config
	ctes map[*cteShared]*cteShared
	subs map[*subqueryExpr]*subqueryExpr
}

func (o *stmtOptimizer) plan(p *selectPlan) *selectPlan {
	n := *p
	n.root = o.tree(p.root)
	return &n
}

// tree optimizes a tree, then the queries it reaches.
func (o *stmtOptimizer) tree(r plan.Rel) plan.Rel {
	return o.reached(opt.Optimize(r, o.cfg))
}

// reached copies an optimized tree with its shared WITH queries and
// subqueries optimized.
func (o *stmtOptimizer) reached(r plan.Rel) plan.Rel {
	if s, ok := r.(*cteScanRel); ok {
		n := *s
		n.cte = o.cte(s.cte)
		return &n
	}
	return plan.Map(r, o.reached, o.expr)
}

func (o *stmtOptimizer) cte(c *cteShared) *cteShared {
	if n, ok := o.ctes[c]; ok {
		return n
	}
	n := &cteShared{name: c.name, out: c.out, cols: c.cols}
	o.ctes[c] = n // before the body: a WITH query is never its own input, but be safe
	n.body = o.tree(c.body)
	return n
}

func (o *stmtOptimizer) expr(e expr.Expr) expr.Expr {
	out, _ := plan.RewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
		sq, ok := e.(*subqueryExpr)
		if !ok {
			return e, nil
		}
		if n, ok := o.subs[sq]; ok {
			return n, nil
		}
		n := *sq
		o.subs[sq] = &n
		n.plan = o.plan(sq.plan)
		return &n, nil
	})
	return out
}
