package translate

import (
	"fmt"
	"strings"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// selectPlan is a bound query: its relational tree (root), the columns of
// its result (out, which root produces among maybe others) and how they
// are described to the client (cols). output holds a reference to each
// result column, for callers that need their Arrow types.
type selectPlan struct {
	root   rel
	out    []colID
	cols   []pgtypes.Column
	output []expr.Expr
	q      *colTable
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
	return strings.Join(p.render(optimize(p.root), nil), "\n")
}

// render prints the optimized tree root of p; with stats (EXPLAIN
// ANALYZE) each node also shows what it did.
func (p *selectPlan) render(root rel, stats map[rel]*opStats) []string {
	var lines []string
	items := make([]string, len(p.out))
	for i, id := range p.out {
		c := p.cols[i]
		items[i] = fmt.Sprintf("#%d AS %q %s", id, c.Name, pgType{c.TypeOID, c.Typmod})
	}
	lines = append(lines, "result "+strings.Join(items, ", "))
	// Scans show the columns they read: those something uses.
	used := setOf(p.out)
	ctes := sharedCTEs(root)
	roots := []rel{root}
	for _, c := range ctes {
		roots = append(roots, c.optimized())
		for _, id := range c.out {
			used.add(id)
		}
	}
	for _, root := range roots {
		p.collectUsed(root, used)
	}
	var walk func(r rel, depth int)
	walk = func(r rel, depth int) {
		line := strings.Repeat("  ", depth) + "└ " + describeRel(p.q, r, used)
		if st, ok := stats[r]; ok {
			line += "  " + st.String()
		} else if stats != nil {
			line += "  (never executed)"
		}
		lines = append(lines, line)
		for _, c := range relChildren(r) {
			walk(c, depth+1)
		}
	}
	// Shared WITH queries first, each once, as PostgreSQL shows them.
	for _, c := range ctes {
		lines = append(lines, "└ "+describeCTE(p.q, c))
		walk(c.optimized(), 1)
	}
	walk(root, 0)
	return lines
}

// collectUsed adds the columns the nodes of root use to used.
func (p *selectPlan) collectUsed(root rel, used colSet) {
	visitRel(root, func(r rel) {
		for _, e := range relExprs(r) {
			used.addRefs(e)
		}
		if s, ok := r.(*setOpRel); ok {
			for _, cols := range s.inCols {
				for _, id := range cols {
					used.add(id)
				}
			}
		}
		if s, ok := r.(*recursiveRel); ok {
			for _, id := range append(append([]colID(nil), s.anchorCols...), s.recursCols...) {
				used.add(id)
			}
		}
	})
}

// describeRel is one node's line in a plan.
func describeRel(q *colTable, r rel, used colSet) string {
	switch x := r.(type) {
	case *scanRel:
		var cols []string
		for i, id := range x.cols {
			if used.has(id) {
				cols = append(cols, fmt.Sprintf("#%d:%s#%d", id, q.meta(id).name, x.fieldIDs[i]))
			}
		}
		return fmt.Sprintf("scan %s [%s]", x.name, strings.Join(cols, ", "))
	case *sysRel:
		return fmt.Sprintf("system catalog %s.%s [%s]", x.table.Schema, x.table.Name, fmtCols(q, x.cols))
	case *metaRel:
		return describeMeta(q, x)
	case *changesRel:
		return describeChanges(q, x)
	case *oneRowRel:
		return "values (one row)"
	case *valuesRel:
		return fmt.Sprintf("values (%d rows) [%s]", len(x.rows), fmtCols(q, x.cols))
	case *filterRel:
		return "filter " + fmtExpr(x.pred)
	case *projectRel:
		items := make([]string, len(x.exprs))
		for i, e := range x.exprs {
			if c, ok := e.(*expr.Col); ok && colID(c.Idx) == x.cols[i] {
				items[i] = fmtExpr(e)
				continue
			}
			items[i] = fmt.Sprintf("%s AS #%d", fmtExpr(e), x.cols[i])
		}
		return "project " + strings.Join(items, ", ")
	case *aggRel:
		gs := make([]string, len(x.groups))
		for i, g := range x.groups {
			gs[i] = fmtExpr(g)
			if c, ok := g.(*expr.Col); !ok || colID(c.Idx) != x.groupCols[i] {
				gs[i] += fmt.Sprintf(" AS #%d", x.groupCols[i])
			}
		}
		as := make([]string, len(x.aggs))
		for i, a := range x.aggs {
			arg := "*"
			if a.Arg != nil {
				arg = fmtExpr(a.Arg)
			}
			for _, extra := range a.Args {
				arg += ", " + fmtExpr(extra)
			}
			if a.Distinct {
				arg = "DISTINCT " + arg
			}
			as[i] = fmt.Sprintf("%s(%s)", a.Fn, arg)
			if len(a.OrderBy) > 0 {
				as[i] += " ORDER BY " + fmtKeys(a.OrderBy)
			}
			if a.Filter != nil {
				as[i] += " FILTER (WHERE " + fmtExpr(a.Filter) + ")"
			}
			as[i] += fmt.Sprintf("::%s AS #%d", fmtArrow(a.T), x.aggCols[i])
		}
		if len(x.aggs) == 0 {
			return fmt.Sprintf("distinct [%s]", strings.Join(gs, ", "))
		}
		return fmt.Sprintf("aggregate groups [%s] aggs [%s]", strings.Join(gs, ", "), strings.Join(as, ", "))
	case *joinRel:
		s := x.typ.String() + " join"
		if x.cond != nil {
			s += " on " + fmtExpr(x.cond)
		}
		if x.typ == joinMark {
			s += fmt.Sprintf(" mark #%d", x.mark)
		}
		if x.nullAware {
			s += " null-aware"
		}
		if x.single {
			s += " single"
		}
		if x.apply {
			s += " (per outer row)"
		}
		return s + joinBuildNote(x)
	case *sortRel:
		return "sort " + fmtKeys(x.keys)
	case *limitRel:
		return fmt.Sprintf("limit %d offset %d", x.limit, x.offset)
	case *windowRel:
		calls := make([]string, len(x.calls))
		for i, c := range x.calls {
			args := make([]string, len(c.args))
			for j, a := range c.args {
				args[j] = fmtExpr(a)
			}
			calls[i] = fmt.Sprintf("%s(%s) AS #%d", c.fn, strings.Join(args, ", "), x.cols[i])
		}
		parts := make([]string, len(x.partition))
		for i, e := range x.partition {
			parts[i] = fmtExpr(e)
		}
		return fmt.Sprintf("window partition [%s] order [%s] [%s]", strings.Join(parts, ", "), fmtKeys(x.order), strings.Join(calls, ", "))
	case *setOpRel:
		op := x.op
		if x.all {
			op += " all"
		}
		return fmt.Sprintf("%s [%s]", op, fmtCols(q, x.cols))
	case *recursiveRel:
		op := "recursive union"
		if !x.distinct {
			op += " all"
		}
		return fmt.Sprintf("%s %s [%s]", op, x.wt.name, fmtCols(q, x.cols))
	case *workTableRel:
		return fmt.Sprintf("work table %s [%s]", x.wt.name, fmtCols(q, x.cols))
	case *cteScanRel:
		return describeCTEScan(q, x)
	case *tableFuncRel:
		args := make([]string, len(x.args))
		for i, a := range x.args {
			args[i] = fmtExpr(a)
		}
		return fmt.Sprintf("function %s(%s) [%s]", x.fn, strings.Join(args, ", "), fmtCols(q, x.cols))
	}
	return fmt.Sprintf("%T", r)
}

func fmtKeys(keys []sortKey) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmtExpr(k.E)
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
