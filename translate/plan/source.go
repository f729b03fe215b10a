package plan

import (
	"context"

	"github.com/icegate/icegate/engine"
)

// A Leaf is a node without inputs that the plan package knows only
// through this interface: estimates, rendering and column bookkeeping ask
// it, and a new kind of leaf touches no switch here.
type Leaf interface {
	Rel
	// Estimate is the rows the node is expected to produce and the rows
	// of the tables below it (see Estimate).
	Estimate() (rows, base float64)
	// Describe is the node's line in a rendered plan.
	Describe(q *ColTable) string
}

// A Source is a leaf defined outside the plan package that lowers itself:
// a system catalog, a metadata table, CHANGES BETWEEN. It produces every
// column it has (OutCols), of which need are those something reads.
type Source interface {
	Leaf
	Lower(ctx context.Context, need ColSet) (engine.Operator, []ColID, error)
}
