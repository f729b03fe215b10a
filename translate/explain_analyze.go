package translate

import (
	"context"
	"fmt"
	"time"

	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// explainAnalyze runs the query, discarding its rows, and prints its plan
// with what each node did.
func explainAnalyze(ctx context.Context, s *session, p *plan.Select) ([]string, error) {
	start := time.Now()
	l := newLowerer(ctx, s, p.ColTable)
	l.stats = map[plan.Rel]*opStats{}
	p = opt.Statement(p, s.optConfig())
	op, err := l.lowerPlan(p)
	if err != nil {
		return nil, err
	}
	planned := time.Since(start)
	executing := time.Now()
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return nil, mapCtxErr(ctx, err)
	}
	rows := int64(0)
	for {
		b, err := op.Next()
		if err != nil {
			return nil, mapCtxErr(ctx, err)
		}
		if b == nil {
			break
		}
		rows += b.NumRows()
	}
	// Scans also say what pruning skipped.
	for _, rec := range l.scanStats {
		st, ok := l.stats[rec.rel]
		if !ok {
			continue
		}
		ps := l.planned[rec.rel].stats
		ss := rec.scan.Stats()
		st.extra = fmt.Sprintf("manifests %d skipped %d, files %d skipped %d, row groups %d skipped %d",
			ps.Manifests, ps.ManifestsSkipped, ps.Files, ps.FilesSkipped, ss.RowGroups, ss.RowGroupsSkipped)
	}
	notes := make(map[plan.Rel]string, len(l.stats))
	for r, st := range l.stats {
		notes[r] = st.String()
	}
	lines := p.Render(notes)
	lines = append(lines,
		fmt.Sprintf("Planning Time: %.3f ms", float64(planned.Microseconds())/1000),
		// As PostgreSQL: execution without the planning before it.
		fmt.Sprintf("Execution Time: %.3f ms", float64(time.Since(executing).Microseconds())/1000),
		fmt.Sprintf("Rows: %d", rows))
	return lines, nil
}
