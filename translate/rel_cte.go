package translate

import (
	"fmt"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// WITH queries computed once.
//
// As in PostgreSQL, a WITH query that the statement refers to more than
// once, or that is written AS MATERIALIZED, is evaluated once per
// execution and its rows are shared by its references; one referred to
// once, or written AS NOT MATERIALIZED, is inlined like a subquery (so
// conditions on it still move into it). The shared query is a cteShared,
// bound once; each reference is a cteScanRel with its own column ids,
// the i-th of which is the shared query's out[i].

// cteShared is a WITH query whose result its references share.
type cteShared struct {
	name string
	body plan.Rel     // the bound query
	out  []plan.ColID // its result columns, in order (ids of body)
	cols []pgtypes.Column
}

// cteScanRel reads the rows of a shared WITH query.
type cteScanRel struct {
	cte  *cteShared
	cols []plan.ColID // cols[i] is cte.out[i]
}

func (r *cteScanRel) OutCols() []plan.ColID { return r.cols }

// estimate is the shared query's.
func (r *cteScanRel) Estimate() (rows, base float64) { return plan.Estimate(r.cte.body) }

// Describe is a reference's line in a plan.
func (x *cteScanRel) Describe(q *plan.ColTable) string {
	return fmt.Sprintf("CTE scan %s [%s]", x.cte.name, plan.FmtCols(q, x.cols))
}

// describeCTE is the line heading a shared WITH query in a plan.
func describeCTE(q *plan.ColTable, c *cteShared) string {
	return fmt.Sprintf("CTE %s [%s]", c.name, plan.FmtCols(q, c.out))
}

// sharedCTEs lists the shared WITH queries root reads, directly, in
// its subqueries or through other shared WITH queries, each once, in the order a plan
// shows them: a query before those it reads.
func sharedCTEs(root plan.Rel) []*cteShared {
	var out []*cteShared
	seen := map[*cteShared]bool{}
	var walk func(r plan.Rel)
	walk = func(r plan.Rel) {
		plan.Visit(r, func(n plan.Rel) {
			for _, e := range plan.Exprs(n) {
				plan.WalkExpr(e, func(e expr.Expr) {
					if sq, ok := e.(*subqueryExpr); ok {
						walk(sq.plan.root)
					}
				})
			}
			s, ok := n.(*cteScanRel)
			if !ok || seen[s.cte] {
				return
			}
			seen[s.cte] = true
			out = append(out, s.cte)
			walk(s.cte.body)
		})
	}
	walk(root)
	return out
}
