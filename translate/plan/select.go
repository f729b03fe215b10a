package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// Select is a bound query: its relational tree (Root), the columns of
// its result (Out, which Root produces among maybe others) and how they
// are described to the client (Cols). Output holds a reference to each
// result column, for callers that need their Arrow types.
type Select struct {
	Root     Rel
	Out      []ColID
	Cols     []pgtypes.Column
	Output   []expr.Expr
	ColTable *ColTable
	// Untyped marks result columns that are untyped literals (see
	// bind's target.untyped); nil when none.
	Untyped []bool
}

// IsUntyped reports whether result column i is an untyped literal.
func (p *Select) IsUntyped(i int) bool { return i < len(p.Untyped) && p.Untyped[i] }

// Render prints the optimized tree root of p; with stats (EXPLAIN
// ANALYZE) each node also shows what it did.
func (p *Select) Render(stats map[Rel]string) []string {
	root := p.Root
	var lines []string
	items := make([]string, len(p.Out))
	for i, id := range p.Out {
		c := p.Cols[i]
		items[i] = fmt.Sprintf("#%d AS %q %s", id, c.Name, Type{OID: c.TypeOID, Typmod: c.Typmod})
	}
	lines = append(lines, "result "+strings.Join(items, ", "))
	// Scans show the columns they read: those something uses.
	used := SetOf(p.Out)
	ctes := sharedCTEs(root)
	roots := []Rel{root}
	for _, c := range ctes {
		roots = append(roots, c.Body)
		for _, id := range c.Out {
			used.Add(id)
		}
	}
	for _, root := range roots {
		p.collectUsed(root, used)
	}
	var walk func(r Rel, depth int)
	walk = func(r Rel, depth int) {
		line := strings.Repeat("  ", depth) + "└ " + describeRel(p.ColTable, r, used)
		if st, ok := stats[r]; ok {
			line += "  " + st
		} else if stats != nil {
			line += "  (never executed)"
		}
		lines = append(lines, line)
		for _, c := range Children(r) {
			walk(c, depth+1)
		}
	}
	// Shared WITH queries first, each once, as PostgreSQL shows them.
	for _, c := range ctes {
		lines = append(lines, "└ "+describeCTE(p.ColTable, c))
		walk(c.Body, 1)
	}
	walk(root, 0)
	return lines
}

// collectUsed adds the columns the nodes of root use to used.
func (p *Select) collectUsed(root Rel, used ColSet) {
	Visit(root, func(r Rel) {
		for _, e := range Exprs(r) {
			used.AddRefs(e)
		}
		if s, ok := r.(*SetOp); ok {
			for _, cols := range s.InCols {
				for _, id := range cols {
					used.Add(id)
				}
			}
		}
		if s, ok := r.(*Recursive); ok {
			for _, id := range append(append([]ColID(nil), s.AnchorCols...), s.RecursCols...) {
				used.Add(id)
			}
		}
	})
}

