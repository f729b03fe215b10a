package lower

import (
	"runtime"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/translate/plan"
)

// Parallel aggregation. An aggregation over a pipeline of filters and
// projections on one table scan runs as one partial aggregation per CPU,
// each over its share of the table's files, gathered and merged by a
// final aggregation. The aggregates must be ones whose states merge
// (count, sum, avg, min, max, bool_and/or, the variance family; not
// DISTINCT, ORDER BY, string_agg, array_agg or ordered sets).

// scanSplit makes one scan read only some files, or (shards > 1) one
// shard of the row groups of all of them.
type scanSplit struct {
	scan          *plan.Scan
	tasks         []catalog.FileScanTask
	shard, shards int
}

// mergeableAggs are the aggregates the two-phase aggregation supports.
var mergeableAggs = map[string]bool{"count": true, "sum": true, "avg": true, "min": true, "max": true,
	"bool_and": true, "bool_or": true, "every": true,
	"stddev": true, "stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true}

// parallelAgg lowers x in parallel when it can; ok is false when it
// cannot (then nothing was built).
func (l *Lowerer) parallelAgg(x *plan.Agg, need plan.ColSet) (engine.Operator, bool, error) {
	parts := runtime.GOMAXPROCS(0)
	if parts < 2 || l.Stats != nil || !parallelizable(x) {
		return nil, false, nil
	}
	sr := pipelineScan(x.In)
	tasks, err := l.planFiles(sr)
	if err != nil {
		return nil, true, err
	}
	var splits []*scanSplit
	if shares := splitTasks(tasks, parts); len(shares) >= parts {
		for _, share := range shares {
			splits = append(splits, &scanSplit{scan: sr, tasks: share})
		}
	} else if len(tasks) > 0 {
		// Fewer files than CPUs: each part reads every file's share of
		// row groups.
		for k := 0; k < parts; k++ {
			splits = append(splits, &scanSplit{scan: sr, tasks: tasks, shard: k, shards: parts})
		}
	} else {
		return nil, false, nil
	}
	var ops []engine.Operator
	closeAll := func() {
		for _, op := range ops {
			op.Close()
		}
	}
	defer func() { l.split = nil }()
	// Each part is sized for its share of the groups: exact when the
	// parts read ranges of a clustered key, one doubling short when every
	// part meets every group.
	total := groupEstimate(x)
	part := total / int64(len(splits))
	for _, split := range splits {
		l.split = split
		in, layout, err := l.lower(x.In, need)
		if err != nil {
			closeAll()
			return nil, true, err
		}
		op, _, err := l.aggOver(in, layout, x, exec.NewHashAggregatePartial, part)
		if err != nil {
			closeAll()
			return nil, true, err
		}
		ops = append(ops, op)
	}
	g, err := exec.NewGather(ops)
	if err != nil {
		closeAll()
		return nil, true, err
	}
	// The final phase merges states: its calls only give the aggregates'
	// names and argument types (their expressions are not evaluated).
	calls := make([]exec.AggCall, len(x.Aggs))
	for i, a := range x.Aggs {
		calls[i] = exec.AggCall{Fn: a.Fn, Name: a.Name, Arg: a.Arg, Args: a.Args}
	}
	op, err := exec.NewHashAggregateFinal(g, len(x.Groups), calls, l.opts)
	if err != nil {
		g.Close()
		return nil, true, err
	}
	expectGroups(op, total)
	return op, true, nil
}

// parallelizable reports whether x's aggregates merge and its input is a
// pipeline over one table scan.
func parallelizable(x *plan.Agg) bool {
	if len(x.Aggs) == 0 {
		return false
	}
	for _, a := range x.Aggs {
		if !mergeableAggs[a.Fn] || a.Distinct || len(a.OrderBy) > 0 {
			return false
		}
		if (a.Fn == "sum" || a.Fn == "avg") && a.Arg != nil && a.Arg.Type().ID() == arrow.INTERVAL_MONTH_DAY_NANO {
			return false // its running sum has no state columns
		}
	}
	return pipelineScan(x.In) != nil
}

// ParallelParts is how many parts x runs in when lowered to run (not
// under EXPLAIN ANALYZE, which measures it serially): the CPUs when it
// can run in parallel and its table has data files, 0 otherwise. EXPLAIN
// shows the parts as PostgreSQL's Gather of partial aggregations.
func ParallelParts(x *plan.Agg) int {
	parts := runtime.GOMAXPROCS(0)
	if parts < 2 || !parallelizable(x) {
		return 0
	}
	sr := pipelineScan(x.In)
	if sr.Snapshot == nil {
		return 0
	}
	if n, ok := plan.SummaryInt(sr.Snapshot.Summary, "total-data-files"); ok && n == 0 {
		return 0
	}
	return parts
}

// pipelineScan returns the scan at the bottom of a chain of filters,
// projections and semi joins (through their left input), or nil when r
// is not such a chain. A semi join keeps left rows, so each part's share
// of them meets the whole right input (built again by each part: the
// semi joins of the key restrictions have small right inputs).
func pipelineScan(r plan.Rel) *plan.Scan {
	for {
		switch x := r.(type) {
		case *plan.Filter:
			r = x.In
		case *plan.Project:
			r = x.In
		case *plan.Join:
			if x.Typ != plan.JoinSemi || x.Apply {
				return nil
			}
			r = x.Left
		case *plan.Scan:
			return x
		default:
			return nil
		}
	}
}

// splitTasks deals files into at most n shares of about equal bytes.
func splitTasks(tasks []catalog.FileScanTask, n int) [][]catalog.FileScanTask {
	if len(tasks) < 2 {
		return nil
	}
	n = min(n, len(tasks))
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	size := func(i int) int64 { return tasks[i].File.FileSizeInBytes }
	sort.SliceStable(order, func(a, b int) bool { return size(order[a]) > size(order[b]) })
	shares := make([][]catalog.FileScanTask, n)
	load := make([]int64, n)
	for _, i := range order {
		min := 0
		for k := 1; k < n; k++ {
			if load[k] < load[min] {
				min = k
			}
		}
		shares[min] = append(shares[min], tasks[i])
		load[min] += size(i)
	}
	return shares
}
