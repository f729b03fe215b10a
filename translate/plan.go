package translate

import (
	"fmt"
	"strings"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// selectPlan is a bound query: its relational tree (root), the columns of
// its result (out, which root produces among maybe others) and how they
// are described to the client (cols). output holds a reference to each
// result column, for callers that need their Arrow types.
type selectPlan struct {
	root   plan.Rel
	out    []plan.ColID
	cols   []pgtypes.Column
	output []expr.Expr
	q      *plan.ColTable
	// untyped marks result columns that are untyped literals (see
	// target.untyped); nil when none.
	untyped []bool
}

// isUntyped reports whether result column i is an untyped literal.
func (p *selectPlan) isUntyped(i int) bool { return i < len(p.untyped) && p.untyped[i] }

// finish fills output once root and out are set.
func (p *selectPlan) finish(b *binder) {
	p.q = b.q
	p.output = make([]expr.Expr, len(p.out))
	for i, id := range p.out {
		p.output[i] = b.ref(id).e
	}
}

// String renders the plan, one node per line from the result down to the
// scans, for tests and EXPLAIN.
func (p *selectPlan) String() string {
	return strings.Join(p.explain(opt.Config{}, false), "\n")
}

// explain is EXPLAIN's text of p, optimized with cfg; verbose adds the
// optimizer's passes.
func (p *selectPlan) explain(cfg opt.Config, verbose bool) []string {
	lines := optimizeStatement(p, cfg).render(nil)
	if verbose {
		lines = append(lines, "Optimizer passes: "+strings.Join(opt.Applied(cfg), ", "))
	}
	return lines
}

// render prints the optimized tree root of p; with stats (EXPLAIN
// ANALYZE) each node also shows what it did.
func (p *selectPlan) render(stats map[plan.Rel]string) []string {
	root := p.root
	var lines []string
	items := make([]string, len(p.out))
	for i, id := range p.out {
		c := p.cols[i]
		items[i] = fmt.Sprintf("#%d AS %q %s", id, c.Name, plan.Type{OID: c.TypeOID, Typmod: c.Typmod})
	}
	lines = append(lines, "result "+strings.Join(items, ", "))
	// Scans show the columns they read: those something uses.
	used := plan.SetOf(p.out)
	ctes := sharedCTEs(root)
	roots := []plan.Rel{root}
	for _, c := range ctes {
		roots = append(roots, c.body)
		for _, id := range c.out {
			used.Add(id)
		}
	}
	for _, root := range roots {
		p.collectUsed(root, used)
	}
	var walk func(r plan.Rel, depth int)
	walk = func(r plan.Rel, depth int) {
		line := strings.Repeat("  ", depth) + "└ " + describeRel(p.q, r, used)
		if st, ok := stats[r]; ok {
			line += "  " + st
		} else if stats != nil {
			line += "  (never executed)"
		}
		lines = append(lines, line)
		for _, c := range plan.Children(r) {
			walk(c, depth+1)
		}
	}
	// Shared WITH queries first, each once, as PostgreSQL shows them.
	for _, c := range ctes {
		lines = append(lines, "└ "+describeCTE(p.q, c))
		walk(c.body, 1)
	}
	walk(root, 0)
	return lines
}

// collectUsed adds the columns the nodes of root use to used.
func (p *selectPlan) collectUsed(root plan.Rel, used plan.ColSet) {
	plan.Visit(root, func(r plan.Rel) {
		for _, e := range plan.Exprs(r) {
			used.AddRefs(e)
		}
		if s, ok := r.(*plan.SetOp); ok {
			for _, cols := range s.InCols {
				for _, id := range cols {
					used.Add(id)
				}
			}
		}
		if s, ok := r.(*plan.Recursive); ok {
			for _, id := range append(append([]plan.ColID(nil), s.AnchorCols...), s.RecursCols...) {
				used.Add(id)
			}
		}
	})
}

// describeRel is one node's line in a plan.
func describeRel(q *plan.ColTable, r plan.Rel, used plan.ColSet) string {
	switch x := r.(type) {
	case *plan.Scan:
		var cols []string
		for i, id := range x.Cols {
			if used.Has(id) {
				cols = append(cols, fmt.Sprintf("#%d:%s#%d", id, q.Meta(id).Name, x.FieldIDs[i]))
			}
		}
		return fmt.Sprintf("scan %s [%s]", x.Name, strings.Join(cols, ", "))
	case plan.Source:
		return x.Describe(q)
	case *plan.OneRow:
		return "values (one row)"
	case *plan.Values:
		return fmt.Sprintf("values (%d rows) [%s]", len(x.Rows), plan.FmtCols(q, x.Cols))
	case *plan.Filter:
		return "filter " + plan.FormatExpr(x.Pred)
	case *plan.Project:
		items := make([]string, len(x.Exprs))
		for i, e := range x.Exprs {
			if c, ok := e.(*expr.Col); ok && plan.ColID(c.Idx) == x.Cols[i] {
				items[i] = plan.FormatExpr(e)
				continue
			}
			items[i] = fmt.Sprintf("%s AS #%d", plan.FormatExpr(e), x.Cols[i])
		}
		return "project " + strings.Join(items, ", ")
	case *plan.Agg:
		gs := make([]string, len(x.Groups))
		for i, g := range x.Groups {
			gs[i] = plan.FormatExpr(g)
			if c, ok := g.(*expr.Col); !ok || plan.ColID(c.Idx) != x.GroupCols[i] {
				gs[i] += fmt.Sprintf(" AS #%d", x.GroupCols[i])
			}
		}
		as := make([]string, len(x.Aggs))
		for i, a := range x.Aggs {
			arg := "*"
			if a.Arg != nil {
				arg = plan.FormatExpr(a.Arg)
			}
			for _, extra := range a.Args {
				arg += ", " + plan.FormatExpr(extra)
			}
			if a.Distinct {
				arg = "DISTINCT " + arg
			}
			as[i] = fmt.Sprintf("%s(%s)", a.Fn, arg)
			if len(a.OrderBy) > 0 {
				as[i] += " ORDER BY " + fmtKeys(a.OrderBy)
			}
			if a.Filter != nil {
				as[i] += " FILTER (WHERE " + plan.FormatExpr(a.Filter) + ")"
			}
			as[i] += fmt.Sprintf("::%s AS #%d", plan.FormatArrow(a.T), x.AggCols[i])
		}
		if len(x.Aggs) == 0 {
			return fmt.Sprintf("distinct [%s]", strings.Join(gs, ", "))
		}
		return fmt.Sprintf("aggregate groups [%s] aggs [%s]", strings.Join(gs, ", "), strings.Join(as, ", "))
	case *plan.Join:
		s := x.Typ.String() + " join"
		if x.Cond != nil {
			s += " on " + plan.FormatExpr(x.Cond)
		}
		if x.Typ == plan.JoinMark {
			s += fmt.Sprintf(" mark #%d", x.Mark)
		}
		if x.NullAware {
			s += " null-aware"
		}
		if x.Single {
			s += " single"
		}
		if x.Apply {
			s += " (per outer row)"
		}
		return s + plan.JoinBuildNote(x)
	case *plan.Sort:
		return "sort " + fmtKeys(x.Keys)
	case *plan.Limit:
		return fmt.Sprintf("limit %d offset %d", x.Limit, x.Offset)
	case *plan.Window:
		calls := make([]string, len(x.Calls))
		for i, c := range x.Calls {
			args := make([]string, len(c.Args))
			for j, a := range c.Args {
				args[j] = plan.FormatExpr(a)
			}
			calls[i] = fmt.Sprintf("%s(%s) AS #%d", c.Fn, strings.Join(args, ", "), x.Cols[i])
		}
		parts := make([]string, len(x.Partition))
		for i, e := range x.Partition {
			parts[i] = plan.FormatExpr(e)
		}
		return fmt.Sprintf("window partition [%s] order [%s] [%s]", strings.Join(parts, ", "), fmtKeys(x.Order), strings.Join(calls, ", "))
	case *plan.SetOp:
		op := x.Op
		if x.All {
			op += " all"
		}
		return fmt.Sprintf("%s [%s]", op, plan.FmtCols(q, x.Cols))
	case *plan.Recursive:
		op := "recursive union"
		if !x.Distinct {
			op += " all"
		}
		return fmt.Sprintf("%s %s [%s]", op, x.WT.Name, plan.FmtCols(q, x.Cols))
	case *plan.WorkTable:
		return fmt.Sprintf("work table %s [%s]", x.WT.Name, plan.FmtCols(q, x.Cols))
	case *plan.TableFunc:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = plan.FormatExpr(a)
		}
		return fmt.Sprintf("function %s(%s) [%s]", x.Fn, strings.Join(args, ", "), plan.FmtCols(q, x.Cols))
	}
	return fmt.Sprintf("%T", r)
}

func fmtKeys(keys []plan.SortKey) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = plan.FormatExpr(k.E)
		if k.Desc {
			out[i] += " DESC"
		}
		if k.NullsFirst {
			out[i] += " NULLS FIRST"
		} else {
			out[i] += " NULLS LAST"
		}
	}
	return strings.Join(out, ", ")
}