// describeRel is one node's line in a plan.
func describeRel(q *ColTable, r Rel, used ColSet) string {
	switch x := r.(type) {
	case *Scan:
		var cols []string
		for i, id := range x.Cols {
			if used.Has(id) {
				cols = append(cols, fmt.Sprintf("#%d:%s#%d", id, q.Meta(id).Name, x.FieldIDs[i]))
			}
		}
		return fmt.Sprintf("scan %s [%s]", x.Name, strings.Join(cols, ", "))
	case Leaf:
		return x.Describe(q)
	case *OneRow:
		return "values (one row)"
	case *Values:
		return fmt.Sprintf("values (%d rows) [%s]", len(x.Rows), FmtCols(q, x.Cols))
	case *Filter:
		return "filter " + FormatExpr(x.Pred)
	case *Project:
		items := make([]string, len(x.Exprs))
		for i, e := range x.Exprs {
			if c, ok := e.(*expr.Col); ok && ColID(c.Idx) == x.Cols[i] {
				items[i] = FormatExpr(e)
				continue
			}
			items[i] = fmt.Sprintf("%s AS #%d", FormatExpr(e), x.Cols[i])
		}
		return "project " + strings.Join(items, ", ")
	case *Agg:
		gs := make([]string, len(x.Groups))
		for i, g := range x.Groups {
			gs[i] = FormatExpr(g)
			if c, ok := g.(*expr.Col); !ok || ColID(c.Idx) != x.GroupCols[i] {
				gs[i] += fmt.Sprintf(" AS #%d", x.GroupCols[i])
			}
		}
		as := make([]string, len(x.Aggs))
		for i, a := range x.Aggs {
			arg := "*"
			if a.Arg != nil {
				arg = FormatExpr(a.Arg)
			}
			for _, extra := range a.Args {
				arg += ", " + FormatExpr(extra)
			}
			if a.Distinct {
				arg = "DISTINCT " + arg
			}
			as[i] = fmt.Sprintf("%s(%s)", a.Fn, arg)
			if len(a.OrderBy) > 0 {
				as[i] += " ORDER BY " + FormatKeys(a.OrderBy)
			}
			if a.Filter != nil {
				as[i] += " FILTER (WHERE " + FormatExpr(a.Filter) + ")"
			}
			as[i] += fmt.Sprintf("::%s AS #%d", FormatArrow(a.T), x.AggCols[i])
		}
		if len(x.Aggs) == 0 {
			return fmt.Sprintf("distinct [%s]", strings.Join(gs, ", "))
		}
		return fmt.Sprintf("aggregate groups [%s] aggs [%s]", strings.Join(gs, ", "), strings.Join(as, ", "))
	case *Join:
		s := x.Typ.String() + " join"
		if x.Cond != nil {
			s += " on " + FormatExpr(x.Cond)
		}
		if x.Typ == JoinMark {
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
		return s + JoinBuildNote(x)
	case *Sort:
		return "sort " + FormatKeys(x.Keys)
	case *Limit:
		return fmt.Sprintf("limit %d offset %d", x.Limit, x.Offset)
	case *Window:
		calls := make([]string, len(x.Calls))
		for i, c := range x.Calls {
			args := make([]string, len(c.Args))
			for j, a := range c.Args {
				args[j] = FormatExpr(a)
			}
			calls[i] = fmt.Sprintf("%s(%s) AS #%d", c.Fn, strings.Join(args, ", "), x.Cols[i])
		}
		parts := make([]string, len(x.Partition))
		for i, e := range x.Partition {
			parts[i] = FormatExpr(e)
		}
		return fmt.Sprintf("window partition [%s] order [%s] [%s]", strings.Join(parts, ", "), FormatKeys(x.Order), strings.Join(calls, ", "))
	case *SetOp:
		op := x.Op
		if x.All {
			op += " all"
		}
		return fmt.Sprintf("%s [%s]", op, FmtCols(q, x.Cols))
	case *Recursive:
		op := "recursive union"
		if !x.Distinct {
			op += " all"
		}
		return fmt.Sprintf("%s %s [%s]", op, x.WT.Name, FmtCols(q, x.Cols))
	case *WorkTable:
		return fmt.Sprintf("work table %s [%s]", x.WT.Name, FmtCols(q, x.Cols))
	case *TableFunc:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = FormatExpr(a)
		}
		return fmt.Sprintf("function %s(%s) [%s]", x.Fn, strings.Join(args, ", "), FmtCols(q, x.Cols))
	}
	return fmt.Sprintf("%T", r)
}

func FormatKeys(keys []SortKey) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = FormatExpr(k.E)
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

// Subquery is an uncorrelated scalar subquery or EXISTS in a bound
// expression; lower evaluates it once.
type Subquery struct {
	Plan   *Select
	Exists bool
	T      arrow.DataType
}

func (s *Subquery) Type() arrow.DataType { return s.T }

func (s *Subquery) String() string {
	if s.Exists {
		return "EXISTS(subquery)"
	}
	return "(subquery)"
}
