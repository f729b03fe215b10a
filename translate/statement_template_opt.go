package translate

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/settings"
)

// A template is also optimized once for all the Executes that read the
// same snapshots under the same optimizer settings: the optimizer runs
// over a copy of the template whose parameters are opaque (a call no pass
// computes or reads as a constant), so its result holds for any values;
// each Execute then copies that plan with the values in place and applies
// to the expressions that hold them the passes that depend on constants'
// values (opt.FoldValues: folding, date comparisons), before lowering,
// which plans the files and prunes with the values. Join order depends on
// the tables' row counts, so a new snapshot of any table the statement
// reads (a commit here or elsewhere, seen by the catalog lookups the
// template replays) optimizes again; so do another TimeZone and another
// optimizer_disabled_passes.

// optimizedTemplate is a template's optimized plan and what it was
// optimized for.
type optimizedTemplate struct {
	plan     *plan.Select      // scans hold the template's tables
	params   map[expr.Expr]int // each opaque parameter to its number
	snaps    []int64           // the scanned tables' snapshot ids, in lookup order
	tz       string            // the optimizer's TimeZone, by name
	disabled string            // optimizer_disabled_passes
}

// zoneName names a TimeZone: the session parses its setting again at each
// statement, into a new Location for an offset or a named zone.
func zoneName(loc *time.Location) string {
	if loc == nil {
		return "UTC"
	}
	return loc.String()
}

// noSnapshot stands for a table without a snapshot in snapshot keys.
const noSnapshot = -1

// snapshotKey appends to dst the id of the snapshot the statement reads
// of each table the template looked up (tables maps the template's to
// this Execute's).
func (tp *queryTemplate) snapshotKey(dst []int64, s *session, tables map[*catalog.Table]*catalog.Table) []int64 {
	for _, l := range tp.lookups {
		if l.kind != lookTable || l.table == nil {
			continue
		}
		t := l.table
		if nt, ok := tables[t]; ok {
			t = nt
		}
		id := int64(noSnapshot)
		if sn := s.ReadSnapshot(t); sn != nil {
			id = sn.SnapshotID
		}
		dst = append(dst, id)
	}
	return dst
}

// opaqueParam is what a parameter is while the template is optimized.
// It is never evaluated: every Execute replaces it with the value.
func opaqueParam(n int, ph expr.Expr) *expr.Call {
	return &expr.Call{Fn: fmt.Sprintf("$%d", n), T: ph.Type(), Go: func(context.Context, []any) (any, error) {
		return nil, pgerr.New(pgerr.InternalError, "parameter $%d has no value", n)
	}}
}

// optimized is the template's plan optimized for this Execute's
// snapshots and settings, optimizing it when the one kept is for others;
// nil when the template cannot be optimized ahead of its values.
func (tp *queryTemplate) optimized(s *session, cfg opt.Config, tables map[*catalog.Table]*catalog.Table) *optimizedTemplate {
	if tp.noOpt {
		return nil
	}
	disabled, _ := s.settings.Get(settings.OptimizerPassesName)
	if o := tp.opt; o != nil && o.tz == zoneName(cfg.TimeZone) && o.disabled == disabled {
		var buf [8]int64
		if slices.Equal(tp.snapshotKey(buf[:0], s, tables), o.snaps) {
			return o
		}
	}
	tp.opt = nil
	byN := map[int]expr.Expr{}
	subst := make(map[expr.Expr]expr.Expr, len(tp.phs))
	params := map[expr.Expr]int{}
	for _, ph := range tp.phs {
		op, ok := byN[ph.N]
		if !ok {
			op = opaqueParam(ph.N, ph.E)
			byN[ph.N] = op
			params[op] = ph.N
		}
		subst[ph.E] = op
	}
	in := &instantiation{s: s, subst: subst, tables: tables, keepTables: true,
		ctes: map[*plan.CTE]*plan.CTE{}, subs: map[*plan.Subquery]*plan.Subquery{}}
	p := opt.Statement(in.plan(tp.plan), cfg)
	o := &optimizedTemplate{plan: p, params: params, tz: zoneName(cfg.TimeZone), disabled: disabled,
		snaps: tp.snapshotKey(nil, s, tables)}
	if !o.check(s) {
		tp.noOpt = true
		return nil
	}
	tp.opt = o
	return o
}

// check reports whether instantiation replaces every opaque parameter of
// the optimized plan: copied with placeholder values, no opaque parameter
// is left in the copy, its subqueries or its WITH queries, and the copy
// holds only the nodes a template may.
func (o *optimizedTemplate) check(s *session) bool {
	vals := make([]*expr.Lit, 0, len(o.params))
	for e, n := range o.params {
		for len(vals) < n {
			vals = append(vals, nil)
		}
		vals[n-1] = &expr.Lit{V: nil, T: e.Type()}
	}
	for i := range vals {
		if vals[i] == nil {
			vals[i] = &expr.Lit{V: nil, T: expr.Text}
		}
	}
	in := &instantiation{s: s, subst: map[expr.Expr]expr.Expr{}, keepTables: true,
		ctes: map[*plan.CTE]*plan.CTE{}, subs: map[*plan.Subquery]*plan.Subquery{}}
	for e, n := range o.params {
		in.subst[e] = vals[n-1]
	}
	ok := true
	seen := map[*plan.CTE]bool{}
	var visitPlan func(p *plan.Select)
	var visit func(r plan.Rel)
	visitExpr := func(e expr.Expr) {
		plan.WalkExpr(e, func(e expr.Expr) {
			if _, opaque := o.params[e]; opaque {
				ok = false
			}
			if sq, isSub := e.(*plan.Subquery); isSub {
				visitPlan(sq.Plan)
			}
		})
	}
	visit = func(r plan.Rel) {
		switch x := r.(type) {
		case *plan.CTEScan:
			if !seen[x.CTE] {
				seen[x.CTE] = true
				visit(x.CTE.Body)
			}
		case *plan.Scan, *plan.OneRow, *plan.Values, *plan.Filter, *plan.Project, *plan.Agg, *plan.Join,
			*plan.Sort, *plan.Limit, *plan.Window, *plan.SetOp, *plan.TableFunc,
			*plan.Recursive, *plan.WorkTable:
		default:
			ok = false
		}
		for _, e := range plan.Exprs(r) {
			visitExpr(e)
		}
		for _, c := range plan.Children(r) {
			visit(c)
		}
	}
	visitPlan = func(p *plan.Select) {
		visit(p.Root)
		for _, e := range p.Output {
			visitExpr(e)
		}
	}
	visitPlan(in.plan(o.plan))
	return ok
}

// instantiate copies the optimized plan with each parameter's value and
// each table as this Execute reads it, and folds what the values make
// constant.
func (o *optimizedTemplate) instantiate(s *session, cfg opt.Config, vals []*expr.Lit, tables map[*catalog.Table]*catalog.Table) *plan.Select {
	subst := make(map[expr.Expr]expr.Expr, len(o.params))
	for e, n := range o.params {
		subst[e] = vals[n-1]
	}
	in := &instantiation{s: s, subst: subst, tables: tables,
		ctes: map[*plan.CTE]*plan.CTE{}, subs: map[*plan.Subquery]*plan.Subquery{},
		post: func(e expr.Expr) expr.Expr { return opt.FoldValues(e, cfg) }}
	return in.plan(o.plan)
}
