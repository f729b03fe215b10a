package translate

import (
	"context"
	"time"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/translate/lower"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// Location is the session's TimeZone (lowering's env).
func (s *session) Location() *time.Location { return s.settings.Location() }

// ColumnCache is the backend's cache of decoded columns (lowering's env).
func (s *session) ColumnCache() *scan.ColumnCache { return s.backend.columns }

// FooterCache is the backend's cache of parsed Parquet footers (lowering's
// env).
func (s *session) FooterCache() *scan.FooterCache { return s.backend.footers }

// RunNow runs a subquery before the statement's rows, under statement_mem
// and a statement_timeout of its own (lowering's env).
func (s *session) RunNow(ctx context.Context, op engine.Operator, max int) ([]*expr.Lit, error) {
	ctx, cancel := s.withStatementTimeout(ctx)
	defer cancel()
	rows, err := lower.Drain(ctx, s.limitMemory(op), max)
	if err != nil {
		return nil, statementErr(ctx, err)
	}
	return rows, nil
}

// lower builds the engine operator tree of a bound query; it yields
// exactly the query's result columns, in order. The tree is optimized
// first (optimize.go), tables' files are planned here, and uncorrelated
// subqueries in expressions run here, once.
func lowerQuery(ctx context.Context, s *session, p *plan.Select) (engine.Operator, error) {
	return lowerQueryWith(ctx, s, p, s.optConfig())
}

// lowerQueryWith is lowerQuery with the optimizer's configuration.
func lowerQueryWith(ctx context.Context, s *session, p *plan.Select, cfg opt.Config) (engine.Operator, error) {
	return lowerOptimized(ctx, s, opt.Statement(p, cfg))
}

// lowerOptimized lowers a query already optimized.
func lowerOptimized(ctx context.Context, s *session, p *plan.Select) (engine.Operator, error) {
	l := lower.New(ctx, s, p.ColTable)
	l.ParallelJoins = true
	op, err := l.Plan(p)
	if err != nil {
		return nil, err
	}
	return s.limitMemory(op), nil
}
