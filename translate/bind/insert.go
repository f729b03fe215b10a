package bind

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// InsertPlan is a bound INSERT: the rows to write, as expressions of the
// table's columns (every column, in schema order, typed as the writer
// wants them).
type InsertPlan struct {
	Table  *catalog.Table
	Schema *catalog.Schema
	Cols   []Column
	// Values are the rows of INSERT ... VALUES; otherwise Sel is the query
	// and Project computes the table's columns from its output.
	Values  [][]expr.Expr
	Sel     *plan.Select
	Project []expr.Expr
	// Branch is the branch written (Spark's t.branch_<name>; "": main).
	Branch string
}

// BindInsert binds [WITH ...] INSERT INTO t [(cols)] VALUES ... | SELECT ....
func (b *Binder) BindInsert(ins *pg.InsertStmt) (*InsertPlan, error) {
	switch {
	case ins.OnConflictClause != nil:
		return nil, pgerr.NotYet("INSERT ... ON CONFLICT")
	case len(ins.ReturningList) > 0:
		return nil, pgerr.NotYet("INSERT ... RETURNING")
	}
	if ins.WithClause != nil {
		pop, err := b.pushWith(ins.WithClause)
		if err != nil {
			return nil, err
		}
		defer pop()
	}
	p, err := b.bindInsertRows(ins)
	if err != nil {
		return nil, err
	}
	if err := b.applyStatic(p); err != nil { // insert_spark.go
		return nil, err
	}
	return p, nil
}

