package translate

import (
	"context"
	"fmt"
	"time"

	"github.com/icegate/icegate/translate/lower"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// explainAnalyze runs the query, discarding its rows, and prints its plan
// with what each node did.
func explainAnalyze(ctx context.Context, s *session, p *plan.Select) ([]string, error) {
	start := time.Now()
	l := lower.New(ctx, s, p.ColTable)
	l.Stats = map[plan.Rel]*lower.OpStats{}
	p = opt.Statement(p, s.optConfig())
	op, err := l.Plan(p)
	if err != nil {
		return nil, err
	}
	planned := time.Since(start)
	executing := time.Now()
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return nil, statementErr(ctx, err)
	}
	rows := int64(0)
	for {
		b, err := op.Next()
		if err != nil {
			return nil, statementErr(ctx, err)
		}
		if b == nil {
			break
		}
		rows += b.NumRows()
	}
	// Scans also say what pruning skipped.
	for _, rec := range l.ScanStats {
		st, ok := l.Stats[rec.Rel]
		if !ok {
			continue
		}
		ps := l.Planned[rec.Rel].Stats
		ss := rec.Scan.Stats()
		st.Extra = fmt.Sprintf("manifests %d skipped %d, files %d skipped %d, row groups %d skipped %d",
			ps.Manifests, ps.ManifestsSkipped, ps.Files, ps.FilesSkipped, ss.RowGroups, ss.RowGroupsSkipped)
	}
	notes := make(map[plan.Rel]string, len(l.Stats))
	for r, st := range l.Stats {
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
