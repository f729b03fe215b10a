package translate

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
)

// A bound query is a tree of relational nodes (rel). Every column a node
// produces has a colID, unique within the statement, and bound expressions
// refer to columns by that id: an *expr.Col in a bound tree carries the
// colID in Idx, not a position. lower turns the tree into engine operators
// and only then rewrites each Col to the position of its id in the
// operator's input (see lower.go). Ids make the tree easy to rearrange:
// pushing a filter below a join or swapping a join's sides changes no
// expression.
type colID int

// colMeta describes a column id: its name (for messages and EXPLAIN), its
// PostgreSQL type and its Arrow type, and the table column it is a plain
// reference to (origin), if any.
type colMeta struct {
	name   string
	t      pgType
	at     arrow.DataType
	origin colOrigin
}

// colOrigin is the table column a result column reads unchanged, as
// RowDescription reports it: the relation's OID as pg_class shows it and
// the column's attnum (1-based position in the table's current schema).
// The zero value is no origin (an expression, an aggregate, a constant).
type colOrigin struct {
	table uint32
	att   int16
}

// rel is a node of the relational tree.
type rel interface {
	// outCols lists the columns the node produces, in order.
	outCols() []colID
}

// scanRel reads a table at one snapshot. cols[i] is the id of the
// table column fields[i] (every top-level column: lower reads only
// those used).
type scanRel struct {
	table    *catalog.Table
	schema   *catalog.Schema
	snapshot *catalog.Snapshot // nil: the table has no snapshot (no rows)
	name     string            // as written, for EXPLAIN
	fieldIDs []int
	cols     []colID
}

// oneRowRel is one row without columns: the input of a SELECT without
// FROM.
type oneRowRel struct{}

// valuesRel is a list of constant rows.
type valuesRel struct {
	rows [][]expr.Expr
	cols []colID
}

// filterRel keeps the rows for which pred is true.
type filterRel struct {
	in   rel
	pred expr.Expr
}

// projectRel computes exprs[i] as column cols[i]. An expression that is
// just a reference to the same id passes the column through.
type projectRel struct {
	in    rel
	exprs []expr.Expr
	cols  []colID
}

// aggRel groups its input by groups and computes aggs; it produces the
// group keys (groupCols) then the aggregates (aggCols).
type aggRel struct {
	in        rel
	groups    []expr.Expr
	groupCols []colID
	aggs      []aggCall
	aggCols   []colID
}

// joinType is the kind of a joinRel.
type joinType int

const (
	joinInner joinType = iota
	joinLeft
	joinRight
	joinFull
	joinSemi
	joinAnti
	joinMark
)

var joinTypeNames = [...]string{"inner", "left", "right", "full", "semi", "anti", "mark"}

func (t joinType) String() string { return joinTypeNames[t] }

// joinRel joins two inputs on cond (nil: a cross join). Inner and outer
// joins produce the left then the right columns; semi and anti joins the
// left ones; a mark join the left ones and mark, a boolean: whether the
// row has a match. nullAware gives a mark or anti join the semantics of IN /
// NOT IN; single makes more than one match per left row an error (scalar
// subqueries).
type joinRel struct {
	typ         joinType
	left, right rel
	cond        expr.Expr
	mark        colID
	nullAware   bool
	single      bool
	// apply: the right side refers to the left's columns and is run once
	// per left row (lower_apply.go).
	apply bool
}

// sortRel orders its input.
type sortRel struct {
	in   rel
	keys []sortKey
}

// limitRel skips offset rows and then passes at most limit (-1: all).
type limitRel struct {
	in            rel
	limit, offset int64
}

// windowRel computes window functions over one window definition; it
// produces its input's columns then one column per call.
type windowRel struct {
	in        rel
	partition []expr.Expr
	order     []sortKey
	calls     []windowCall
	cols      []colID
}

// setOpRel is UNION ALL (all inputs), or INTERSECT / EXCEPT [ALL] (two
// inputs). ins[i] produces the columns inCols[i], already cast to the
// result types; the node produces cols.
type setOpRel struct {
	op     string // "union", "intersect", "except"
	all    bool
	ins    []rel
	inCols [][]colID
	cols   []colID
}

// tableFuncRel evaluates a set-returning function once per input row
// (LATERAL): its input's columns, then the function's columns.
type tableFuncRel struct {
	in         rel
	fn         string
	args       []expr.Expr
	ordinality bool
	outer      bool
	cols       []colID // the function's columns (and ordinality)
}

// recursiveRel is WITH RECURSIVE's union of an anchor and a recursive
// term that reads the previous iteration's rows through a workTableRel
// with the same wt.
type recursiveRel struct {
	anchor, recursive      rel
	anchorCols, recursCols []colID
	cols                   []colID
	distinct               bool
	wt                     *workTableRef
}

// workTableRel reads the rows of the previous iteration of a recursive
// query.
type workTableRel struct {
	wt   *workTableRef
	cols []colID
}

// workTableRef names one recursive query's work table.
type workTableRef struct{ name string }

func (r *recursiveRel) outCols() []colID { return r.cols }
func (r *workTableRel) outCols() []colID { return r.cols }
func (r *scanRel) outCols() []colID      { return r.cols }
func (r *oneRowRel) outCols() []colID    { return nil }
func (r *valuesRel) outCols() []colID    { return r.cols }
func (r *filterRel) outCols() []colID    { return r.in.outCols() }
func (r *projectRel) outCols() []colID   { return r.cols }
func (r *aggRel) outCols() []colID       { return append(append([]colID(nil), r.groupCols...), r.aggCols...) }
func (r *sortRel) outCols() []colID      { return r.in.outCols() }
func (r *limitRel) outCols() []colID     { return r.in.outCols() }
func (r *windowRel) outCols() []colID {
	return append(append([]colID(nil), r.in.outCols()...), r.cols...)
}
func (r *setOpRel) outCols() []colID { return r.cols }
func (r *tableFuncRel) outCols() []colID {
	return append(append([]colID(nil), r.in.outCols()...), r.cols...)
}

