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
	// recycle: what the part hands over is copied or aggregated, its
	// batches read only while referenced (scan.Options.RecycleBuffers).
	recycle bool
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
	sr := PipelineScan(x.In)
	tasks, err := l.planFiles(sr)
	if err != nil {
		return nil, true, err
	}
	splits := scanSplits(sr, tasks, parts)
	if splits == nil {
		return nil, false, nil
	}
	for _, sp := range splits {
		sp.recycle = true
	}
	var ops []engine.Operator
	_, spine := pipelineSpine(x.In)
	sh := &sharedBuilds{joins: spine, builds: map[*plan.Join]sharedBuild{}}
	closeAll := func() {
		for _, op := range ops {
			op.Close()
		}
		sh.abandon()
	}
	prevSplit, prevShared := l.split, l.shared
	l.shared = sh
	defer func() { l.split, l.shared = prevSplit, prevShared }()
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
	if len(sh.builds) == 0 {
		return op, true, nil
	}
	// A shared build side cannot spill: past statement_mem the whole
	// aggregation runs again serially, where its join can.
	serial := func() (engine.Operator, error) {
		defer l.serially()()
		in, layout, err := l.lower(x.In, need)
		if err != nil {
			return nil, err
		}
		op, _, err := l.aggOver(in, layout, x, exec.NewHashAggregate, total)
		return op, err
	}
	return exec.NewSerialFallback(op, serial), true, nil
}

// scanSplits deals the files of scan sr to parts: whole files when there
// are enough, else every file's share of row groups; nil when it has none.
func scanSplits(sr *plan.Scan, tasks []catalog.FileScanTask, parts int) []*scanSplit {
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
	}
	return splits
}

// parallelJoinMinRows is the fewest rows a join's probe side reads for
// the join to run in parallel parts: below it, starting the parts costs
// more than they save.
const parallelJoinMinRows = 1 << 17

// parallelJoin lowers join x, whose rows nothing needs in order, as one
// part per CPU over a share of its probe side's files, sharing the build
// sides of x and of the joins on its probe side, gathered; ok is false
// when it does not (then nothing was built). Only queries take it
// (Lowerer.ParallelJoins): a statement that changes a table reads its
// target's rows in file order. The joins below x are lowered within the
// parts; a build side of one of them is lowered by the first part, not
// split, and may itself run in parallel.
func (l *Lowerer) parallelJoin(x *plan.Join, need plan.ColSet) (engine.Operator, []plan.ColID, bool, error) {
	parts := runtime.GOMAXPROCS(0)
	if parts < 2 || !l.ParallelJoins || l.Stats != nil || l.split != nil || l.shared != nil {
		return nil, nil, false, nil
	}
	sr, spine := pipelineSpine(x)
	if sr == nil || !spine[x] {
		return nil, nil, false, nil
	}
	tasks, err := l.planFiles(sr)
	if err != nil {
		return nil, nil, true, err
	}
	splits := scanSplits(sr, tasks, parts)
	if taskRows(tasks) < parallelJoinMinRows || splits == nil {
		return nil, nil, false, nil
	}
	for _, sp := range splits {
		// The gather copies the rows the parts hand over.
		sp.recycle = true
	}
	sh := &sharedBuilds{joins: spine, builds: map[*plan.Join]sharedBuild{}}
	var ops []engine.Operator
	closeAll := func() {
		for _, op := range ops {
			op.Close()
		}
		sh.abandon()
	}
	l.shared = sh
	defer func() { l.split, l.shared = nil, nil }()
	var layout []plan.ColID
	for _, split := range splits {
		l.split = split
		op, lay, err := l.lowerJoin(x, need)
		if err != nil {
			closeAll()
			return nil, nil, true, err
		}
		ops, layout = append(ops, op), lay
	}
	g, err := exec.NewGatherOwned(ops)
	if err != nil {
		closeAll()
		return nil, nil, true, err
	}
	// Every part opens (and builds) all the shared build sides before
	// it emits a row, so an overflow comes before the first batch.
	serial := func() (engine.Operator, error) {
		defer l.serially()()
		op, _, err := l.lowerJoin(x, need)
		return op, err
	}
	return exec.NewSerialFallback(g, serial), layout, true, nil
}

// markOrderFree notes that the rows of r go where their order does not
// matter (a hash join's build side, a sort, an aggregation whose answer
// does not depend on it): the scan at the bottom of its pipeline may
// split its files among its workers (splitFile).
func (l *Lowerer) markOrderFree(r plan.Rel) {
	sc := PipelineScan(r)
	if sc == nil {
		return
	}
	if l.orderFree == nil {
		l.orderFree = map[*plan.Scan]bool{}
	}
	l.orderFree[sc] = true
}

// aggsOrderFree reports whether the answer of aggregation x does not
// depend on the order of its input rows: every aggregate merges states
// (count, sum, min...: the ones a parallel aggregation runs, DISTINCT
// or not) or orders its input itself (string_agg(... ORDER BY ...),
// ordered sets). string_agg, array_agg and the JSON aggregates without
// ORDER BY keep their input's order, which users of a table read in one
// piece often rely on.
func aggsOrderFree(x *plan.Agg) bool {
	for _, a := range x.Aggs {
		if !mergeableAggs[a.Fn] && len(a.OrderBy) == 0 {
			return false
		}
	}
	return true
}

