package plan

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
)

// A bound query is a tree of relational nodes (Rel). Every column a node
// produces has a ColID, unique within the statement, and bound expressions
// refer to columns by that id: an *expr.Col in a bound tree carries the
// ColID in Idx, not a position. lower turns the tree into engine operators
// and only then rewrites each Col to the position of its id in the
// operator's input (see translate/lower/lower.go). Ids make the tree
// easy to rearrange: pushing a filter below a join or swapping a join's
// sides changes no expression.
type ColID int

// ColMeta describes a column id: its name (for messages and EXPLAIN), its
// PostgreSQL type and its Arrow type, and the table column it is a plain
// reference to (origin), if any.
type ColMeta struct {
	Name      string
	T         Type
	ArrowType arrow.DataType
	Origin    ColOrigin
	// Enum is the enum type ("schema.name") of a column of one, whose
	// values are its labels as text; "" for other columns.
	Enum string
}

// ColOrigin is the table column a result column reads unchanged, as
// RowDescription reports it: the relation's OID as pg_class shows it and
// the column's attnum (1-based position in the table's current schema).
// The zero value is no origin (an expression, an aggregate, a constant).
type ColOrigin struct {
	Table uint32
	Att   int16
}

// Rel is a node of the relational tree.
type Rel interface {
	// OutCols lists the columns the node produces, in order.
	OutCols() []ColID
}

// Scan reads a table at one snapshot. Cols[i] is the id of the
// table column FieldIDs[i] (every top-level column: lower reads only
// those used).
type Scan struct {
	Table    *catalog.Table
	Schema   *catalog.Schema
	Snapshot *catalog.Snapshot // nil: the table has no snapshot (no rows)
	Name     string            // as written, for EXPLAIN
	Alias    string            // the FROM item's alias, "" when none
	FieldIDs []int
	Cols     []ColID
}

// OneRow is one row without columns: the input of a SELECT without
// FROM.
type OneRow struct{}

// Values is a list of constant rows.
type Values struct {
	Rows [][]expr.Expr
	Cols []ColID
}

// Filter keeps the rows for which Pred is true.
type Filter struct {
	In   Rel
	Pred expr.Expr
}

// Project computes Exprs[i] as column Cols[i]. An expression that is
// just a reference to the same id passes the column through.
type Project struct {
	In    Rel
	Exprs []expr.Expr
	Cols  []ColID
}

// Agg groups its input by Groups and computes Aggs; it produces the
// group keys (GroupCols) then the aggregates (AggCols).
type Agg struct {
	In        Rel
	Groups    []expr.Expr
	GroupCols []ColID
	Aggs      []AggCall
	AggCols   []ColID
}

// JoinType is the kind of a Join.
type JoinType int

const (
	JoinInner JoinType = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinSemi
	JoinAnti
	JoinMark
)

var joinTypeNames = [...]string{"inner", "left", "right", "full", "semi", "anti", "mark"}

func (t JoinType) String() string { return joinTypeNames[t] }

// Join joins two inputs on Cond (nil: a cross join). Inner and outer
// joins produce the left then the right columns; semi and anti joins the
// left ones; a mark join the left ones and Mark, a boolean: whether the
// row has a match. NullAware gives a mark or anti join the semantics of IN /
// NOT IN; Single makes more than one match per left row an error (scalar
// subqueries).
type Join struct {
	Typ         JoinType
	Left, Right Rel
	Cond        expr.Expr
	Mark        ColID
	NullAware   bool
	Single      bool
	// Apply: the right side refers to the left's columns and is run once
	// per left row (lower/apply.go).
	Apply bool
}

// Sort orders its input.
type Sort struct {
	In   Rel
	Keys []SortKey
}

// Limit skips Offset rows and then passes at most Limit (-1: all).
type Limit struct {
	In            Rel
	Limit, Offset int64
}

// Window computes window functions over one window definition; it
// produces its input's columns then one column per call.
type Window struct {
	In        Rel
	Partition []expr.Expr
	Order     []SortKey
	Calls     []WindowCall
	Cols      []ColID
}

// SetOp is UNION ALL (all inputs), or INTERSECT / EXCEPT [ALL] (two
// inputs). Ins[i] produces the columns InCols[i], already cast to the
// result types; the node produces Cols.
type SetOp struct {
	Op     string // "union", "intersect", "except"
	All    bool
	Ins    []Rel
	InCols [][]ColID
	Cols   []ColID
}

// TableFunc evaluates a set-returning function once per input row
// (LATERAL): its input's columns, then the function's columns.
type TableFunc struct {
	In         Rel
	Fn         string
	Args       []expr.Expr
	Ordinality bool
	Outer      bool
	Cols       []ColID // the function's columns (and ordinality)
}

// Recursive is WITH RECURSIVE's union of an anchor and a recursive
// term that reads the previous iteration's rows through a WorkTable
// with the same WT.
type Recursive struct {
	Anchor, Recursive      Rel
	AnchorCols, RecursCols []ColID
	Cols                   []ColID
	Distinct               bool
	WT                     *WorkTableRef
}

// WorkTable reads the rows of the previous iteration of a recursive
// query.
type WorkTable struct {
	WT   *WorkTableRef
	Cols []ColID
}

// WorkTableRef names one recursive query's work table.
type WorkTableRef struct{ Name string }

