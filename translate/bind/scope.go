package bind

import (
	"slices"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// scope is what names can refer to while binding one SELECT: the items of
// its FROM clause, the columns USING/NATURAL joins merged, and the
// enclosing query's scope (a reference resolved there is an outer,
// correlated reference).
type scope struct {
	parent *scope
	items  []*rangeItem
	// merged are the join columns of USING / NATURAL joins: an unqualified
	// name finds them first, and * lists them first.
	merged []itemCol
	// outerAgg is the aggregation of the enclosing query when this
	// (sub)query is bound inside its aggregated part.
	outerAgg *aggScope
	// hidden are the FROM items (and the columns their USING joins merged)
	// that exist but cannot be referenced while a join's ON condition is
	// bound: those before the join in the FROM clause. Names are not
	// resolved in them; they only make the error PostgreSQL's.
	hidden       []*rangeItem
	hiddenMerged []itemCol
}

// hideBefore hides the items before item first and the merged columns
// before mergedFirst while a join's condition is bound; the returned
// function shows them again.
func (s *scope) hideBefore(first, mergedFirst int) (restore func()) {
	items, merged := s.items, s.merged
	hidden, hiddenMerged := s.hidden, s.hiddenMerged
	s.hidden = append(append([]*rangeItem(nil), hidden...), items[:first]...)
	s.hiddenMerged = append(append([]itemCol(nil), hiddenMerged...), merged[:mergedFirst]...)
	s.items, s.merged = items[first:], merged[mergedFirst:]
	return func() {
		s.items, s.merged = items, merged
		s.hidden, s.hiddenMerged = hidden, hiddenMerged
	}
}

// hiddenRefError is PostgreSQL's error for a name that only a hidden FROM
// item has (nil when none has it): 42P01 for a qualifier, 42703 for a
// column, each with the hint that says why.
func (s *scope) hiddenRefError(parts []string, quoted bool) error {
	if len(s.hidden) == 0 {
		return nil
	}
	if len(parts) > 1 {
		qual := parts[:len(parts)-1]
		for _, it := range s.hidden {
			if it.matchesQualifier(qual) {
				return pgerr.New(pgerr.UndefinedTable, "invalid reference to FROM-clause entry for table \"%s\"", qual[len(qual)-1]).
					WithHint("There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", qual[len(qual)-1])
			}
		}
		return nil
	}
	name := parts[0]
	for _, it := range s.hidden {
		cols := make([]Column, len(it.cols))
		for i, c := range it.cols {
			cols[i] = Column{Name: c.name}
		}
		if FindColumn(cols, name, quoted) >= 0 {
			return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", name).
				WithHint("There is a column named \"%s\" in table \"%s\", but it cannot be referenced from this part of the query.", name, it.refName())
		}
	}
	return nil
}

// rangeItem is one FROM item: a table, a derived table, VALUES, a
// function or a CTE reference, with the name it is referred to by.
type rangeItem struct {
	table *catalog.Table  // nil unless a catalog table
	tn    parse.TableName // how the table was written (tables only)
	alias string          // the alias, or "" when none
	name  string          // the reference name when there is no alias
	cols  []itemCol
	// sys is set for a system catalog relation (pg_catalog.pg_class):
	// pg_class.oid and pg_catalog.pg_class.oid refer to it.
	sys *syscat.Table
}

// itemCol is a column of a FROM item.
type itemCol struct {
	name string
	id   plan.ColID
	// merged is true for a column a USING/NATURAL join merged: * lists
	// the merged column once instead.
	merged bool
	// hidden columns (metadata columns) are not listed by *.
	hidden bool
}

// cteDef is a WITH query: bound afresh at each reference, in the scope
// the WITH clause was in.
type cteDef struct {
	name    string
	aliases []string // column aliases, or nil
	query   *pg.SelectStmt
	scope   *scope
	binding bool // being bound: its name means a table inside itself
	// recursive: WITH RECURSIVE whose UNION's right side refers to it.
	// While that side is bound (inRecursiveTerm), the name means the work
	// table wt with columns wtMetas.
	recursive       bool
	inRecursiveTerm bool
	wt              *plan.WorkTableRef
	wtMetas         []plan.ColMeta
	// materialize: computed once and shared by its references
	// (plan/cte.go), bound into shared at the first one.
	materialize bool
	shared      *plan.CTE
}

// matchesQualifier reports whether a column qualifier (t, ns.t or
// cat.ns.t) names this item.
func (it *rangeItem) matchesQualifier(q []string) bool {
	last := q[len(q)-1]
	if it.alias != "" {
		return len(q) == 1 && last == it.alias
	}
	if it.sys != nil {
		if last != it.sys.Name {
			return false
		}
		return len(q) == 1 || q[len(q)-2] == it.sys.Schema
	}
	if it.table == nil {
		return len(q) == 1 && last == it.name
	}
	if last != it.tn.Name && last != it.table.Ident.Name {
		return false
	}
	if len(q) >= 2 {
		ns := q[len(q)-2]
		if it.tn.Schema != "" && ns != it.tn.Schema {
			return false
		}
	}
	return true
}

// refName is the name the item is referred to by in messages.
func (it *rangeItem) refName() string {
	if it.alias != "" {
		return it.alias
	}
	if it.table != nil {
		return it.tn.Name
	}
	if it.sys != nil {
		return it.sys.Name
	}
	return it.name
}

// aggScope collects the GROUP BY expressions and the aggregate calls of a
// query; expressions above the aggregation refer to its output columns.
type aggScope struct {
	groups    []Bound
	groupCols []plan.ColID
	keys      []string
	// subLinks are the GROUP BY items by parse node: GROUP BY n of a target
	// holding a subquery binds that target to the group instead of a
	// second subquery.
	subLinks map[*pg.Node]int
	aggs     []plan.AggCall
	aggCols  []plan.ColID
	aggKeys  []string
	// sets are the grouping sets (indexes into groups) of GROUPING SETS,
	// ROLLUP and CUBE; nil for a plain GROUP BY.
	sets [][]int
	// grouping are the GROUPING(...) calls: their arguments' group indexes
	// and result columns.
	grouping []plan.GroupingCall
}

func (a *aggScope) findGroup(e expr.Expr) int {
	k := plan.FormatExpr(e)
	for i, g := range a.keys {
		if g == k {
			return i
		}
	}
	return -1
}

// Add registers an aggregate (identical calls share one) and returns its
// index among the aggregates.
func (a *aggScope) Add(c plan.AggCall) (int, bool) {
	k := c.Fn + "|" + plan.FormatExpr(c.Arg) + "|" + plan.FormatExpr(c.Filter)
	for _, x := range c.Args {
		k += "|" + plan.FormatExpr(x)
	}
	for _, o := range c.OrderBy {
		k += "|o" + plan.FormatExpr(o.E)
		if o.Desc {
			k += "d"
		}
		if o.NullsFirst {
			k += "f"
		}
	}
	if c.Distinct {
		k += "|distinct"
	}
	for i, x := range a.aggKeys {
		if x == k {
			return i, false
		}
	}
	a.aggs = append(a.aggs, c)
	a.aggKeys = append(a.aggKeys, k)
	return len(a.aggs) - 1, true
}

// checkDuplicateNames refuses two FROM items of one query with the same
// reference name, as PostgreSQL does (42712): an alias may not repeat, nor
// may one table appear twice without one. Two different tables of the same
// name in different schemas are fine.
func (s *scope) checkDuplicateNames() error {
	for i, it := range s.items {
		for _, prev := range s.items[:i] {
			if it.refName() != prev.refName() || it.refName() == "" {
				continue
			}
			sameTable := it.table != nil && prev.table != nil && it.table.Ident.Name == prev.table.Ident.Name && slices.Equal(it.table.Ident.Namespace, prev.table.Ident.Namespace)
			if it.alias != "" || prev.alias != "" || sameTable {
				return pgerr.New(pgerr.DuplicateAlias, "table name \"%s\" specified more than once", it.refName())
			}
		}
	}
	return nil
}
