package lower

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

func New(ctx context.Context, e Env, q *plan.ColTable) *Lowerer {
	return &Lowerer{ctx: ctx, env: e, q: q, opts: expr.CompileOptions{TimeZone: e.Location()}, init: map[*plan.Subquery]*expr.Lit{}}
}

// Lowerer lowers one statement's relational trees.
type Lowerer struct {
	ctx  context.Context
	env  Env
	q    *plan.ColTable
	opts expr.CompileOptions
	// init caches the values of uncorrelated subqueries.
	init map[*plan.Subquery]*expr.Lit
	// Stats, for EXPLAIN ANALYZE, records what each node's operator did;
	// root is the optimized tree Plan lowered.
	Stats map[plan.Rel]*OpStats
	root  plan.Rel
	// workTables are the work tables of the recursive queries being run.
	workTables map[*plan.WorkTableRef]*exec.WorkTable
	// split, while a parallel part is lowered, restricts one scan to some
	// of its files.
	split *scanSplit
	// ParallelJoins lets a join over a large probe side run in parallel
	// parts (parallel.go); queries set it, statements that change a
	// table do not.
	ParallelJoins bool
	// shared, while the parts of a parallel aggregation are lowered, are
	// the build sides of joins they share (parallel.go).
	shared *sharedBuilds
	// ScanPreds are the pruning predicates of scans (prune.go);
	// Planned caches each scan's planned files.
	ScanPreds map[*plan.Scan][]catalog.Predicate
	Planned   map[*plan.Scan]plannedScan
	// ScanStats are the scans built, for EXPLAIN ANALYZE.
	ScanStats []scanRecord
	// origin maps the nodes of a per-row copy of a dependent join's right
	// side, while it is lowered, to the plan's nodes (apply.go).
	origin map[plan.Rel]plan.Rel
	// ctes are the shared WITH queries of the execution (cte.go).
	ctes *cteRuns
	// exact, while the scan under a filter is lowered, is the filter's
	// predicate for the scan to apply itself (exact.go).
	exact *exactFilter
	// orderFree are the scans whose rows go where their order does not
	// matter (markOrderFree): a large one is split among its workers
	// (splitFile).
	orderFree map[*plan.Scan]bool
}

// scanRecord ties a scan operator to its plan node.
type scanRecord struct {
	Rel  *plan.Scan
	Scan *scan.Scan
}

// plannedScan is the outcome of planning one scan.
type plannedScan struct {
	tasks []catalog.FileScanTask
	Stats catalog.PlanStats
}

// Plan lowers a query and projects its result columns.
func (l *Lowerer) Plan(p *plan.Select) (engine.Operator, error) {
	root := p.Root
	l.root = root
	l.collectScanPredicates(root)
	names := make([]string, len(p.Out))
	for i := range p.Out {
		names[i] = p.Cols[i].Name
	}
	return l.lowerExactNamed(root, p.Out, names)
}

func hasDictionary(s *arrow.Schema) bool {
	for _, f := range s.Fields() {
		if f.Type.ID() == arrow.DICTIONARY {
			return true
		}
	}
	return false
}

func (l *Lowerer) ref(id plan.ColID) expr.Expr {
	m := l.q.Meta(id)
	return &expr.Col{Idx: int(id), Name: m.Name, T: m.ArrowType}
}

// project lowers a projection of bound expressions over op.
func (l *Lowerer) project(op engine.Operator, layout []plan.ColID, exprs []expr.Expr, names []string) (engine.Operator, error) {
	es, err := l.remapAll(exprs, layout)
	if err != nil {
		op.Close()
		return nil, err
	}
	out, err := exec.NewProject(op, es, names, l.opts)
	if err != nil {
		op.Close()
		return nil, err
	}
	return out, nil
}

// remap turns a bound expression over column ids into one over the
// positions of layout, and replaces uncorrelated subqueries by their
// values.
func (l *Lowerer) remap(e expr.Expr, layout []plan.ColID) (expr.Expr, error) {
	return plan.RewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
		switch x := e.(type) {
		case *expr.Col:
			i := plan.IndexOf(layout, plan.ColID(x.Idx))
			if i < 0 {
				return nil, fmt.Errorf("plan: column #%d (%s) is not in the input %v", x.Idx, x.Name, layout)
			}
			return &expr.Col{Idx: i, Name: x.Name, T: x.T}, nil
		case *plan.Subquery:
			return l.initPlan(x)
		}
		return e, nil
	})
}

