package translate

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/explain"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/lower"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/settings"
)

// EXPLAIN prints the plan of a SELECT in PostgreSQL's shape (package
// explain: TEXT, JSON, YAML, XML) or, with FORMAT ICEGATE, as icegate's own
// tree of its plan nodes (plan.Select.Render).

// explainOptions reads EXPLAIN's option list as written; the checks are
// explain.ParseOptions's.
func explainOptions(ps parse.Stmt, defs []*pg.Node) (explain.Options, error) {
	opts := make([]explain.Option, 0, len(defs))
	for _, o := range defs {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		opt := explain.Option{Name: d.Defname, Pos: parse.CharPos(ps.SQL, d.Location)}
		if d.Arg != nil {
			var v string
			switch a := d.Arg.Node.(type) {
			case *pg.Node_Integer:
				v, opt.Number = strconv.Itoa(int(a.Integer.Ival)), true
			case *pg.Node_Float:
				v, opt.Number = a.Float.Fval, true
			case *pg.Node_Boolean:
				v = strconv.FormatBool(a.Boolean.Boolval)
			default:
				v = ddl.DefElemString(d)
			}
			opt.Value = &v
		}
		opts = append(opts, opt)
	}
	return explain.ParseOptions(opts)
}

// explainStatement prints the plan of a SELECT.
type explainStatement struct {
	sel  *selectStatement
	opts explain.Options
}

func (e *explainStatement) ParamTypes() []uint32 { return e.sel.ParamTypes() }

// Columns is PostgreSQL's: one column "QUERY PLAN", of type json for
// FORMAT JSON, text otherwise.
func (e *explainStatement) Columns() []pgtypes.Column {
	t := pgtypes.Text
	if e.opts.Format == explain.JSON {
		t = pgtypes.JSON
	}
	return []pgtypes.Column{{Name: "QUERY PLAN", TypeOID: t, Typmod: -1}}
}

func (e *explainStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := e.sel.sess
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	// As a query's Execute: bound with the parameters' values (which the
	// plan shows, as PostgreSQL's custom plans do) at the statement's
	// snapshot; not from a template (statement_template.go), so that it
	// shows the plan binding with the values makes.
	s.newStatementSnapshot()
	e.sel.noTemplate = true
	p, err := e.sel.executePlan(ctx, params)
	if err != nil {
		return nil, err
	}
	if e.opts.Format == explain.Icegate {
		return e.icegate(ctx, p)
	}
	in := explain.Input{Opts: e.opts, Loc: s.Location()}
	res := explain.Plan{Opts: e.opts, Execution: -1}
	if e.opts.Analyze {
		ctx, cancel := s.withStatementTimeout(ctx) // it runs as the query would
		defer cancel()
		a, err := runAnalyze(ctx, s, p)
		if err != nil {
			return nil, err
		}
		in.Plan, in.Stats, in.Scans = a.plan, a.stats(), a.scans()
		res.Planning, res.Execution = ms(a.planning), ms(a.execution)
	} else {
		start := time.Now()
		in.Plan = opt.Statement(p, s.optConfig())
		in.Parallel, in.ParallelJoins = parallelParts(in.Plan, true)
		in.PipelineScan = lower.PipelineScan
		res.Planning = ms(time.Since(start))
	}
	res.Root = explain.Build(in)
	return s.explainRows(res)
}

// explainRows prints a plan in its format: the text one line a row, the
// others as one value.
func (s *session) explainRows(res explain.Plan) (Rows, error) {
	if res.Opts.Settings {
		res.Settings = s.explainSettings()
	}
	if res.Opts.Format == explain.Text {
		return textRows("QUERY PLAN", res.Lines(), "EXPLAIN")
	}
	return textRows("QUERY PLAN", []string{res.Document()}, "EXPLAIN")
}