// bindInsertRows binds the table and the rows INSERT proposes (VALUES,
// SELECT or DEFAULT VALUES into the named columns, defaults elsewhere),
// which plain INSERT writes and an upsert joins with the table.
func (b *Binder) bindInsertRows(ins *pg.InsertStmt) (*InsertPlan, error) {
	tn := parse.TableNameOf(ins.Relation)
	t, err := b.env.ResolveTable(b.ctx, tn)
	branch := ""
	if err != nil {
		var ok bool
		if t, branch, ok, err = b.branchTarget(tn, err); !ok {
			return nil, b.ErrAt(err, ins.Relation.Location)
		}
	}
	if err := b.checkTableColumns(t, 'a'); err != nil { // privilege_column.go
		return nil, err
	}
	if len(ins.ReturningList) > 0 {
		if err := b.CheckTablePrivilege(t, 'r'); err != nil {
			return nil, err
		}
	}
	p := &InsertPlan{Table: t, Schema: t.Metadata.CurrentSchema(), Branch: branch}
	p.Cols = ColumnsOfTable(t, p.Schema)
	targets, err := b.insertTargets(ins, p.Cols, tn)
	if err == nil {
		targets, err = b.withoutStatic(ins, targets, p.Cols) // insert_spark.go
	}
	if err != nil {
		return nil, err
	}
	if err := b.insertColumnChecks(ins, t, p.Cols, targets); err != nil { // privilege_column.go
		return nil, err
	}
	defs, err := b.tableDefaults(t, p.Schema, p.Cols) // defaults.go
	if err != nil {
		return nil, err
	}
	ignore, err := b.identityCheck(t, p.Schema, ins, b.givenTargets(ins, targets))
	if err != nil {
		return nil, err
	}
	sel := ins.SelectStmt.GetSelectStmt()
	if sel == nil { // DEFAULT VALUES
		p.Values = [][]expr.Expr{defs}
		return p, nil
	}
	if len(sel.ValuesLists) > 0 && len(sel.SortClause) == 0 && sel.LimitCount == nil && sel.LimitOffset == nil {
		for _, n := range sel.ValuesLists {
			items := n.GetList().GetItems()
			if err := b.checkInsertArity(len(items), len(targets), len(ins.Cols) > 0, NodeLocation(n)); err != nil {
				return nil, err
			}
			row := cloneRow(defs)
			for i, it := range items {
				if it.GetSetToDefault() != nil || ignore[targets[i]] {
					continue
				}
				if containsAggregate(it) {
					return nil, b.ErrAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in VALUES"), NodeLocation(it))
				}
				c := targets[i]
				x, err := b.exprAssigned(it, p.Cols[c].Type)
				if err != nil {
					return nil, err
				}
				if row[c], err = b.Assign(x, p.Cols[c], NodeLocation(it)); err != nil {
					return nil, err
				}
			}
			p.Values = append(p.Values, row)
		}
		if b.LitErr != nil {
			return nil, b.LitErr
		}
		return p, nil
	}
	// INSERT ... SELECT: string constants in the query's target list stay
	// untyped until assigned, as in PostgreSQL.
	qp, err := b.BindSelect(sel)
	if err != nil {
		return nil, err
	}
	if err := b.checkInsertArity(len(qp.Cols), len(targets), len(ins.Cols) > 0, NodeLocation(ins.SelectStmt)); err != nil {
		return nil, err
	}
	p.Sel = qp
	p.Project = defs
	for i, c := range qp.Cols {
		if ignore[targets[i]] {
			continue
		}
		x := Bound{E: &expr.Col{Idx: i, Name: c.Name, T: qp.Output[i].Type()}, T: plan.Type{OID: c.TypeOID, Typmod: c.Typmod}}
		loc := NodeLocation(ins.SelectStmt)
		if len(sel.TargetList) == len(qp.Cols) {
			rt := sel.TargetList[i].GetResTarget()
			loc = NodeLocation(rt.GetVal())
			if ac := rt.GetVal().GetAConst(); ac != nil && ac.Isnull {
				p.Project[targets[i]] = &expr.Lit{V: nil, T: p.Cols[targets[i]].Arrow}
				continue
			} else if ac != nil && ac.GetSval() != nil {
				x.T = plan.TUnknown
			}
		}
		tc := targets[i]
		if x.T == plan.TUnknown {
			if !expr.CanCast(x.E.Type(), p.Cols[tc].Arrow) {
				return nil, b.ErrAt(assignError(p.Cols[tc], plan.TText), loc)
			}
			p.Project[tc] = CastIfNeeded(x.E, p.Cols[tc].Arrow)
			if p.Cols[tc].Enum != "" {
				if p.Project[tc], err = b.assignEnum(p.Cols[tc], p.Project[tc]); err != nil {
					return nil, err
				}
			}
			continue
		}
		if p.Project[tc], err = b.Assign(x, p.Cols[tc], loc); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// insertTargets returns the column index each inserted expression goes to.
func (b *Binder) insertTargets(ins *pg.InsertStmt, cols []Column, tn parse.TableName) ([]int, error) {
	if len(ins.Cols) == 0 {
		out := make([]int, len(cols))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	seen := map[int]bool{}
	var out []int
	for _, n := range ins.Cols {
		rt := n.GetResTarget()
		if len(rt.Indirection) > 0 {
			return nil, b.ErrAt(pgerr.NotYet("INSERT into fields of a column"), rt.Location)
		}
		i := FindColumn(cols, rt.Name, b.identQuoted(rt.Location, 0))
		if i < 0 {
			return nil, b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, tn.Name), rt.Location)
		}
		if seen[i] {
			return nil, b.ErrAt(pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", rt.Name), rt.Location)
		}
		seen[i] = true
		out = append(out, i)
	}
	return out, nil
}

func (b *Binder) checkInsertArity(exprs, targets int, explicit bool, loc int32) error {
	if exprs > targets {
		return b.ErrAt(pgerr.New(pgerr.SyntaxError, "INSERT has more expressions than target columns"), loc)
	}
	if exprs < targets && explicit {
		return b.ErrAt(pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions"), loc)
	}
	return nil
}

// givenTargets are the target columns an INSERT gives a value other than
// DEFAULT in some row (all of them for INSERT ... SELECT).
func (b *Binder) givenTargets(ins *pg.InsertStmt, targets []int) []int {
	sel := ins.SelectStmt.GetSelectStmt()
	if sel == nil {
		return nil
	}
	if len(sel.ValuesLists) == 0 {
		return targets
	}
	given := map[int]bool{}
	for _, n := range sel.ValuesLists {
		for i, it := range n.GetList().GetItems() {
			if i < len(targets) && it.GetSetToDefault() == nil {
				given[targets[i]] = true
			}
		}
	}
	var out []int
	for _, c := range targets {
		if given[c] {
			out = append(out, c)
		}
	}
	return out
}

// WriteDefault is the value a write gives a column it does not name: the
// field's write default (primitive types), else NULL.
func WriteDefault(f catalog.NestedField, t arrow.DataType) expr.Expr {
	if f.WriteDefault == nil || catalog.Primitive(f.Type) == nil {
		return &expr.Lit{V: nil, T: t}
	}
	return &expr.Lit{V: f.WriteDefault, T: t}
}

// Assign converts x to column c's type with PostgreSQL's assignment cast
// rules (INSERT, COPY): numbers into any number type (numeric rounds to
// the column's scale), anything into text, dates and timestamps among
// themselves, untyped literals into anything they parse as.
func (b *Binder) Assign(x Bound, c Column, loc int32) (expr.Expr, error) {
	e, err := b.assign(x, c, loc)
	if err == nil && c.Enum != "" && !x.null {
		return b.assignEnum(c, e) // assign_recorded.go
	}
	if err != nil || !recordedColumn(c) {
		return e, err
	}
	e = assignRecorded(x, c, e) // assign_recorded.go
	if x.lit != nil && (x.param == 0 || b.params.Bound) && b.LitErr == nil {
		if err := b.checkConst(e); err != nil {
			b.LitErr = b.ErrAt(err, x.loc)
		}
	}
	return e, nil
}

func (b *Binder) assign(x Bound, c Column, loc int32) (expr.Expr, error) {
	x = sparkStructAssign(x, c.Arrow) // insert_spark.go
	if x.param > 0 && x.Unknown() && recordedColumn(c) {
		b.params.setType(x.param, c.Type.OID)
	}
	if x.Unknown() {
		if !expr.CanCast(expr.Text, c.Arrow) && !x.null {
			return nil, b.ErrAt(pgerr.NotYet(fmt.Sprintf("writing a literal into column \"%s\" of type %s", c.Name, c.Type)), loc)
		}
		return b.Coerce(x, c.Arrow), nil
	}
	if !assignable(x.T, c.Type) && !recordedAssignable(x.T, c.Type) && !arrayAssignable(x.T, c.Type) {
		return nil, b.ErrAt(assignError(c, x.T), loc)
	}
	from := x.E.Type()
	if arrow.TypeEqual(from, c.Arrow) {
		return x.E, nil
	}
	if !expr.CanCast(from, c.Arrow) {
		if sameArrowShape(from, c.Arrow) {
			return x.E, nil
		}
		return nil, b.ErrAt(pgerr.NotYet(fmt.Sprintf("writing %s into column \"%s\" of type %s", x.T, c.Name, c.Type)), loc)
	}
	return &expr.Cast{Arg: x.E, T: c.Arrow}, nil
}

func CastIfNeeded(e expr.Expr, t arrow.DataType) expr.Expr {
	if arrow.TypeEqual(e.Type(), t) {
		return e
	}
	return &expr.Cast{Arg: e, T: t}
}

// sameArrowShape reports types that differ only in names and metadata
// (nested columns copied from another table).
func sameArrowShape(a, b arrow.DataType) bool {
	switch a.ID() {
	case arrow.LIST, arrow.STRUCT, arrow.MAP:
		return a.ID() == b.ID()
	}
	return false
}

func assignError(c Column, from plan.Type) *pgerr.Error {
	return pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" is of type %s but expression is of type %s", c.Name, c.Type, from).
		WithHint("You will need to rewrite or cast the expression.")
}

// assignable reports whether PostgreSQL converts from into to on
// assignment.
func assignable(from, to plan.Type) bool {
	if from.OID == to.OID {
		return true
	}
	switch to.OID {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar:
		return true
	}
	num := func(o uint32) bool {
		switch o {
		case pgtypes.Int2, pgtypes.Int4, pgtypes.Int8, pgtypes.Float4, pgtypes.Float8, pgtypes.Numeric:
			return true
		}
		return false
	}
	if num(from.OID) && num(to.OID) {
		return true
	}
	dt := func(o uint32) bool { return o == pgtypes.Date || o == pgtypes.Timestamp || o == pgtypes.Timestamptz }
	if dt(from.OID) && (dt(to.OID) || (to.OID == pgtypes.Time && from.OID != pgtypes.Date)) {
		return true
	}
	return false
}
