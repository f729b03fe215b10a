package opt

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// Statement optimizes a bound query as a whole: its tree, the
// body of every shared WITH query it reads and the plan of every
// subquery its expressions hold, each once. The bound query is not
// changed (a prepared statement optimizes it again at each Execute); the
// result shares nothing that was rewritten.
func Statement(p *plan.Select, cfg Config) *plan.Select {
	o := &stmtOptimizer{cfg: cfg, ctes: map[*plan.CTE]*plan.CTE{}, subs: map[*plan.Subquery]*plan.Subquery{}}
	return o.plan(p)
}

type stmtOptimizer struct {
	cfg  Config
	ctes map[*plan.CTE]*plan.CTE
	subs map[*plan.Subquery]*plan.Subquery
}

func (o *stmtOptimizer) plan(p *plan.Select) *plan.Select {
	n := *p
	n.Root = o.tree(p.Root)
	return &n
}

// tree optimizes a tree, then the queries it reaches.
func (o *stmtOptimizer) tree(r plan.Rel) plan.Rel {
	return o.reached(Optimize(r, o.cfg))
}

// reached copies an optimized tree with its shared WITH queries and
// subqueries optimized.
func (o *stmtOptimizer) reached(r plan.Rel) plan.Rel {
	if s, ok := r.(*plan.CTEScan); ok {
		n := *s
		n.CTE = o.cte(s.CTE)
		return &n
	}
	return plan.Map(r, o.reached, o.expr)
}

func (o *stmtOptimizer) cte(c *plan.CTE) *plan.CTE {
	if n, ok := o.ctes[c]; ok {
		return n
	}
	n := &plan.CTE{Name: c.Name, Out: c.Out, Cols: c.Cols}
	o.ctes[c] = n // before the body: a WITH query is never its own input, but be safe
	n.Body = o.tree(c.Body)
	return n
}

func (o *stmtOptimizer) expr(e expr.Expr) expr.Expr {
	out, _ := plan.RewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
		sq, ok := e.(*plan.Subquery)
		if !ok {
			return e, nil
		}
		if n, ok := o.subs[sq]; ok {
			return n, nil
		}
		n := *sq
		o.subs[sq] = &n
		n.Plan = o.plan(sq.Plan)
		return &n, nil
	})
	return out
}