// icegate prints icegate's own tree: VERBOSE adds the optimizer's
// passes, ANALYZE what each node did.
func (e *explainStatement) icegate(ctx context.Context, p *plan.Select) (Rows, error) {
	s := e.sel.sess
	if !e.opts.Analyze {
		return textRows("QUERY PLAN", explainLines(p, s.optConfig(), e.opts.Verbose), "EXPLAIN")
	}
	ctx, cancel := s.withStatementTimeout(ctx)
	defer cancel()
	a, err := runAnalyze(ctx, s, p)
	if err != nil {
		return nil, err
	}
	return textRows("QUERY PLAN", a.lines(), "EXPLAIN")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// planText is the plan EXPLAIN (FORMAT ICEGATE) shows for p with the
// default optimizer settings, one node per line from the result down to
// the scans (tests).
func planText(p *plan.Select) string {
	return strings.Join(explainLines(p, opt.Config{}, false), "\n")
}

// explainLines is EXPLAIN (FORMAT ICEGATE)'s text of p, optimized with
// cfg; verbose adds the optimizer's passes.
func explainLines(p *plan.Select, cfg opt.Config, verbose bool) []string {
	lines := opt.Statement(p, cfg).Render(nil)
	if verbose {
		lines = append(lines, "Optimizer passes: "+strings.Join(opt.Applied(cfg), ", "))
	}
	return lines
}

// prepareExplainDML prepares EXPLAIN of DELETE, UPDATE, MERGE or INSERT:
// the plan of the rows it changes or adds under a ModifyTable node. The
// statement is bound, never run: EXPLAIN ANALYZE, which would change the
// table, is not supported.
func (s *session) prepareExplainDML(ctx context.Context, ps parse.Stmt, opts explain.Options, paramTypes []uint32, eager bool) (Statement, error) {
	what, bindFn, ok := dmlBinder(ps.Node) // dml_exec.go
	ins := ps.Node.GetInsertStmt()
	plain := ins != nil && ins.OnConflictClause == nil && len(ins.ReturningList) == 0
	if !ok {
		return nil, pgerr.NotYet("EXPLAIN of this statement")
	}
	if opts.Analyze {
		return nil, pgerr.NotYet("EXPLAIN ANALYZE of " + what)
	}
	if plain {
		st, err := s.prepareInsert(ctx, ps, ins, paramTypes, eager) // insert_exec.go
		if err != nil {
			return nil, err
		}
		return &explainInsertStatement{ins: st.(*insertStatement), opts: opts}, nil
	}
	st, err := s.prepareDML(ctx, ps, what, paramTypes, eager, bindFn)
	if err != nil {
		return nil, err
	}
	return &explainDMLStatement{dml: st.(*dmlStatement), opts: opts}, nil
}

// explainDMLStatement prints the plan of a row-level change.
type explainDMLStatement struct {
	dml  *dmlStatement
	opts explain.Options
}

func (e *explainDMLStatement) ParamTypes() []uint32 { return e.dml.params }

func (e *explainDMLStatement) Columns() []pgtypes.Column {
	return (&explainStatement{opts: e.opts}).Columns()
}

func (e *explainDMLStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := e.dml.sess
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	if params == nil {
		params = []*string{}
	}
	start := time.Now()
	p, err := e.dml.bind(ctx, params)
	if err != nil {
		return nil, err
	}
	op := strings.ToUpper(e.dml.what[:1]) + strings.ToLower(e.dml.what[1:])
	name := p.Table.Ident.Name
	if e.opts.Format == explain.Icegate {
		lines := append([]string{strings.ToLower(op) + " " + name}, explainLines(p.Sel, s.optConfig(), e.opts.Verbose)...)
		return textRows("QUERY PLAN", lines, "EXPLAIN")
	}
	sel := opt.Statement(p.Sel, s.optConfig())
	alias := ""
	if p.Target != nil {
		alias = p.Target.Alias
	}
	res := explain.Plan{Opts: e.opts, Execution: -1}
	aggs, _ := parallelParts(sel, false)
	in := explain.Input{Plan: sel, Opts: e.opts, Parallel: aggs, PipelineScan: lower.PipelineScan, Loc: s.Location()}
	res.Root = explain.Modify(op, name, strings.Join(p.Table.Ident.Namespace, "."), alias, explain.Build(in), e.opts)
	res.Planning = ms(time.Since(start))
	return s.explainRows(res)
}

// planSettings are the settings EXPLAIN (SETTINGS) lists when they differ
// from their defaults, in name order: PostgreSQL 15's that it marks as
// affecting plans, and icegate's optimizer_disabled_passes.
var planSettings = []string{
	"constraint_exclusion", "cpu_index_tuple_cost", "cpu_operator_cost", "cpu_tuple_cost", "cursor_tuple_fraction",
	"default_statistics_target", "effective_cache_size", "effective_io_concurrency", "enable_async_append",
	"enable_bitmapscan", "enable_gathermerge", "enable_hashagg", "enable_hashjoin", "enable_incremental_sort",
	"enable_indexonlyscan", "enable_indexscan", "enable_material", "enable_memoize", "enable_mergejoin",
	"enable_nestloop", "enable_parallel_append", "enable_parallel_hash", "enable_partition_pruning",
	"enable_partitionwise_aggregate", "enable_partitionwise_join", "enable_seqscan", "enable_sort", "enable_tidscan",
	"force_parallel_mode", "from_collapse_limit", "geqo", "geqo_effort", "geqo_generations", "geqo_pool_size",
	"geqo_seed", "geqo_selection_bias", "geqo_threshold", "hash_mem_multiplier", "jit", "jit_above_cost",
	"jit_inline_above_cost", "jit_optimize_above_cost", "join_collapse_limit", "maintenance_io_concurrency",
	"max_parallel_workers", "max_parallel_workers_per_gather", "min_parallel_index_scan_size",
	"min_parallel_table_scan_size", settings.OptimizerPassesName, "parallel_leader_participation", "parallel_setup_cost",
	"parallel_tuple_cost", "plan_cache_mode", "random_page_cost", "search_path", "seq_page_cost", "temp_buffers",
	"work_mem",
}

// explainSettings are the session's values of planSettings that differ
// from their defaults.
func (s *session) explainSettings() [][2]string {
	var out [][2]string
	for _, name := range planSettings {
		d := settings.Lookup(name)
		if d == nil {
			continue
		}
		if v := s.settings.Value(d.Name); v != d.Default {
			out = append(out, [2]string{name, v})
		}
	}
	return out
}

// prepareExplainExecute is EXPLAIN EXECUTE name (args): the plan of the
// prepared statement with the arguments as its parameters, as PostgreSQL
// shows it. The statement is looked up when EXPLAIN runs.
func (s *session) prepareExplainExecute(ctx context.Context, ex *pg.ExecuteStmt, opts explain.Options) (Statement, error) {
	st, err := s.prepareExecute(ctx, ex) // prepare_stmt.go: the arguments
	if err != nil {
		return nil, err
	}
	return &explainExecuteStatement{x: st.(*executeStatement), opts: opts}, nil
}

// explainExecuteStatement is EXPLAIN EXECUTE.
type explainExecuteStatement struct {
	x     *executeStatement
	opts  explain.Options
	inner Statement
}

func (e *explainExecuteStatement) ParamTypes() []uint32 { return nil }

func (e *explainExecuteStatement) Columns() []pgtypes.Column {
	return (&explainStatement{opts: e.opts}).Columns()
}

func (e *explainExecuteStatement) Execute(ctx context.Context, _ []*string) (Rows, error) {
	s := e.x.sess
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	if e.inner == nil {
		p, err := e.x.lookup() // prepare_stmt.go
		if err != nil {
			return nil, err
		}
		stmts, err := hints.ParseChecked(p.text)
		if err != nil {
			return nil, err
		}
		if len(stmts) != 1 {
			return nil, pgerr.New(pgerr.SyntaxError, "prepared statement \"%s\" must be one statement", e.x.name)
		}
		if stmts[0].Node.GetSelectStmt() == nil {
			if e.inner, err = s.prepareExplainDML(ctx, stmts[0], e.opts, p.types, true); err != nil {
				return nil, err
			}
		} else {
			sel := &selectStatement{sess: s, ps: stmts[0], declared: append([]uint32(nil), p.types...)}
			if err := sel.bind(ctx); err != nil {
				return nil, err
			}
			e.inner = &explainStatement{sel: sel, opts: e.opts}
		}
	}
	return e.inner.Execute(ctx, e.x.args)
}

// parallelParts are the aggregations of p that lowering runs in parallel
// parts, with their number (EXPLAIN ANALYZE runs every one serially, to
// measure it), and with joins (in queries, not in the statements that
// change a table) the joins that run in parts of their own.
func parallelParts(p *plan.Select, withJoins bool) (map[*plan.Agg]int, map[*plan.Join]int) {
	out := map[*plan.Agg]int{}
	joins := map[*plan.Join]int{}
	covered := map[*plan.Join]bool{} // joins within another's parts
	seen := map[*plan.CTE]bool{}
	var walk func(r plan.Rel)
	walk = func(r plan.Rel) {
		plan.Visit(r, func(n plan.Rel) {
			switch x := n.(type) {
			case *plan.Agg:
				if k := lower.ParallelParts(x); k > 0 {
					out[x] = k
					for _, j := range lower.PipelineJoins(x.In) {
						covered[j] = true
					}
				}
			case *plan.Join:
				if !withJoins || covered[x] {
					break
				}
				if k, pipeline := lower.ParallelJoinParts(x); k > 0 {
					joins[x] = k
					for _, j := range pipeline {
						covered[j] = true
					}
				}
			case *plan.CTEScan:
				if !seen[x.CTE] {
					seen[x.CTE] = true
					walk(x.CTE.Body)
				}
			}
			for _, e := range plan.Exprs(n) {
				plan.WalkExpr(e, func(e expr.Expr) {
					if sq, ok := e.(*plan.Subquery); ok {
						walk(sq.Plan.Root)
					}
				})
			}
		})
	}
	walk(p.Root)
	return out, joins
}

// explainInsertStatement prints the plan of a plain INSERT: its VALUES or
// its query under an Insert node.
type explainInsertStatement struct {
	ins  *insertStatement
	opts explain.Options
}

func (e *explainInsertStatement) ParamTypes() []uint32 { return e.ins.params }

func (e *explainInsertStatement) Columns() []pgtypes.Column {
	return (&explainStatement{opts: e.opts}).Columns()
}

func (e *explainInsertStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := e.ins.sess
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	if params == nil {
		params = []*string{}
	}
	start := time.Now()
	p, err := e.ins.bind(ctx, params)
	if err != nil {
		return nil, err
	}
	name := p.Table.Ident.Name
	if e.opts.Format == explain.Icegate {
		lines := []string{"insert " + name}
		if p.Sel == nil {
			lines = append(lines, fmt.Sprintf("└ values (%d rows)", len(p.Values)))
		} else {
			lines = append(lines, explainLines(p.Sel, s.optConfig(), e.opts.Verbose)...)
		}
		return textRows("QUERY PLAN", lines, "EXPLAIN")
	}
	var src *explain.Node
	if p.Sel == nil {
		src = explain.InsertValues(p.Values, e.opts)
	} else {
		sel := opt.Statement(p.Sel, s.optConfig())
		aggs, joins := parallelParts(sel, true)
		src = explain.Build(explain.Input{Plan: sel, Opts: e.opts, Parallel: aggs, ParallelJoins: joins, PipelineScan: lower.PipelineScan, Loc: s.Location()})
	}
	res := explain.Plan{Opts: e.opts, Execution: -1}
	res.Root = explain.Modify("Insert", name, strings.Join(p.Table.Ident.Namespace, "."), "", src, e.opts)
	res.Planning = ms(time.Since(start))
	return s.explainRows(res)
}
