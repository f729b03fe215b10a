package ddl

import (
	"slices"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// Spark's column clauses of ALTER TABLE, applied to a schema edit.

// SparkAddColumns reads ADD COLUMN(S) [(] c type [NOT NULL] [DEFAULT expr]
// [COMMENT 'x'] [FIRST | AFTER d], ... [)]. defaultOf evaluates a DEFAULT
// expression for the new field.
func SparkAddColumns(e *SchemaEdit, c *TokCursor, defaultOf func(f catalog.NestedField, expr []parse.DialectTok) (any, error)) error {
	list, err := c.parenList()
	if err != nil {
		return err
	}
	for _, def := range splitTop(list) {
		d := c.sub(def)
		name, err := d.name()
		if err != nil {
			return err
		}
		f := catalog.NestedField{ID: e.IDs.Next(), Name: name}
		if f.Type, err = d.sparkTypeOf(d.until("not", "default", "comment", "first", "after"), e.IDs); err != nil {
			return err
		}
		if d.accept("not", "null") {
			return pgerr.Unsupported("ADD COLUMN ... NOT NULL").
				WithHint("Existing rows have no value for a new column: add it without NOT NULL.")
		}
		if d.accept("default") {
			expr := d.until("comment", "first", "after")
			if len(expr) == 0 {
				return d.syntax("an expression after DEFAULT")
			}
			v, err := defaultOf(f, expr)
			if err != nil {
				return err
			}
			f.WriteDefault = v
			if e.meta.FormatVersion >= 3 {
				f.InitialDefault = v // v2 has no initial default: rows there read NULL
			}
		}
		if d.accept("comment") {
			if f.Doc, err = d.sconst(); err != nil {
				return err
			}
		}
		if _, err := e.Add(name, f, false); err != nil {
			return err
		}
		if err := position(e, d, name); err != nil {
			return err
		}
		if !d.done() {
			return d.syntax("the end of the column definition")
		}
	}
	return nil
}

// position reads [FIRST | AFTER d] and moves column name there.
func position(e *SchemaEdit, d *TokCursor, name string) error {
	switch {
	case d.accept("first"):
		return e.move(name, "")
	case d.accept("after"):
		after, err := d.name()
		if err != nil {
			return err
		}
		return e.move(name, after)
	}
	return nil
}

// SparkAlterColumn reads ALTER COLUMN c [TYPE t] [COMMENT 'x'] [FIRST |
// AFTER d] [DROP NOT NULL].
func SparkAlterColumn(e *SchemaEdit, c *TokCursor) error {
	name, err := c.name()
	if err != nil {
		return err
	}
	if c.done() {
		return c.syntax("TYPE, COMMENT, FIRST, AFTER or DROP NOT NULL")
	}
	for !c.done() {
		switch {
		case c.accept("type"):
			to, err := c.sparkTypeOf(c.until("comment", "first", "after", "drop", "set"), &IDCounter{N: e.IDs.N})
			if err != nil {
				return err
			}
			if err := e.Retype(name, to); err != nil {
				return err
			}
		case c.accept("comment"):
			doc, err := c.sconst()
			if err != nil {
				return err
			}
			if err := e.SetDoc(name, doc); err != nil {
				return err
			}
		case c.peek() == "first" || c.peek() == "after":
			if err := position(e, c, name); err != nil {
				return err
			}
		case c.accept("drop", "not", "null"):
			if err := e.DropNotNull(name); err != nil {
				return err
			}
		case c.accept("set", "not", "null"):
			if err := e.SetNotNull(name); err != nil {
				return err
			}
		default:
			return c.syntax("TYPE, COMMENT, FIRST, AFTER or DROP NOT NULL")
		}
	}
	return nil
}

// SparkDropColumns reads DROP COLUMNS [(] c, d [)].
func SparkDropColumns(e *SchemaEdit, c *TokCursor) error {
	list, err := c.parenList()
	if err != nil {
		return err
	}
	for _, n := range splitTop(list) {
		d := c.sub(n)
		name, err := d.name()
		if err != nil {
			return err
		}
		if !d.done() {
			return d.syntax("\",\"")
		}
		if _, err := e.Drop(name, false); err != nil {
			return err
		}
	}
	return nil
}

// identifierNames reads a, b, ... and returns their field ids.
func identifierNames(e *SchemaEdit, c *TokCursor) ([]int, []string, error) {
	var ids []int
	var names []string
	for _, n := range splitTop(c.Toks[c.I:]) {
		d := c.sub(n)
		name, err := d.name()
		if err != nil {
			return nil, nil, err
		}
		if !d.done() {
			return nil, nil, d.syntax("\",\"")
		}
		fs, i := e.lookup(name)
		if fs == nil {
			return nil, nil, UndefinedColumn(name)
		}
		ids = append(ids, (*fs)[i].ID)
		names = append(names, name)
	}
	c.I = len(c.Toks)
	return ids, names, nil
}

// SparkSetIdentifiers reads SET IDENTIFIER FIELDS a, b.
func SparkSetIdentifiers(e *SchemaEdit, c *TokCursor) error {
	ids, names, err := identifierNames(e, c)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return c.syntax("a column name")
	}
	for k, id := range ids {
		f := e.schema.FindField(id)
		p := catalog.Primitive(f.Type)
		switch {
		case !f.Required:
			return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" cannot be an identifier field: it is nullable", names[k])
		case p == nil || p.ID == catalog.TFloat || p.ID == catalog.TDouble:
			return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" cannot be an identifier field: its type is %s", names[k], f.Type)
		}
	}
	if !slices.Equal(e.schema.IdentifierFieldIDs, ids) {
		e.schema.IdentifierFieldIDs = ids
		e.Changed = true
	}
	return nil
}