func (r *Recursive) OutCols() []ColID { return r.Cols }
func (r *WorkTable) OutCols() []ColID { return r.Cols }
func (r *Scan) OutCols() []ColID      { return r.Cols }
func (r *OneRow) OutCols() []ColID    { return nil }
func (r *Values) OutCols() []ColID    { return r.Cols }
func (r *Filter) OutCols() []ColID    { return r.In.OutCols() }
func (r *Project) OutCols() []ColID   { return r.Cols }
func (r *Agg) OutCols() []ColID       { return append(append([]ColID(nil), r.GroupCols...), r.AggCols...) }
func (r *Sort) OutCols() []ColID      { return r.In.OutCols() }
func (r *Limit) OutCols() []ColID     { return r.In.OutCols() }
func (r *Window) OutCols() []ColID {
	return append(append([]ColID(nil), r.In.OutCols()...), r.Cols...)
}
func (r *SetOp) OutCols() []ColID { return r.Cols }
func (r *TableFunc) OutCols() []ColID {
	return append(append([]ColID(nil), r.In.OutCols()...), r.Cols...)
}

func (r *Join) OutCols() []ColID {
	switch r.Typ {
	case JoinSemi, JoinAnti:
		return r.Left.OutCols()
	case JoinMark:
		return append(append([]ColID(nil), r.Left.OutCols()...), r.Mark)
	}
	return append(append([]ColID(nil), r.Left.OutCols()...), r.Right.OutCols()...)
}

// ColSet is a set of column ids.
type ColSet map[ColID]struct{}

func (s ColSet) Add(id ColID) { s[id] = struct{}{} }

func (s ColSet) Has(id ColID) bool { _, ok := s[id]; return ok }

func SetOf(ids []ColID) ColSet {
	s := ColSet{}
	for _, id := range ids {
		s.Add(id)
	}
	return s
}

// AddRefs adds the column ids e refers to.
func (s ColSet) AddRefs(e expr.Expr) {
	WalkExpr(e, func(e expr.Expr) {
		if c, ok := e.(*expr.Col); ok {
			s.Add(ColID(c.Idx))
		}
	})
}

// RefsOf is the set of column ids e refers to.
func RefsOf(e expr.Expr) ColSet {
	s := ColSet{}
	s.AddRefs(e)
	return s
}

// SubsetOf reports whether every id of s is in t.
func (s ColSet) SubsetOf(t ColSet) bool {
	for id := range s {
		if !t.Has(id) {
			return false
		}
	}
	return true
}

// WalkExpr calls visit on e and every expression below it.
func WalkExpr(e expr.Expr, visit func(expr.Expr)) {
	if e == nil {
		return
	}
	visit(e)
	switch e := e.(type) {
	case *expr.Cast:
		WalkExpr(e.Arg, visit)
	case *expr.Call:
		for _, a := range e.Args {
			WalkExpr(a, visit)
		}
	case *expr.Case:
		for _, w := range e.Whens {
			WalkExpr(w.Cond, visit)
			WalkExpr(w.Then, visit)
		}
		WalkExpr(e.Else, visit)
	}
}

// RewriteExpr rebuilds e bottom-up, replacing each node by what fn returns
// for it (fn returns the node itself to keep it).
func RewriteExpr(e expr.Expr, fn func(expr.Expr) (expr.Expr, error)) (expr.Expr, error) {
	if e == nil {
		return nil, nil
	}
	switch x := e.(type) {
	case *expr.Cast:
		a, err := RewriteExpr(x.Arg, fn)
		if err != nil {
			return nil, err
		}
		if a != x.Arg {
			e = &expr.Cast{Arg: a, T: x.T}
		}
	case *expr.Call:
		var args []expr.Expr
		for i, a := range x.Args {
			na, err := RewriteExpr(a, fn)
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
			cond, err := RewriteExpr(w.Cond, fn)
			if err != nil {
				return nil, err
			}
			then, err := RewriteExpr(w.Then, fn)
			if err != nil {
				return nil, err
			}
			c.Whens[i] = expr.When{Cond: cond, Then: then}
			changed = changed || cond != w.Cond || then != w.Then
		}
		el, err := RewriteExpr(x.Else, fn)
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

// Conjuncts splits a predicate on its top-level ANDs.
func Conjuncts(e expr.Expr) []expr.Expr {
	if c, ok := e.(*expr.Call); ok && c.Fn == "and" {
		var out []expr.Expr
		for _, a := range c.Args {
			out = append(out, Conjuncts(a)...)
		}
		return out
	}
	if e == nil {
		return nil
	}
	return []expr.Expr{e}
}

// AndOf joins predicates with AND (nil for none).
func AndOf(es []expr.Expr) expr.Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return &expr.Call{Fn: "and", Args: es, T: expr.Bool}
}

// SortKey is one ORDER BY key with PostgreSQL's NULL placement resolved.
type SortKey struct {
	E          expr.Expr
	Desc       bool
	NullsFirst bool
}

// GroupingCall is one GROUPING(a, b, ...) of a query.
type GroupingCall struct {
	Args []int
	ID   ColID
}

// AggCall is one aggregate of the aggregation.
type AggCall struct {
	Fn       string
	Arg      expr.Expr // nil for count(*)
	Args     []expr.Expr
	Distinct bool
	Filter   expr.Expr // nil when none
	OrderBy  []SortKey
	Name     string
	T        arrow.DataType
	PGType   Type
}

// WindowCall is one window function call; its expressions are bound over
// column ids (lower remaps them).
type WindowCall struct {
	Fn     string
	Args   []expr.Expr
	Filter expr.Expr
	Frame  exec.WindowFrame
	T      arrow.DataType
}

func (s ColSet) Intersects(t ColSet) bool {
	for id := range s {
		if t.Has(id) {
			return true
		}
	}
	return false
}
