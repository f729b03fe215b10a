package translate

import (
	"context"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/parse"
)

// prepareSparkAlter prepares an ALTER TABLE whose clause is one of Spark's
// (dialect_alter.go): it runs from the clause's tokens.
func (s *session) prepareSparkAlter(ps parse.Stmt, as *pg.AlterTableStmt, a *parse.SparkAlter) (Statement, error) {
	if a.Kind == "ref" {
		return s.prepareRefDDL(as, a.Ref), nil // refs_exec.go
	}
	return &ddlStatement{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("ALTER TABLE")
		if err != nil {
			return nil, err
		}
		t, notices, err := s.alterTarget(ctx, as.Relation, as.MissingOk)
		if t == nil || err != nil {
			return notices, err
		}
		c := &ddl.TokCursor{Toks: a.Toks, SQL: ps.SQL, End: a.Loc}
		reqs, updates, err := s.sparkAlterUpdates(ctx, ps, t, a.Kind, c)
		if err != nil {
			return nil, err
		}
		if len(updates) == 0 {
			return nil, nil
		}
		if _, err := mc.CommitTable(ctx, t.Ident, reqs, updates); err != nil {
			return nil, catalogError(err, kindTable, t.Ident.Name)
		}
		return nil, nil
	}}, nil
}

// sparkAlterUpdates binds a Spark clause to the commit that makes it.
func (s *session) sparkAlterUpdates(ctx context.Context, ps parse.Stmt, t *catalog.Table, kind string, c *ddl.TokCursor) ([]catalog.Requirement, []catalog.Update, error) {
	m := t.Metadata
	switch kind {
	case "add-columns", "alter-column", "drop-columns", "rename-column", "set-ident", "drop-ident":
		e := ddl.NewSchemaEdit(t)
		var err error
		switch kind {
		case "add-columns":
			err = ddl.SparkAddColumns(e, c, func(f catalog.NestedField, expr []parse.DialectTok) (any, error) {
				return s.sparkColumnDefault(ctx, ps, m, f, expr)
			})
		case "alter-column":
			err = ddl.SparkAlterColumn(e, c)
		case "drop-columns":
			err = ddl.SparkDropColumns(e, c)
		case "rename-column":
			err = ddl.SparkRenameColumn(e, c)
		case "set-ident":
			err = ddl.SparkSetIdentifiers(e, c)
		case "drop-ident":
			err = ddl.SparkDropIdentifiers(e, c)
		}
		if err != nil || !e.Changed {
			return nil, nil, err
		}
		return e.Requirements(), e.Updates(), nil
	case "set-props", "unset-props":
		return ddl.SparkProperties(m, kind, c)
	case "add-part", "drop-part", "replace-part":
		p := ddl.NewSpecEdit(m)
		if err := p.Apply(kind, c); err != nil {
			return nil, nil, err
		}
		return p.Requirements(), p.Updates(), nil
	case "write-order":
		return ddl.SparkWriteOrder(m, c)
	}
	return nil, nil, pgerr.NotYet("this ALTER TABLE clause")
}

// sparkColumnDefault evaluates the DEFAULT expression of a Spark ADD
// COLUMN with the same rules as the PostgreSQL form (addColumn): a
// constant of the column's type, the column's write default and, from
// format version 3, its initial default. The expression is parsed in
// place: a blank query with the expression's tokens where they were
// written, so that error positions stay the user's.
func (s *session) sparkColumnDefault(ctx context.Context, ps parse.Stmt, m *catalog.TableMetadata, f catalog.NestedField, expr []parse.DialectTok) (any, error) {
	// ps.sql has the clause blanked by the dialect pass; the tokens keep
	// the text as written, at their offsets.
	from := expr[0].Start
	buf := []byte(strings.Repeat(" ", max(len(ps.SQL), expr[len(expr)-1].End)))
	copy(buf, "SELECT")
	for _, tk := range expr {
		copy(buf[tk.Start:tk.End], tk.Text)
	}
	tree, err := pg.Parse(string(buf))
	if err != nil || len(tree.Stmts) != 1 {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in the DEFAULT of column \"%s\"", f.Name).
			WithPosition(parse.CharPos(ps.SQL, int32(from)))
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 || sel.FromClause != nil || sel.WhereClause != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in the DEFAULT of column \"%s\"", f.Name).
			WithPosition(parse.CharPos(ps.SQL, int32(from)))
	}
	return s.columnDefault(ctx, ps, f, sel.TargetList[0].GetResTarget().GetVal())
}