// SparkDropIdentifiers reads DROP IDENTIFIER FIELDS [a, b] (no names: all).
func SparkDropIdentifiers(e *SchemaEdit, c *TokCursor) error {
	ids, names, err := identifierNames(e, c)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		e.Changed = len(e.schema.IdentifierFieldIDs) > 0
		e.schema.IdentifierFieldIDs = nil
		return nil
	}
	for k, id := range ids {
		i := slices.Index(e.schema.IdentifierFieldIDs, id)
		if i < 0 {
			return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" is not an identifier field", names[k])
		}
		e.schema.IdentifierFieldIDs = slices.Delete(e.schema.IdentifierFieldIDs, i, i+1)
		e.Changed = true
	}
	return nil
}

// SparkProperties reads SET TBLPROPERTIES ('k' = 'v', ...) and UNSET
// TBLPROPERTIES [IF EXISTS] ('k', ...).
func SparkProperties(m *catalog.TableMetadata, kind string, c *TokCursor) ([]catalog.Requirement, []catalog.Update, error) {
	reqs := []catalog.Requirement{catalog.AssertTableUUID{UUID: m.TableUUID}}
	if kind == "unset-props" {
		ifExists := c.accept("if", "exists")
		list, err := c.parenList()
		if err != nil {
			return nil, nil, err
		}
		var keys []string
		for _, k := range splitTop(list) {
			if len(k) != 1 {
				return nil, nil, c.sub(k).syntax("a property key")
			}
			key := parse.PropText(k[0])
			if err := CheckReservedProperty(key, true); err != nil {
				return nil, nil, err
			}
			if _, ok := m.Properties[key]; !ok && !ifExists {
				return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "table property \"%s\" is not set", key).
					WithHint("Use UNSET TBLPROPERTIES IF EXISTS to ignore missing properties.")
			}
			keys = append(keys, key)
		}
		return reqs, []catalog.Update{catalog.RemoveProperties{Removals: keys}}, nil
	}
	list, err := c.parenList()
	if err != nil {
		return nil, nil, err
	}
	r := &parse.DialectRewriter{SQL: c.SQL, X: &parse.DDLExtras{}}
	if err := r.Properties(list); err != nil {
		return nil, nil, err
	}
	var updates []catalog.Update
	props := map[string]string{}
	for _, k := range r.X.PropOrder {
		v := r.X.Props[k]
		if err := CheckReservedProperty(k, false); err != nil {
			return nil, nil, err
		}
		if k != "format-version" {
			props[k] = v
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 3 {
			return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "invalid format-version \"%s\": 1, 2 or 3", v)
		}
		if n < m.FormatVersion {
			return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "cannot downgrade format-version from %d to %d", m.FormatVersion, n)
		}
		updates = append(updates, catalog.UpgradeFormatVersion{FormatVersion: n})
	}
	if len(props) > 0 {
		updates = append(updates, catalog.SetProperties{Updates: props})
	}
	return reqs, updates, nil
}

// SparkRenameColumn reads RENAME COLUMN a.b TO c (a dotted name, which
// PostgreSQL's grammar lacks).
func SparkRenameColumn(e *SchemaEdit, c *TokCursor) error {
	name, err := c.name()
	if err != nil {
		return err
	}
	if !c.accept("to") || c.done() || !parse.IsWordTok(c.Toks[c.I]) {
		return c.syntax("TO new_name")
	}
	to := parse.IdentText(c.Toks[c.I].Text)
	c.I++
	if !c.done() {
		return c.syntax("the end of the statement")
	}
	return e.Rename(name, to)
}

