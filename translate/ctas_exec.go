package translate

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// prepareCreateTableAs prepares CREATE TABLE t [WITH (...)] AS SELECT ...
// (and the Spark form with its clauses before AS): it creates the table
// with the query's columns, then writes the query's rows in one snapshot.
// If writing fails the new table is dropped again. The tag is PostgreSQL's
// "SELECT n".
func (s *session) prepareCreateTableAs(ps parse.Stmt, cs *pg.CreateTableAsStmt, x *parse.DDLExtras) (Statement, error) {
	if cs.Objtype != pg.ObjectType_OBJECT_TABLE {
		return nil, pgerr.NotYet("CREATE MATERIALIZED VIEW")
	}
	sel := cs.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerr.NotYet("CREATE TABLE AS of this statement")
	}
	st := &ctasStatement{sess: s, ps: ps, cs: cs, sel: sel, x: x}
	return st, nil
}

type ctasStatement struct {
	sess *session
	ps   parse.Stmt
	cs   *pg.CreateTableAsStmt
	sel  *pg.SelectStmt
	x    *parse.DDLExtras
}

func (st *ctasStatement) ParamTypes() []uint32      { return nil }
func (st *ctasStatement) Columns() []pgtypes.Column { return nil }

func (st *ctasStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := st.sess
	if st.x == nil || st.x.Replace == "" {
		// Staged in a block (tx_ddl.go): a query string's later error
		// undoes it too.
		s.openImplicitBlock()
	}
	mc, err := s.mutableCatalog("CREATE TABLE AS")
	if err != nil {
		return nil, err
	}
	inner := st.ps
	inner.Node = st.cs.Query
	b := bind.New(ctx, s, inner, &bind.ParamSet{}, time.Now())
	qp, err := b.BindSelect(st.sel)
	if err != nil {
		return nil, err
	}
	into := st.cs.Into
	ct, err := s.newCreateTable(ctx, into.Rel, st.cs.IfNotExists, into.Options, st.x)
	if err != nil {
		return nil, err
	}
	if len(into.ColNames) > len(qp.Cols) {
		return nil, pgerr.New(pgerr.SyntaxError, "too many column names were specified")
	}
	schema := &catalog.Schema{}
	seen := map[string]bool{}
	rec := map[int]plan.Type{}                // PostgreSQL types Iceberg lacks, by field id
	nested := &ddl.IDCounter{N: len(qp.Cols)} // ids of an interval's parts
	for i, c := range qp.Cols {
		name := c.Name
		if i < len(into.ColNames) {
			name = into.ColNames[i].GetString_().GetSval()
		}
		if seen[name] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", name)
		}
		seen[name] = true
		pt := plan.Type{OID: c.TypeOID, Typmod: c.Typmod}
		var t catalog.Type
		if d, _ := expr.ArrayLeaf(outputType(qp, i)); d > 0 && pgtypes.ElemOf(pt.OID) != 0 {
			// An array: a list, or one list per dimension (recorded,
			// plan.ArrayDims).
			t, err = ddl.NestedArrayType(pt, outputType(qp, i), nested.Next)
		} else {
			t, err = ddl.IcebergTypeOfPG(pt, name, nested.Next)
		}
		if err != nil {
			return nil, err
		}
		if plan.Recordable(pt, t) {
			rec[i+1] = pt
		}
		schema.Fields = append(schema.Fields, catalog.NestedField{ID: i + 1, Name: name, Type: t})
	}
	ct.setSchema(schema, rec)
	if ct.spec.Spec, err = ddl.PartitionSpecOf(ct.items, ct.spec.Schema); err != nil {
		return nil, err
	}
	if st.x != nil && st.x.Replace != "" { // replace_exec.go
		var rows func(t *catalog.Table) (engine.Operator, error)
		if !into.SkipData {
			rows = func(t *catalog.Table) (engine.Operator, error) { return st.operator(ctx, t, qp) }
		}
		done, n, err := s.replaceOrCreate(ctx, mc, ct, st.x.Replace, rows)
		if err != nil {
			return nil, err
		}
		if done {
			return &emptyRows{tag: fmt.Sprintf("SELECT %d", n), notices: s.committedWrite()}, nil
		}
	}
	t, notices, err := s.createTable(ctx, mc, ct)
	if err != nil {
		return nil, err
	}
	if t == nil { // IF NOT EXISTS and it exists
		return &emptyRows{tag: "CREATE TABLE AS", notices: notices}, nil
	}
	if into.SkipData {
		return &emptyRows{tag: "CREATE TABLE AS", notices: s.committedWrite()}, nil
	}
	n, err := st.fill(ctx, mc, t, qp)
	if err != nil {
		if derr := mc.DropTable(context.WithoutCancel(ctx), t.Ident, true); derr != nil {
			s.backend.log.Warn("drop the table of a failed CREATE TABLE AS", "table", t.Ident.Name, "error", derr)
		}
		return nil, err
	}
	return &emptyRows{tag: fmt.Sprintf("SELECT %d", n), notices: s.committedWrite()}, nil
}

// fill writes the query's rows into the new table.
func (st *ctasStatement) fill(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, qp *plan.Select) (int64, error) {
	op, err := st.operator(ctx, t, qp)
	if err != nil {
		return 0, err
	}
	return st.sess.writeRows(ctx, mc, t, t.Metadata.CurrentSchema(), op, true)
}

// operator is the query's rows as t's columns.
func (st *ctasStatement) operator(ctx context.Context, t *catalog.Table, qp *plan.Select) (engine.Operator, error) {
	s := st.sess
	schema := t.Metadata.CurrentSchema()
	cols := bind.ColumnsOfTable(t, schema) // an interval stays one: the writer stores its parts
	in, err := lowerQuery(ctx, s, qp)
	if err != nil {
		return nil, err
	}
	exprs := make([]expr.Expr, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = bind.CastIfNeeded(&expr.Col{Idx: i, Name: c.Name, T: qp.Output[i].Type()}, c.Arrow)
		names[i] = c.Name
	}
	op, err := exec.NewProject(in, exprs, names, s.CompileOptions())
	if err != nil {
		in.Close()
		return nil, err
	}
	return op, nil
}

// outputType is the Arrow type of result column i of qp (nil when unknown).
func outputType(qp *plan.Select, i int) arrow.DataType {
	if i < len(qp.Output) && qp.Output[i] != nil {
		return qp.Output[i].Type()
	}
	return nil
}
