package translate

import (
	"fmt"
	"strings"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// selectPlan is a bound SELECT over zero or one table, in the order the
// engine runs it:
//
//	scan (or one empty row) -> where -> aggregate -> having ->
//	sort -> project -> limit                      (without DISTINCT)
//	project -> distinct -> sort -> limit          (with DISTINCT)
//
// Sort keys are expressions over the rows entering the sort: before the
// projection without DISTINCT, over the output columns with it.
type selectPlan struct {
	scope    *scope        // nil: no FROM clause
	values   [][]expr.Expr // VALUES rows (then scope is nil)
	where    expr.Expr
	agg      *aggScope // nil: no aggregation
	having   expr.Expr
	distinct bool
	output   []expr.Expr
	cols     []pgtypes.Column
	sort     []sortKey
	limit    int64 // -1: none
	offset   int64
}

// sortKey is one ORDER BY key with PostgreSQL's NULL placement resolved.
type sortKey struct {
	E          expr.Expr
	Desc       bool
	NullsFirst bool
}

// String renders the plan, one operator per line from the top (the output)
// down to the scan, for tests and EXPLAIN.
func (p *selectPlan) String() string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	if p.limit >= 0 || p.offset > 0 {
		add("limit %d offset %d", p.limit, p.offset)
	}
	sortLine := func() {
		if len(p.sort) == 0 {
			return
		}
		keys := make([]string, len(p.sort))
		for i, k := range p.sort {
			keys[i] = fmtExpr(k.E)
			if k.Desc {
				keys[i] += " DESC"
			}
			if k.NullsFirst {
				keys[i] += " NULLS FIRST"
			} else {
				keys[i] += " NULLS LAST"
			}
		}
		add("sort %s", strings.Join(keys, ", "))
	}
	projLine := func() {
		items := make([]string, len(p.output))
		for i, e := range p.output {
			c := p.cols[i]
			items[i] = fmt.Sprintf("%s AS %q %s", fmtExpr(e), c.Name, pgType{c.TypeOID, c.Typmod})
		}
		add("project %s", strings.Join(items, ", "))
	}
	if p.distinct {
		sortLine()
		add("distinct")
		projLine()
	} else {
		projLine()
		sortLine()
	}
	if p.having != nil {
		add("filter %s", fmtExpr(p.having))
	}
	if p.agg != nil {
		gs := make([]string, len(p.agg.groups))
		for i, g := range p.agg.groups {
			gs[i] = fmtExpr(g.e)
		}
		as := make([]string, len(p.agg.aggs))
		for i, a := range p.agg.aggs {
			arg := "*"
			if a.Arg != nil {
				arg = fmtExpr(a.Arg)
			}
			if a.Distinct {
				arg = "DISTINCT " + arg
			}
			as[i] = fmt.Sprintf("%s(%s)", a.Fn, arg)
			if a.Filter != nil {
				as[i] += " FILTER (WHERE " + fmtExpr(a.Filter) + ")"
			}
			as[i] += "::" + fmtArrow(a.T)
		}
		add("aggregate groups [%s] aggs [%s]", strings.Join(gs, ", "), strings.Join(as, ", "))
	}
	if p.where != nil {
		add("filter %s", fmtExpr(p.where))
	}
	if p.values != nil {
		add("values (%d rows)", len(p.values))
	} else if p.scope == nil {
		add("values (one row)")
	} else {
		cols := make([]string, len(p.scope.used))
		for i, c := range p.scope.used {
			col := p.scope.cols[c]
			cols[i] = fmt.Sprintf("%s#%d", col.Name, col.FieldID)
		}
		add("scan %s.%s [%s]", strings.Join(p.scope.table.Ident.Namespace, "."), p.scope.table.Ident.Name, strings.Join(cols, ", "))
	}
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.Repeat("  ", i-1) + "└ " + lines[i]
	}
	return strings.Join(lines, "\n")
}