// TokCursor reads the tokens of a Spark clause.
type TokCursor struct {
	Toks []parse.DialectTok
	I    int
	SQL  string
	End  int // byte offset for errors at the end
}

func (c *TokCursor) done() bool { return c.I >= len(c.Toks) }

func (c *TokCursor) peek() string {
	if c.I < len(c.Toks) {
		return c.Toks[c.I].Low
	}
	return ""
}

func (c *TokCursor) accept(words ...string) bool {
	for k, w := range words {
		if c.I+k >= len(c.Toks) || c.Toks[c.I+k].Low != w {
			return false
		}
	}
	c.I += len(words)
	return true
}

// syntax is a 42601 error at the current token.
func (c *TokCursor) syntax(what string) error {
	off := c.End
	if c.I < len(c.Toks) {
		off = c.Toks[c.I].Start
	} else if len(c.Toks) > 0 {
		off = c.Toks[len(c.Toks)-1].End
	}
	return pgerr.New(pgerr.SyntaxError, "syntax error in ALTER TABLE: expected %s", what).WithPosition(parse.CharPos(c.SQL, int32(off)))
}

// name reads a column name: ident (. ident)*.
func (c *TokCursor) name() (string, error) {
	if c.done() || !parse.IsWordTok(c.Toks[c.I]) {
		return "", c.syntax("a column name")
	}
	parts := []string{parse.IdentText(c.Toks[c.I].Text)}
	c.I++
	for c.I+1 < len(c.Toks) && c.Toks[c.I].Tok == pg.Token_ASCII_46 && parse.IsWordTok(c.Toks[c.I+1]) {
		parts = append(parts, parse.IdentText(c.Toks[c.I+1].Text))
		c.I += 2
	}
	return strings.Join(parts, "."), nil
}

// sconst reads a string constant.
func (c *TokCursor) sconst() (string, error) {
	if c.done() || c.Toks[c.I].Tok != pg.Token_SCONST {
		return "", c.syntax("a string constant")
	}
	c.I++
	return parse.SConst(c.Toks[c.I-1].Text), nil
}

// until returns the tokens up to (not including) the first of words at
// depth 0, or to the end; the cursor moves past them.
func (c *TokCursor) until(words ...string) []parse.DialectTok {
	depth := 0
	from := c.I
	for ; c.I < len(c.Toks); c.I++ {
		tk := c.Toks[c.I]
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
	return c.Toks[from:c.I]
}

// parenList returns the tokens inside "(" ... ")" when the cursor is at
// "(" (moving past them), else the rest of the clause.
func (c *TokCursor) parenList() ([]parse.DialectTok, error) {
	if c.peek() != "(" {
		rest := c.Toks[c.I:]
		c.I = len(c.Toks)
		return rest, nil
	}
	close := parse.MatchParen(c.Toks, c.I)
	if close < 0 {
		return nil, c.syntax("\")\"")
	}
	in := c.Toks[c.I+1 : close]
	c.I = close + 1
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

func (c *TokCursor) sub(t []parse.DialectTok) *TokCursor {
	return &TokCursor{Toks: t, SQL: c.SQL, End: c.End}
}

// sparkTypeOf parses a Spark type from tokens.
func (c *TokCursor) sparkTypeOf(t []parse.DialectTok, ids *IDCounter) (catalog.Type, error) {
	p := &parse.SparkTypeParser{Toks: t}
	st, err := p.Parse()
	if err != nil || p.I != len(t) {
		return nil, c.syntax("a type")
	}
	return sparkIceberg(st, true, ids)
}

// FindColumnPath finds a column by name or by a dotted path into struct
// columns: names as written first, else case-insensitively. It returns the
// field and its path as the schema spells it.
func FindColumnPath(fs []catalog.NestedField, name string) (*catalog.NestedField, string) {
	find := func(fs []catalog.NestedField, n string) *catalog.NestedField {
		for i := range fs {
			if fs[i].Name == n {
				return &fs[i]
			}
		}
		for i := range fs {
			if strings.EqualFold(fs[i].Name, n) {
				return &fs[i]
			}
		}
		return nil
	}
	if f := find(fs, name); f != nil {
		return f, f.Name
	}
	parts := strings.Split(name, ".")
	var path []string
	for k, p := range parts {
		f := find(fs, p)
		if f == nil {
			return nil, ""
		}
		path = append(path, f.Name)
		if k == len(parts)-1 {
			return f, strings.Join(path, ".")
		}
		st, ok := f.Type.(*catalog.StructType)
		if !ok {
			return nil, ""
		}
		fs = st.Fields
	}
	return nil, ""
}
