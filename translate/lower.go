package translate

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/pgerr"
)

// lower builds the engine operator tree of a bound SELECT. The table's
// files are planned here, from its current snapshot.
func lower(ctx context.Context, s *session, p *selectPlan) (engine.Operator, error) {
	opts := expr.CompileOptions{TimeZone: s.settings.location()}
	in, err := lowerInput(ctx, p, opts)
	if err != nil {
		return nil, err
	}
	if p.scope == nil && p.values == nil && p.where == nil && p.agg == nil && !p.distinct && len(p.sort) == 0 {
		// SELECT <constants>: one row of the output expressions.
		v, err := exec.NewValues(outputSchema(p), [][]expr.Expr{p.output}, opts)
		if err != nil {
			return nil, err
		}
		return withLimit(v, p), nil
	}
	if p.where != nil {
		if in, err = exec.NewFilter(in, p.where, opts); err != nil {
			return nil, err
		}
	}
	if p.agg != nil {
		groups := make([]expr.Expr, len(p.agg.groups))
		for i, g := range p.agg.groups {
			groups[i] = g.e
		}
		if in, err = newHashAggregate(in, groups, p.agg.aggs, opts); err != nil {
			return nil, err
		}
	}
	if p.having != nil {
		if in, err = exec.NewFilter(in, p.having, opts); err != nil {
			return nil, err
		}
	}
	names := make([]string, len(p.cols))
	for i, c := range p.cols {
		names[i] = c.Name
	}
	if p.distinct {
		if in, err = exec.NewProject(in, p.output, names, opts); err != nil {
			return nil, err
		}
		keys := make([]expr.Expr, len(p.output))
		for i, e := range p.output {
			keys[i] = &expr.Col{Idx: i, Name: names[i], T: e.Type()}
		}
		if in, err = newHashAggregate(in, keys, nil, opts); err != nil {
			return nil, err
		}
		if in, err = lowerSort(in, p, opts); err != nil {
			return nil, err
		}
		return withLimit(in, p), nil
	}
	if in, err = lowerSort(in, p, opts); err != nil {
		return nil, err
	}
	if in, err = exec.NewProject(in, p.output, names, opts); err != nil {
		return nil, err
	}
	return withLimit(in, p), nil
}

// lowerInput is the scan of the FROM table, or one row without columns.
func lowerInput(ctx context.Context, p *selectPlan, opts expr.CompileOptions) (engine.Operator, error) {
	if p.values != nil {
		fields := make([]arrow.Field, len(p.values[0]))
		for i, e := range p.values[0] {
			fields[i] = arrow.Field{Name: p.cols[i].Name, Type: e.Type(), Nullable: true}
		}
		return exec.NewValues(arrow.NewSchema(fields, nil), p.values, opts)
	}
	if p.scope == nil {
		return exec.NewValues(arrow.NewSchema(nil, nil), [][]expr.Expr{{}}, opts)
	}
	t := p.scope.table
	var tasks []catalog.FileScanTask
	if snap := t.Metadata.CurrentSnapshot(); snap != nil {
		var err error
		tasks, err = catalog.PlanFiles(ctx, t, snap)
		if err != nil {
			if pgerr.As(err) != nil {
				return nil, err
			}
			return nil, pgerr.Wrap(err, pgerr.IOError, "plan scan of %s: %v", t.Ident.Name, err)
		}
	}
	return scan.New(engine.ScanSpec{
		Table:    t,
		Tasks:    tasks,
		Schema:   p.scope.schema,
		FieldIDs: p.scope.fieldIDs(),
	}, scan.Options{}), nil
}

func lowerSort(in engine.Operator, p *selectPlan, opts expr.CompileOptions) (engine.Operator, error) {
	if len(p.sort) == 0 {
		return in, nil
	}
	keys := make([]exec.SortKey, len(p.sort))
	for i, k := range p.sort {
		keys[i] = exec.SortKey{E: k.E, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	if p.limit >= 0 {
		return exec.NewTopN(in, keys, p.limit+p.offset, opts)
	}
	return exec.NewSort(in, keys, opts)
}

func withLimit(in engine.Operator, p *selectPlan) engine.Operator {
	if p.limit < 0 && p.offset <= 0 {
		return in
	}
	return exec.NewLimit(in, p.limit, p.offset)
}

// outputSchema is the schema of the result batches.
func outputSchema(p *selectPlan) *arrow.Schema {
	fields := make([]arrow.Field, len(p.output))
	for i, e := range p.output {
		fields[i] = arrow.Field{Name: p.cols[i].Name, Type: e.Type(), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// newHashAggregate lowers an aggregation: group keys, then the aggregates.
func newHashAggregate(in engine.Operator, groups []expr.Expr, aggs []aggCall, opts expr.CompileOptions) (engine.Operator, error) {
	calls := make([]exec.AggCall, len(aggs))
	for i, a := range aggs {
		calls[i] = exec.AggCall{Fn: a.Fn, Arg: a.Arg, Distinct: a.Distinct, Filter: a.Filter, Name: a.Name}
	}
	return exec.NewHashAggregate(in, groups, calls, opts)
}
