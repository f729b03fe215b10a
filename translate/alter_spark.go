package translate

import (
	"context"
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// prepareSparkAlter prepares an ALTER TABLE whose clause is one of Spark's
// (dialect_alter.go): it runs from the clause's tokens.
func (s *session) prepareSparkAlter(ps parse.Stmt, as *pg.AlterTableStmt, a *parse.SparkAlter) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("ALTER TABLE")
		if err != nil {
			return nil, err
		}
		t, notices, err := s.alterTarget(ctx, as.Relation, as.MissingOk)
		if t == nil || err != nil {
			return notices, err
		}
		c := &tokCursor{toks: a.Toks, sql: ps.SQL, end: a.Loc}
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
func (s *session) sparkAlterUpdates(ctx context.Context, ps parse.Stmt, t *catalog.Table, kind string, c *tokCursor) ([]catalog.Requirement, []catalog.Update, error) {
	m := t.Metadata
	switch kind {
	case "add-columns", "alter-column", "drop-columns", "rename-column", "set-ident", "drop-ident":
		e := newSchemaEdit(t)
		var err error
		switch kind {
		case "add-columns":
			err = sparkAddColumns(e, c, func(f catalog.NestedField, expr []parse.DialectTok) (any, error) {
				return s.sparkColumnDefault(ctx, ps, m, f, expr)
			})
		case "alter-column":
			err = sparkAlterColumn(e, c)
		case "drop-columns":
			err = sparkDropColumns(e, c)
		case "rename-column":
			err = sparkRenameColumn(e, c)
		case "set-ident":
			err = sparkSetIdentifiers(e, c)
		case "drop-ident":
			err = sparkDropIdentifiers(e, c)
		}
		if err != nil || !e.changed {
			return nil, nil, err
		}
		return e.requirements(), e.updates(), nil
	case "set-props", "unset-props":
		return sparkProperties(m, kind, c)
	case "add-part", "drop-part", "replace-part":
		p := newSpecEdit(m)
		if err := p.apply(kind, c); err != nil {
			return nil, nil, err
		}
		return p.requirements(), p.updates(), nil
	case "write-order":
		return sparkWriteOrder(m, c)
	}
	return nil, nil, pgerr.NotYet("this ALTER TABLE clause")
}

// tokCursor reads the tokens of a Spark clause.
type tokCursor struct {
	toks []parse.DialectTok
	i    int
	sql  string
	end  int // byte offset for errors at the end
}

func (c *tokCursor) done() bool { return c.i >= len(c.toks) }

func (c *tokCursor) peek() string {
	if c.i < len(c.toks) {
		return c.toks[c.i].Low
	}
	return ""
}

func (c *tokCursor) accept(words ...string) bool {
	for k, w := range words {
		if c.i+k >= len(c.toks) || c.toks[c.i+k].Low != w {
			return false
		}
	}
	c.i += len(words)
	return true
}

// syntax is a 42601 error at the current token.
func (c *tokCursor) syntax(what string) error {
	off := c.end
	if c.i < len(c.toks) {
		off = c.toks[c.i].Start
	} else if len(c.toks) > 0 {
		off = c.toks[len(c.toks)-1].End
	}
	return pgerr.New(pgerr.SyntaxError, "syntax error in ALTER TABLE: expected %s", what).WithPosition(parse.CharPos(c.sql, int32(off)))
}

// name reads a column name: ident (. ident)*.
func (c *tokCursor) name() (string, error) {
	if c.done() || !parse.IsWordTok(c.toks[c.i]) {
		return "", c.syntax("a column name")
	}
	parts := []string{parse.IdentText(c.toks[c.i].Text)}
	c.i++
	for c.i+1 < len(c.toks) && c.toks[c.i].Tok == pg.Token_ASCII_46 && parse.IsWordTok(c.toks[c.i+1]) {
		parts = append(parts, parse.IdentText(c.toks[c.i+1].Text))
		c.i += 2
	}
	return strings.Join(parts, "."), nil
}

// sconst reads a string constant.
func (c *tokCursor) sconst() (string, error) {
	if c.done() || c.toks[c.i].Tok != pg.Token_SCONST {
		return "", c.syntax("a string constant")
	}
	c.i++
	return parse.SConst(c.toks[c.i-1].Text), nil
}

// until returns the tokens up to (not including) the first of words at
// depth 0, or to the end; the cursor moves past them.
func (c *tokCursor) until(words ...string) []parse.DialectTok {
	depth := 0
	from := c.i
	for ; c.i < len(c.toks); c.i++ {
		tk := c.toks[c.i]
		switch tk.Tok {
		case pg.Token_ASCII_40, pg.Token_ASCII_60:
			depth++
		case pg.Token_ASCII_41, pg.Token_ASCII_62:
			depth--
		case pg.Token_Op:
			depth += strings.Count(tk.Text, "<") - strings.Count(tk.Text, ">")
		}
		if depth == 0 && slices.Contains(words, tk.Low) {
			break
		}
	}
	return c.toks[from:c.i]
}

// parenList returns the tokens inside "(" ... ")" when the cursor is at
// "(" (moving past them), else the rest of the clause.
func (c *tokCursor) parenList() ([]parse.DialectTok, error) {
	if c.peek() != "(" {
		rest := c.toks[c.i:]
		c.i = len(c.toks)
		return rest, nil
	}
	close := parse.MatchParen(c.toks, c.i)
	if close < 0 {
		return nil, c.syntax("\")\"")
	}
	in := c.toks[c.i+1 : close]
	c.i = close + 1
	if !c.done() {
		return nil, c.syntax("the end of the statement")
	}
	return in, nil
}

// splitTop splits tokens at the commas at depth 0.
func splitTop(t []parse.DialectTok) [][]parse.DialectTok {
	var out [][]parse.DialectTok
	depth, from := 0, 0
	for k, tk := range t {
		switch tk.Tok {
		case pg.Token_ASCII_40, pg.Token_ASCII_60:
			depth++
		case pg.Token_ASCII_41, pg.Token_ASCII_62:
			depth--
		case pg.Token_Op:
			depth += strings.Count(tk.Text, "<") - strings.Count(tk.Text, ">")
		case pg.Token_ASCII_44:
			if depth == 0 {
				out = append(out, t[from:k])
				from = k + 1
			}
		}
	}
	if from < len(t) {
		out = append(out, t[from:])
	}
	return out
}

func (c *tokCursor) sub(t []parse.DialectTok) *tokCursor {
	return &tokCursor{toks: t, sql: c.sql, end: c.end}
}

// sparkTypeOf parses a Spark type from tokens.
func (c *tokCursor) sparkTypeOf(t []parse.DialectTok, ids *idCounter) (catalog.Type, error) {
	p := &parse.SparkTypeParser{Toks: t}
	st, err := p.Parse()
	if err != nil || p.I != len(t) {
		return nil, c.syntax("a type")
	}
	return sparkIceberg(st, true, ids)
}

// sparkColumnDefault evaluates the DEFAULT expression of a Spark ADD
// COLUMN with the same rules as the PostgreSQL form (addColumn): a
// constant of the column's type, kept as initial and write default, which
// needs format version 3. The expression is parsed in place: a blank
// query with the expression's tokens where they were written, so that
// error positions stay the user's.
func (s *session) sparkColumnDefault(ctx context.Context, ps parse.Stmt, m *catalog.TableMetadata, f catalog.NestedField, expr []parse.DialectTok) (any, error) {
	if m.FormatVersion < 3 {
		return nil, pgerr.Unsupported("ADD COLUMN ... DEFAULT on a format-version %d table", m.FormatVersion).
			WithHint("Defaults for existing rows need format-version 3: ALTER TABLE ... SET TBLPROPERTIES ('format-version' = '3') first.")
	}
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
