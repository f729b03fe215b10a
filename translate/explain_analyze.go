package translate

import (
	"context"
	"fmt"
	"time"

	"github.com/icegate/icegate/translate/explain"
	"github.com/icegate/icegate/translate/lower"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// analyzed is a query EXPLAIN ANALYZE ran: its optimized plan and what
// each node's operator did.
type analyzed struct {
	plan                *plan.Select
	l                   *lower.Lowerer
	planning, execution time.Duration
	rows                int64
}

// runAnalyze optimizes, lowers and runs the query, discarding its rows.
func runAnalyze(ctx context.Context, s *session, p *plan.Select) (*analyzed, error) {
	start := time.Now()
	l := lower.New(ctx, s, p.ColTable)
	l.Stats = map[plan.Rel]*lower.OpStats{}
	p = opt.Statement(p, s.optConfig())
	op, err := l.Plan(p)
	if err != nil {
		return nil, err
	}
	a := &analyzed{plan: p, l: l, planning: time.Since(start)}
	executing := time.Now()
	op = s.limitMemory(op)
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return nil, statementErr(ctx, err)
	}
	for {
		b, err := op.Next()
		if err != nil {
			return nil, statementErr(ctx, err)
		}
		if b == nil {
			break
		}
		a.rows += b.NumRows()
	}
	// As PostgreSQL: execution without the planning before it.
	a.execution = time.Since(executing)
	return a, nil
}

// stats are what each node did, for package explain.
func (a *analyzed) stats() map[plan.Rel]explain.Stat {
	out := make(map[plan.Rel]explain.Stat, len(a.l.Stats))
	for r, st := range a.l.Stats {
		out[r] = explain.Stat{Rows: st.Rows(), Loops: st.Opens(), First: st.FirstTime(), Total: st.Time(), Disk: st.Spilled()}
	}
	return out
}

// scans are what each table scan skipped.
func (a *analyzed) scans() map[*plan.Scan]explain.ScanFacts {
	out := map[*plan.Scan]explain.ScanFacts{}
	for _, rec := range a.l.ScanStats {
		ps := a.l.Planned[rec.Rel].Stats
		ss := rec.Scan.Stats()
		out[rec.Rel] = explain.ScanFacts{Manifests: ps.Manifests, ManifestsSkipped: ps.ManifestsSkipped,
			Files: ps.Files, FilesSkipped: ps.FilesSkipped, RowGroups: int64(ss.RowGroups), RowGroupsSkipped: int64(ss.RowGroupsSkipped)}
	}
	return out
}

// lines is EXPLAIN (FORMAT ICEGATE, ANALYZE): icegate's tree with what
// each node did and what scans skipped.
func (a *analyzed) lines() []string {
	for _, rec := range a.l.ScanStats {
		st, ok := a.l.Stats[rec.Rel]
		if !ok {
			continue
		}
		ps := a.l.Planned[rec.Rel].Stats
		ss := rec.Scan.Stats()
		st.Extra = fmt.Sprintf("manifests %d skipped %d, files %d skipped %d, row groups %d skipped %d",
			ps.Manifests, ps.ManifestsSkipped, ps.Files, ps.FilesSkipped, ss.RowGroups, ss.RowGroupsSkipped)
	}
	notes := make(map[plan.Rel]string, len(a.l.Stats))
	for r, st := range a.l.Stats {
		notes[r] = st.String()
	}
	lines := a.plan.Render(notes)
	return append(lines,
		fmt.Sprintf("Planning Time: %.3f ms", ms(a.planning)),
		fmt.Sprintf("Execution Time: %.3f ms", ms(a.execution)),
		fmt.Sprintf("Rows: %d", a.rows))
}
