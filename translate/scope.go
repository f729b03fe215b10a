package translate

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
)

// scope is the FROM clause's one table: its columns, the name it is
// referred to by, and the columns the statement uses (the scan's
// projection, in first-use order).
type scope struct {
	table   *catalog.Table
	schema  *catalog.Schema
	written tableName
	alias   string // the alias, or "" when none
	cols    []column
	used    []int       // indexes into cols, in scan output order
	pos     map[int]int // index into cols -> scan output index
}

func newScope(t *catalog.Table, tn tableName, alias string) *scope {
	s := t.Metadata.CurrentSchema()
	return &scope{table: t, schema: s, written: tn, alias: alias, cols: columnsOf(s), pos: map[int]int{}}
}

// use marks column i as read and returns its index in the scan output.
func (s *scope) use(i int) int {
	if p, ok := s.pos[i]; ok {
		return p
	}
	s.pos[i] = len(s.used)
	s.used = append(s.used, i)
	return s.pos[i]
}

// matchesQualifier reports whether a column qualifier (t, ns.t or
// cat.ns.t) names this table.
func (s *scope) matchesQualifier(q []string) bool {
	last := q[len(q)-1]
	if s.table == nil {
		return len(q) == 1 && last == "*VALUES*"
	}
	if s.alias != "" {
		return len(q) == 1 && last == s.alias
	}
	if last != s.written.Name && last != s.table.Ident.Name {
		return false
	}
	if len(q) >= 2 {
		ns := q[len(q)-2]
		if s.written.Schema != "" && ns != s.written.Schema {
			return false
		}
	}
	return true
}

// fieldIDs lists the field ids the scan must produce, in output order.
func (s *scope) fieldIDs() []int {
	ids := make([]int, len(s.used))
	for i, c := range s.used {
		ids[i] = s.cols[c].FieldID
	}
	return ids
}

// aggScope collects the GROUP BY expressions and the aggregate calls of a
// query; expressions above the aggregation refer to its output: the group
// keys, then the aggregates.
type aggScope struct {
	groups  []bound
	keys    []string
	aggs    []aggCall
	aggKeys []string
}

// aggCall is one aggregate of the aggregation.
type aggCall struct {
	Fn       string
	Arg      expr.Expr // nil for count(*)
	Distinct bool
	Filter   expr.Expr // nil when none
	Name     string
	T        arrow.DataType
}

func (a *aggScope) addGroup(g bound) {
	a.groups = append(a.groups, g)
	a.keys = append(a.keys, fmtExpr(g.e))
}

func (a *aggScope) findGroup(e expr.Expr) int {
	k := fmtExpr(e)
	for i, g := range a.keys {
		if g == k {
			return i
		}
	}
	return -1
}

// add registers an aggregate (identical calls share one) and returns its
// index among the aggregates.
func (a *aggScope) add(c aggCall) int {
	k := c.Fn + "|" + fmtExpr(c.Arg) + "|" + fmtExpr(c.Filter)
	if c.Distinct {
		k += "|distinct"
	}
	for i, x := range a.aggKeys {
		if x == k {
			return i
		}
	}
	a.aggs = append(a.aggs, c)
	a.aggKeys = append(a.aggKeys, k)
	return len(a.aggs) - 1
}