func (l *Lowerer) remapAll(es []expr.Expr, layout []plan.ColID) ([]expr.Expr, error) {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		r, err := l.remap(e, layout)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// lower lowers r, producing at least the columns in need; it returns the
// operator and the column id of each of its output columns.
func (l *Lowerer) lower(r plan.Rel, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	if err := l.ctx.Err(); err != nil {
		return nil, nil, err
	}
	op, layout, err := l.lowerNode(r, need)
	if err != nil || l.Stats == nil {
		return op, layout, err
	}
	key := r
	if o, ok := l.origin[r]; ok {
		key = o // a per-row copy (apply.go): one more loop of its node
	}
	st, ok := l.Stats[key]
	if !ok {
		st = &OpStats{}
		l.Stats[key] = st
	}
	if s, ok := op.(*scan.Scan); ok {
		st.filtered = append(st.filtered, s.RowsFiltered)
	}
	return &statsOp{Operator: op, st: st}, layout, nil
}

// lowerNode lowers one node (and, through lower, its inputs).
func (l *Lowerer) lowerNode(r plan.Rel, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	switch x := r.(type) {
	case *plan.Scan:
		return l.lowerScan(x, need)
	case plan.Source:
		return x.Lower(l.ctx, need)
	case *plan.OneRow:
		op, err := exec.NewValues(noColumns, [][]expr.Expr{{}}, l.opts)
		return op, nil, err
	case *plan.Values:
		rows := make([][]expr.Expr, len(x.Rows))
		for i, row := range x.Rows {
			rr, err := l.remapAll(row, nil)
			if err != nil {
				return nil, nil, err
			}
			rows[i] = rr
		}
		fields := make([]arrow.Field, len(x.Cols))
		for i, id := range x.Cols {
			m := l.q.Meta(id)
			fields[i] = arrow.Field{Name: m.Name, Type: m.ArrowType, Nullable: true}
		}
		op, err := exec.NewValues(arrow.NewSchema(fields, nil), rows, l.opts)
		return op, x.Cols, err
	case *plan.Filter:
		return l.lowerFilter(x, need)
	case *plan.Project:
		var exprs []expr.Expr
		var cols []plan.ColID
		var names []string
		childNeed := plan.ColSet{}
		for i, id := range x.Cols {
			if need.Has(id) {
				exprs = append(exprs, x.Exprs[i])
				cols = append(cols, id)
				names = append(names, l.q.Meta(id).Name)
				childNeed.AddRefs(x.Exprs[i])
			}
		}
		in, layout, err := l.lower(x.In, childNeed)
		if err != nil {
			return nil, nil, err
		}
		op, err := l.project(in, layout, exprs, names)
		return op, cols, err
	case *plan.Agg:
		return l.lowerAgg(x)
	case *plan.Join:
		return l.lowerJoin(x, need)
	case *plan.Sort:
		return l.lowerSort(x, need, -1)
	case *plan.Limit:
		var in engine.Operator
		var layout []plan.ColID
		var err error
		if s, ok := x.In.(*plan.Sort); ok && x.Limit >= 0 {
			in, layout, err = l.lowerSort(s, need, x.Limit+x.Offset)
		} else {
			in, layout, err = l.lower(x.In, need)
		}
		if err != nil {
			return nil, nil, err
		}
		return exec.NewLimit(in, x.Limit, x.Offset), layout, nil
	case *plan.SetOp:
		return l.lowerSetOp(x)
	case *plan.Window:
		return l.lowerWindow(x, need)
	case *plan.TableFunc:
		return l.lowerTableFunc(x, need)
	case *plan.Recursive:
		return l.lowerRecursive(x)
	case *plan.CTEScan:
		return l.lowerCTEScan(x)
	case *plan.WorkTable:
		wt, ok := l.workTables[x.WT]
		if !ok {
			return nil, nil, fmt.Errorf("lower: work table %s outside its recursive query", x.WT.Name)
		}
		return exec.NewWorkTableScan(wt), x.Cols, nil
	}
	return nil, nil, fmt.Errorf("lower: unknown plan node %T", r)
}

// lowerScan reads the needed columns of a table at its snapshot.
func (l *Lowerer) lowerScan(x *plan.Scan, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	var ids []int
	var layout []plan.ColID
	for i, id := range x.Cols {
		if need.Has(id) {
			ids = append(ids, x.FieldIDs[i])
			layout = append(layout, id)
		}
	}
	t := x.Table
	tasks, err := l.planFiles(x)
	if err != nil {
		return nil, nil, err
	}
	opts := scan.Options{}
	if cc, ok := l.env.(columnCacher); ok {
		opts.Columns = cc.ColumnCache()
	}
	if st, ok := l.env.(scanTotaler); ok {
		opts.Totals = st.ScanTotals()
	}
	if fc, ok := l.env.(footerCacher); ok {
		opts.Footers = fc.FooterCache()
	}
	opts.SplitFiles = l.splitFile(x, tasks)
	if l.split != nil && l.split.scan == x {
		tasks, opts.Parallelism = l.split.tasks, 1
		opts.Shard, opts.Shards = l.split.shard, l.split.shards
		// A part of a parallel aggregation ends in a partial aggregation
		// that copies what it keeps, and a part of a parallel join in a
		// gather that copies what it hands over (its consumer may keep
		// views of a batch's bytes past its release: a writer), through
		// filters, projections and joins that hold a batch only while
		// they hold a reference: its scan can reuse the buffers of the
		// batches released.
		opts.RecycleBuffers = l.split.recycle
	}
	spec := engine.ScanSpec{Table: t, Tasks: tasks, Schema: x.Schema, FieldIDs: ids, Filters: l.ScanPreds[x]}
	iv := plan.IntervalPositions(x.Table, x.Schema, ids)
	if ex := l.exact; ex != nil && ex.scan == x && len(iv) == 0 {
		pe, err := l.remap(ex.pred, layout)
		if err != nil {
			return nil, nil, err
		}
		spec.Exact, spec.ExactOptions = expr.Conjuncts(pe), l.opts
		spec.FilterOnly = ex.filterOnly(layout)
		ex.taken = true
	}
	sc := scan.New(spec, opts)
	if s, ok := sc.(*scan.Scan); ok {
		if err := s.WhereErr(); err != nil {
			return nil, nil, err
		}
		if l.Stats != nil {
			l.ScanStats = append(l.ScanStats, scanRecord{Rel: x, Scan: s})
		}
	}
	if len(iv) > 0 {
		sc = engine.IntervalColumns(sc, iv)
	}
	return sc, layout, nil
}

// planFiles lists the files of a scan's snapshot.
func (l *Lowerer) planFiles(x *plan.Scan) ([]catalog.FileScanTask, error) {
	if x.Snapshot == nil {
		return nil, nil
	}
	if p, ok := l.Planned[x]; ok {
		return p.tasks, nil
	}
	tasks, stats, err := catalog.PlanFilesFiltered(l.ctx, x.Table, x.Snapshot, l.ScanPreds[x])
	if err != nil {
		if pgerr.As(err) != nil {
			return nil, err
		}
		return nil, pgerr.Wrap(err, pgerr.IOError, "plan scan of %s: %v", x.Table.Ident.Name, err)
	}
	if l.Planned == nil {
		l.Planned = map[*plan.Scan]plannedScan{}
	}
	l.Planned[x] = plannedScan{tasks: tasks, Stats: stats}
	if st, ok := l.env.(scanTotaler); ok {
		var bytes int64
		for _, t := range tasks {
			bytes += t.File.FileSizeInBytes
		}
		st.ScanTotals().AddPlanned(len(tasks), stats.FilesSkipped, bytes)
	}
	return tasks, nil
}

// lowerFilter lowers a filter. A filter on the mark of a mark join whose
// mark nothing else needs turns the join into a semi join (mark) or an
// anti join (NOT mark).
func (l *Lowerer) lowerFilter(x *plan.Filter, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	in := x.In
	preds := plan.Conjuncts(x.Pred)
	if j, ok := in.(*plan.Join); ok && j.Typ == plan.JoinMark && !need.Has(j.Mark) {
		if typ, rest, ok := plan.MarkFilter(j, preds); ok {
			nj := *j
			nj.Typ = typ
			if typ == plan.JoinSemi {
				nj.NullAware = false
			}
			l.replaceJoin(j, &nj)
			if len(rest) == 0 {
				return l.lower(&nj, need)
			}
			in, preds = &nj, rest
		}
	}
	childNeed := plan.ColSet{}
	for id := range need {
		childNeed.Add(id)
	}
	pred := plan.AndOf(preds)
	childNeed.AddRefs(pred)
	var ex *exactFilter
	if sc, ok := in.(*plan.Scan); ok && scanCanApply(pred) {
		ex = &exactFilter{scan: sc, pred: pred, need: need}
	}
	l.exact = ex
	op, layout, err := l.lower(in, childNeed)
	l.exact = nil
	if err != nil {
		return nil, nil, err
	}
	if ex != nil && ex.taken {
		return op, layout, nil
	}
	pe, err := l.remap(pred, layout)
	if err != nil {
		op.Close()
		return nil, nil, err
	}
	f, err := exec.NewFilter(op, pe, l.opts)
	if err != nil {
		op.Close()
		return nil, nil, err
	}
	return f, layout, nil
}

// lowerAgg lowers an aggregation: group keys, then aggregates.
func (l *Lowerer) lowerAgg(x *plan.Agg) (engine.Operator, []plan.ColID, error) {
	if n, ok := countFromMetadata(x); ok {
		row := make([]expr.Expr, len(x.Aggs))
		fields := make([]arrow.Field, len(x.Aggs))
		for i := range x.Aggs {
			row[i] = &expr.Lit{V: n, T: expr.Int8}
			fields[i] = arrow.Field{Name: "count", Type: expr.Int8, Nullable: true}
		}
		op, err := exec.NewValues(arrow.NewSchema(fields, nil), [][]expr.Expr{row}, l.opts)
		return op, x.AggCols, err
	}
	childNeed := plan.ColSet{}
	for _, e := range plan.Exprs(x) {
		childNeed.AddRefs(e)
	}
	if op, ok, err := l.parallelAgg(x, childNeed); ok || err != nil {
		return op, x.OutCols(), err
	}
	if aggsOrderFree(x) {
		l.markOrderFree(x.In)
	}
	in, layout, err := l.lower(x.In, childNeed)
	if err != nil {
		return nil, nil, err
	}
	return l.aggOver(in, layout, x, exec.NewHashAggregate, groupEstimate(x))
}

// aggOver puts the aggregation x over in (whose columns are layout),
// built by newAgg (the whole or the partial phase), expecting groups
// groups (0: no estimate).
func (l *Lowerer) aggOver(in engine.Operator, layout []plan.ColID, x *plan.Agg,
	newAgg func(engine.Operator, []expr.Expr, []exec.AggCall, ...expr.CompileOptions) (engine.Operator, error),
	groups int64) (engine.Operator, []plan.ColID, error) {
	calls, keys, err := l.aggCalls(x, layout)
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	op, err := newAgg(in, keys, calls, l.opts)
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	expectGroups(op, groups)
	return op, x.OutCols(), nil
}

// expectGroups gives an aggregation operator the estimate of its groups.
func expectGroups(op engine.Operator, groups int64) {
	if s, ok := op.(exec.GroupSizer); ok && groups > 0 {
		s.ExpectGroups(groups)
	}
}

// aggCalls lowers an aggregation's group keys and calls over layout.
func (l *Lowerer) aggCalls(x *plan.Agg, layout []plan.ColID) ([]exec.AggCall, []expr.Expr, error) {
	groups, err := l.remapAll(x.Groups, layout)
	if err != nil {
		return nil, nil, err
	}
	calls := make([]exec.AggCall, len(x.Aggs))
	for i, a := range x.Aggs {
		c := exec.AggCall{Fn: a.Fn, Distinct: a.Distinct, Name: a.Name}
		if a.Arg != nil {
			if c.Arg, err = l.remap(a.Arg, layout); err != nil {
				return nil, nil, err
			}
		}
		if a.Filter != nil {
			if c.Filter, err = l.remap(a.Filter, layout); err != nil {
				return nil, nil, err
			}
		}
		if err := l.aggExtras(&c, a, layout); err != nil {
			return nil, nil, err
		}
		calls[i] = c
	}
	return calls, groups, nil
}

// lowerSort lowers ORDER BY; with limit >= 0 it keeps only the first
// limit rows (top-N).
func (l *Lowerer) lowerSort(x *plan.Sort, need plan.ColSet, limit int64) (engine.Operator, []plan.ColID, error) {
	childNeed := plan.ColSet{}
	for id := range need {
		childNeed.Add(id)
	}
	for _, k := range x.Keys {
		childNeed.AddRefs(k.E)
	}
	// The sort orders the rows (those its keys tie on in no defined
	// order, as in PostgreSQL).
	l.markOrderFree(x.In)
	in, layout, err := l.lower(x.In, childNeed)
	if err != nil {
		return nil, nil, err
	}
	keys, err := l.sortKeys(x.Keys, layout)
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	var op engine.Operator
	if limit >= 0 {
		op, err = exec.NewTopN(in, keys, limit, l.opts)
	} else {
		op, err = exec.NewSort(in, keys, l.opts)
	}
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	return op, layout, nil
}

func (l *Lowerer) sortKeys(ks []plan.SortKey, layout []plan.ColID) ([]exec.SortKey, error) {
	keys := make([]exec.SortKey, len(ks))
	for i, k := range ks {
		e, err := l.remap(k.E, layout)
		if err != nil {
			return nil, err
		}
		keys[i] = exec.SortKey{E: e, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return keys, nil
}

// lowerExact lowers r and projects exactly cols, in order.
func (l *Lowerer) lowerExact(r plan.Rel, cols []plan.ColID) (engine.Operator, error) {
	names := make([]string, len(cols))
	for i, id := range cols {
		names[i] = l.q.Meta(id).Name
	}
	return l.lowerExactNamed(r, cols, names)
}

// lowerExactNamed lowers r and projects exactly cols, in order, named
// names; dictionary columns come out decoded.
func (l *Lowerer) lowerExactNamed(r plan.Rel, cols []plan.ColID, names []string) (engine.Operator, error) {
	op, layout, err := l.lower(r, plan.SetOf(cols))
	if err != nil {
		return nil, err
	}
	if plan.SameIDs(layout, cols) && !hasDictionary(op.Schema()) {
		return op, nil
	}
	exprs := make([]expr.Expr, len(cols))
	for i, id := range cols {
		exprs[i] = l.ref(id)
	}
	return l.project(op, layout, exprs, names)
}

// lowerSetOp lowers UNION ALL / INTERSECT / EXCEPT.
func (l *Lowerer) lowerSetOp(x *plan.SetOp) (engine.Operator, []plan.ColID, error) {
	ins := make([]engine.Operator, 0, len(x.Ins))
	closeAll := func() {
		for _, op := range ins {
			op.Close()
		}
	}
	for i, in := range x.Ins {
		op, err := l.lowerExact(in, x.InCols[i])
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		ins = append(ins, op)
	}
	var op engine.Operator
	var err error
	switch x.Op {
	case "union":
		op, err = exec.NewUnionAll(ins...)
	case "intersect":
		op, err = exec.NewSetOp(exec.SetIntersect, x.All, ins[0], ins[1], l.opts)
	case "except":
		op, err = exec.NewSetOp(exec.SetExcept, x.All, ins[0], ins[1], l.opts)
	default:
		err = fmt.Errorf("lower: set operation %q", x.Op)
	}
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	return op, x.Cols, nil
}

// initPlan runs an uncorrelated subquery once and returns its value: the
// single value of its single row (NULL without rows; more than one row is
// an error), or for EXISTS whether it has a row.
func (l *Lowerer) initPlan(x *plan.Subquery) (*expr.Lit, error) {
	if v, ok := l.init[x]; ok {
		return v, nil
	}
	// EXPLAIN ANALYZE sees what the subquery's operators did too.
	sub := &Lowerer{ctx: l.ctx, env: l.env, q: x.Plan.ColTable, opts: l.opts, init: l.init, ctes: l.cteRunsOf(), Stats: l.Stats}
	p := x.Plan
	if x.Exists {
		p = &plan.Select{Root: &plan.Limit{In: p.Root, Limit: 1}, Out: p.Out, Cols: p.Cols, ColTable: p.ColTable}
	}
	op, err := sub.Plan(p)
	if l.Stats != nil {
		l.ScanStats = append(l.ScanStats, sub.ScanStats...)
		for k, v := range sub.Planned {
			if l.Planned == nil {
				l.Planned = map[*plan.Scan]plannedScan{}
			}
			l.Planned[k] = v
		}
	}
	if err != nil {
		return nil, err
	}
	// It runs now, before the statement's rows, under limits the session
	// sets.
	rows, err := l.env.RunNow(l.ctx, op, 2)
	if err != nil {
		return nil, err
	}
	var lit *expr.Lit
	switch {
	case x.Exists:
		lit = &expr.Lit{V: len(rows) > 0, T: expr.Bool}
	case len(rows) > 1:
		return nil, pgerr.New(pgerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
	case len(rows) == 0:
		lit = &expr.Lit{V: nil, T: x.T}
	default:
		lit = &expr.Lit{V: rows[0].V, T: x.T}
	}
	l.init[x] = lit
	return lit, nil
}

// Drain runs op and returns the values of the first column (an empty
// constant for a row without columns) of at most
// max rows (it stops reading after max).
func Drain(ctx context.Context, op engine.Operator, max int) ([]*expr.Lit, error) {
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return nil, err
	}
	var out []*expr.Lit
	for len(out) < max {
		b, err := op.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		for i := 0; i < int(b.NumRows()) && len(out) < max; i++ {
			if b.NumCols() == 0 {
				out = append(out, &expr.Lit{}) // EXISTS (SELECT): a row, no value
				continue
			}
			v, err := expr.ValueLit(b.Column(0), i)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// lowerRecursive lowers WITH RECURSIVE's union; each iteration lowers the
// recursive term afresh (operators run once).
func (l *Lowerer) lowerRecursive(x *plan.Recursive) (engine.Operator, []plan.ColID, error) {
	anchor, err := l.lowerExact(x.Anchor, x.AnchorCols)
	if err != nil {
		return nil, nil, err
	}
	wt := exec.NewWorkTable(anchor.Schema())
	if l.workTables == nil {
		l.workTables = map[*plan.WorkTableRef]*exec.WorkTable{}
	}
	l.workTables[x.WT] = wt
	op, err := exec.NewRecursiveUnion(anchor, wt, func() (engine.Operator, error) {
		return l.lowerExact(x.Recursive, x.RecursCols)
	}, x.Distinct)
	if err != nil {
		anchor.Close()
		return nil, nil, err
	}
	return op, x.Cols, nil
}

// countFromMetadata answers SELECT count(*) FROM t (no WHERE, no GROUP BY)
// from the snapshot summary when it is exact: the summary has the record
// count and says the snapshot has no delete files.
func countFromMetadata(x *plan.Agg) (int64, bool) {
	scan, ok := x.In.(*plan.Scan)
	if !ok || len(x.Groups) > 0 || len(x.Aggs) == 0 {
		return 0, false
	}
	for _, a := range x.Aggs {
		if a.Fn != "count" || a.Arg != nil || a.Filter != nil || a.Distinct {
			return 0, false
		}
	}
	if scan.Snapshot == nil {
		return 0, true
	}
	sum := scan.Snapshot.Summary
	n, ok := plan.SummaryInt(sum, "total-records")
	if !ok {
		return 0, false
	}
	for _, k := range []string{"total-delete-files", "total-position-deletes", "total-equality-deletes"} {
		if v, ok := plan.SummaryInt(sum, k); !ok || v != 0 {
			return 0, false
		}
	}
	return n, true
}

// noColumns is the schema of a row without columns.
var noColumns = arrow.NewSchema(nil, nil)
