package lower

import (
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/translate/plan"
)

// cteRuns are the shared WITH queries of one execution of a statement,
// each lowered once into a Materialized its references read. One cteRuns
// serves every Lowerer of the execution (the subqueries run before the
// statement starts included); a prepared statement gets a new one at
// each Execute, as it lowers its tree again.
type cteRuns struct {
	runs map[*plan.CTE]*exec.Materialized
}

// cteRunsOf returns the Lowerer's cteRuns, made on first use.
func (l *Lowerer) cteRunsOf() *cteRuns {
	if l.ctes == nil {
		l.ctes = &cteRuns{runs: map[*plan.CTE]*exec.Materialized{}}
	}
	return l.ctes
}

// lowerCTEScan lowers a reference to a shared WITH query: a reader of
// its result, which the first reader to open computes.
func (l *Lowerer) lowerCTEScan(x *plan.CTEScan) (engine.Operator, []plan.ColID, error) {
	runs := l.cteRunsOf()
	m, ok := runs.runs[x.CTE]
	if !ok {
		body := x.CTE.Body
		build := func() (engine.Operator, error) {
			l.collectScanPredicates(body)
			return l.lowerExact(body, x.CTE.Out)
		}
		in, err := build()
		if err != nil {
			return nil, nil, err
		}
		m = exec.NewMaterialized(in, in.Schema(), build)
		runs.runs[x.CTE] = m
	}
	return m.Reader(), x.Cols, nil
}