// splitFile reports whether scan x, reading tasks, splits each of its
// files among its workers (scan.Options.SplitFiles): a table of fewer
// files than CPUs is otherwise read by fewer workers than CPUs, one for
// a table of one file. Only in queries (a statement that changes a table
// reads its rows in file order), only where their order does not matter
// (markOrderFree), only for a table of parallelJoinMinRows rows or more,
// and not for a scan a parallel part already reads a share of. The build
// side of a join within parallel parts is built by one of them while the
// others wait for it: its scan splitting keeps every CPU busy.
func (l *Lowerer) splitFile(x *plan.Scan, tasks []catalog.FileScanTask) bool {
	if !l.ParallelJoins || !l.orderFree[x] || l.split != nil && l.split.scan == x ||
		len(tasks) >= runtime.GOMAXPROCS(0) {
		return false
	}
	return taskRows(tasks) >= parallelJoinMinRows
}

// taskRows is the rows of the data files of tasks, before deletes.
func taskRows(tasks []catalog.FileScanTask) int64 {
	var rows int64
	for _, t := range tasks {
		if t.File != nil {
			rows += t.File.RecordCount
		}
	}
	return rows
}

// serially keeps joins from running in parallel parts until the function
// it returns is called: a plan lowered again after a shared build side
// overflowed runs serially.
func (l *Lowerer) serially() func() {
	prev := l.ParallelJoins
	l.ParallelJoins = false
	return func() { l.ParallelJoins = prev }
}

// ParallelJoinParts is how many parts join x runs in when a query is
// lowered to run, if it is not within another parallel pipeline: the
// CPUs when it can run in parallel and its probe side's table has enough
// rows, 0 otherwise. covered are the joins of the pipeline it would run
// (they do not run in parts of their own). EXPLAIN shows the parts as a
// Gather over the join.
func ParallelJoinParts(x *plan.Join) (parts int, covered []*plan.Join) {
	parts = runtime.GOMAXPROCS(0)
	if parts < 2 {
		return 0, nil
	}
	sr, spine := pipelineSpine(x)
	if sr == nil || !spine[x] || sr.Snapshot == nil {
		return 0, nil
	}
	if n, ok := plan.SummaryInt(sr.Snapshot.Summary, "total-records"); !ok || n < parallelJoinMinRows {
		return 0, nil
	}
	return parts, PipelineJoins(x)
}

// PipelineJoins are the joins lowered within the parts of a parallel
// pipeline over r: those on it, and those under the build sides its
// parts build again.
func PipelineJoins(r plan.Rel) []*plan.Join {
	_, spine := pipelineSpine(r)
	var out []*plan.Join
	for j, shared := range spine {
		out = append(out, j)
		if !shared {
			plan.Visit(j.Right, func(n plan.Rel) {
				if y, ok := n.(*plan.Join); ok {
					out = append(out, y)
				}
			})
		}
	}
	return out
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
	return PipelineScan(x.In) != nil
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
	sr := PipelineScan(x.In)
	if sr.Snapshot == nil {
		return 0
	}
	if n, ok := plan.SummaryInt(sr.Snapshot.Summary, "total-data-files"); ok && n == 0 {
		return 0
	}
	return parts
}

// PipelineScan returns the scan at the bottom of a pipeline, the one its
// parallel parts split, or nil when r is not one (see pipelineSpine).
func PipelineScan(r plan.Rel) *plan.Scan {
	sc, _ := pipelineSpine(r)
	return sc
}

// pipelineSpine returns the scan at the bottom of a chain of filters,
// projections and joins (through their probe side), and the joins on it,
// true for those whose build side the parts share; sc is nil when r is
// not such a chain. Each part reads its share of the scan's rows through
// the chain:
//   - a hash join is on the chain through its probe side, and its build
//     side is built once for all parts (exec.SharedBuild); the joins that
//     remember what each build row found (right, full, and those building
//     on their left) merge that as the parts end;
//   - a semi join without keys keeps left rows, so each part's share of
//     them meets the whole right input, built again by each part.
func pipelineSpine(r plan.Rel) (sc *plan.Scan, shared map[*plan.Join]bool) {
	for {
		switch x := r.(type) {
		case *plan.Filter:
			r = x.In
		case *plan.Project:
			r = x.In
		case *plan.Join:
			probe, share := joinProbeSide(x)
			if probe == nil {
				return nil, nil
			}
			if shared == nil {
				shared = map[*plan.Join]bool{}
			}
			shared[x] = share
			r = probe
		case *plan.Scan:
			return x, shared
		default:
			return nil, nil
		}
	}
}

// joinProbeSide is the input of x that parallel parts split, and whether
// they share the build side of x; nil when x cannot be in a pipeline.
func joinProbeSide(x *plan.Join) (probe plan.Rel, share bool) {
	if x.Apply {
		return nil, false
	}
	left, right := x.Left, x.Right
	swap, buildLeft := plan.JoinBuildSide(x)
	if swap {
		left, right = right, left
	}
	if keys, _, _, _ := plan.SplitJoinCond(x, left, right); len(keys) == 0 {
		if x.Typ == plan.JoinSemi {
			return x.Left, false
		}
		return nil, false
	}
	if buildLeft {
		return right, true
	}
	return left, true
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
