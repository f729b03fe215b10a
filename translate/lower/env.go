package lower

import (
	"context"
	"time"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/scan"
)

// Env is what lowering needs of the session, and all it sees of it.
type Env interface {
	// Location is the session's TimeZone, for the expressions lowering
	// compiles.
	Location() *time.Location
	// RunNow runs op, a subquery lowering evaluates before the statement's
	// rows (an InitPlan), under the statement's limits, and returns the
	// values of its first column in at most max rows.
	RunNow(ctx context.Context, op engine.Operator, max int) ([]*expr.Lit, error)
}

// scanTotaler is an Env that adds up its scans' work for the server's
// metrics (scan.Totals).
type scanTotaler interface {
	ScanTotals() *scan.Totals
}

// columnCacher is an Env whose scans keep decoded columns of small tables
// between statements.
type columnCacher interface {
	ColumnCache() *scan.ColumnCache
}

// footerCacher is an Env whose scans keep parsed Parquet footers between
// statements.
type footerCacher interface {
	FooterCache() *scan.FooterCache
}