func (r *joinRel) outCols() []colID {
	switch r.typ {
	case joinSemi, joinAnti:
		return r.left.outCols()
	case joinMark:
		return append(append([]colID(nil), r.left.outCols()...), r.mark)
	}
	return append(append([]colID(nil), r.left.outCols()...), r.right.outCols()...)
}

// colSet is a set of column ids.
type colSet map[colID]struct{}

func (s colSet) add(id colID) { s[id] = struct{}{} }

func (s colSet) has(id colID) bool { _, ok := s[id]; return ok }

func setOf(ids []colID) colSet {
	s := colSet{}
	for _, id := range ids {
		s.add(id)
	}
	return s
}

// addRefs adds the column ids e refers to.
func (s colSet) addRefs(e expr.Expr) {
	walkExpr(e, func(e expr.Expr) {
		if c, ok := e.(*expr.Col); ok {
			s.add(colID(c.Idx))
		}
	})
}

// refsOf is the set of column ids e refers to.
func refsOf(e expr.Expr) colSet {
	s := colSet{}
	s.addRefs(e)
	return s
}

// subsetOf reports whether every id of s is in t.
func (s colSet) subsetOf(t colSet) bool {
	for id := range s {
		if !t.has(id) {
			return false
		}
	}
	return true
}

// walkExpr calls visit on e and every expression below it.
func walkExpr(e expr.Expr, visit func(expr.Expr)) {
	if e == nil {
		return
	}
	visit(e)
	switch e := e.(type) {
	case *expr.Cast:
		walkExpr(e.Arg, visit)
	case *expr.Call:
		for _, a := range e.Args {
			walkExpr(a, visit)
		}
	case *expr.Case:
		for _, w := range e.Whens {
			walkExpr(w.Cond, visit)
			walkExpr(w.Then, visit)
		}
		walkExpr(e.Else, visit)
	}
}

// rewriteExpr rebuilds e bottom-up, replacing each node by what fn returns
// for it (fn returns the node itself to keep it).
func rewriteExpr(e expr.Expr, fn func(expr.Expr) (expr.Expr, error)) (expr.Expr, error) {
	if e == nil {
		return nil, nil
	}
	switch x := e.(type) {
	case *expr.Cast:
		a, err := rewriteExpr(x.Arg, fn)
		if err != nil {
			return nil, err
		}
		if a != x.Arg {
			e = &expr.Cast{Arg: a, T: x.T}
		}
	case *expr.Call:
		var args []expr.Expr
		for i, a := range x.Args {
			na, err := rewriteExpr(a, fn)
			if err != nil {
				return nil, err
			}
			if na != a && args == nil {
				args = append([]expr.Expr(nil), x.Args...)
			}
			if args != nil {
				args[i] = na
			}
		}
		if args != nil {
			c := *x
			c.Args = args
			e = &c
		}
	case *expr.Case:
		c := &expr.Case{T: x.T, Whens: make([]expr.When, len(x.Whens))}
		changed := false
		for i, w := range x.Whens {
			cond, err := rewriteExpr(w.Cond, fn)
			if err != nil {
				return nil, err
			}
			then, err := rewriteExpr(w.Then, fn)
			if err != nil {
				return nil, err
			}
			c.Whens[i] = expr.When{Cond: cond, Then: then}
			changed = changed || cond != w.Cond || then != w.Then
		}
		el, err := rewriteExpr(x.Else, fn)
		if err != nil {
			return nil, err
		}
		c.Else = el
		if changed || el != x.Else {
			e = c
		}
	}
	return fn(e)
}

// conjuncts splits a predicate on its top-level ANDs.
func conjuncts(e expr.Expr) []expr.Expr {
	if c, ok := e.(*expr.Call); ok && c.Fn == "and" {
		var out []expr.Expr
		for _, a := range c.Args {
			out = append(out, conjuncts(a)...)
		}
		return out
	}
	if e == nil {
		return nil
	}
	return []expr.Expr{e}
}

// andOf joins predicates with AND (nil for none).
func andOf(es []expr.Expr) expr.Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return &expr.Call{Fn: "and", Args: es, T: expr.Bool}
}

// sortKey is one ORDER BY key with PostgreSQL's NULL placement resolved.
type sortKey struct {
	E          expr.Expr
	Desc       bool
	NullsFirst bool
}

// groupingCall is one GROUPING(a, b, ...) of a query.
type groupingCall struct {
	args []int
	id   colID
}

// aggCall is one aggregate of the aggregation.
type aggCall struct {
	Fn       string
	Arg      expr.Expr // nil for count(*)
	Args     []expr.Expr
	Distinct bool
	Filter   expr.Expr // nil when none
	OrderBy  []sortKey
	Name     string
	T        arrow.DataType
	pt       pgType
}

// windowCall is one window function call; its expressions are bound over
// column ids (lower remaps them).
type windowCall struct {
	fn     string
	args   []expr.Expr
	filter expr.Expr
	frame  exec.WindowFrame
	t      arrow.DataType
}

func (s colSet) intersects(t colSet) bool {
	for id := range s {
		if t.has(id) {
			return true
		}
	}
	return false
}
