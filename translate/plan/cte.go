package plan

import (
	"fmt"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// WITH queries computed once.
//
// As in PostgreSQL, a WITH query that the statement refers to more than
// once, or that is written AS MATERIALIZED, is evaluated once per
// execution and its rows are shared by its references; one referred to
// once, or written AS NOT MATERIALIZED, is inlined like a subquery (so
// conditions on it still move into it). The shared query is a CTE,
// bound once; each reference is a CTEScan with its own column ids,
// the i-th of which is the shared query's Out[i].

// CTE is a WITH query whose result its references share.
type CTE struct {
	Name string
	Body Rel     // the bound query
	Out  []ColID // its result columns, in order (ids of Body)
	Cols []pgtypes.Column
}

// CTEScan reads the rows of a shared WITH query.
type CTEScan struct {
	CTE  *CTE
	Cols []ColID // Cols[i] is CTE.Out[i]
}

func (r *CTEScan) OutCols() []ColID { return r.Cols }

// Estimate is the shared query's.
func (r *CTEScan) Estimate() (rows, base float64) { return Estimate(r.CTE.Body) }

// Describe is a reference's line in a plan.
func (x *CTEScan) Describe(q *ColTable) string {
	return fmt.Sprintf("CTE scan %s [%s]", x.CTE.Name, FmtCols(q, x.Cols))
}

// describeCTE is the line heading a shared WITH query in a plan.
func describeCTE(q *ColTable, c *CTE) string {
	return fmt.Sprintf("CTE %s [%s]", c.Name, FmtCols(q, c.Out))
}

// sharedCTEs lists the shared WITH queries root reads, directly, in
// its subqueries or through other shared WITH queries, each once, in the order a plan
// shows them: a query before those it reads.
func sharedCTEs(root Rel) []*CTE {
	var out []*CTE
	seen := map[*CTE]bool{}
	var walk func(r Rel)
	walk = func(r Rel) {
		Visit(r, func(n Rel) {
			for _, e := range Exprs(n) {
				WalkExpr(e, func(e expr.Expr) {
					if sq, ok := e.(*Subquery); ok {
						walk(sq.Plan.Root)
					}
				})
			}
			s, ok := n.(*CTEScan)
			if !ok || seen[s.CTE] {
				return
			}
			seen[s.CTE] = true
			out = append(out, s.CTE)
			walk(s.CTE.Body)
		})
	}
	walk(root)
	return out
}
