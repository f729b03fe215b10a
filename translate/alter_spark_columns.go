package translate

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

// sparkAddColumns reads ADD COLUMN(S) [(] c type [NOT NULL] [DEFAULT expr]
// [COMMENT 'x'] [FIRST | AFTER d], ... [)]. defaultOf evaluates a DEFAULT
// expression for the new field.
func sparkAddColumns(e *schemaEdit, c *tokCursor, defaultOf func(f catalog.NestedField, expr []parse.DialectTok) (any, error)) error {
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
		f := catalog.NestedField{ID: e.ids.next(), Name: name}
		if f.Type, err = d.sparkTypeOf(d.until("not", "default", "comment", "first", "after"), e.ids); err != nil {
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
			f.InitialDefault, f.WriteDefault = v, v
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
func position(e *schemaEdit, d *tokCursor, name string) error {
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

// sparkAlterColumn reads ALTER COLUMN c [TYPE t] [COMMENT 'x'] [FIRST |
// AFTER d] [DROP NOT NULL].
func sparkAlterColumn(e *schemaEdit, c *tokCursor) error {
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
			to, err := c.sparkTypeOf(c.until("comment", "first", "after", "drop", "set"), &idCounter{n: e.ids.n})
			if err != nil {
				return err
			}
			if err := e.retype(name, to); err != nil {
				return err
			}
		case c.accept("comment"):
			doc, err := c.sconst()
			if err != nil {
				return err
			}
			if err := e.setDoc(name, doc); err != nil {
				return err
			}
		case c.peek() == "first" || c.peek() == "after":
			if err := position(e, c, name); err != nil {
				return err
			}
		case c.accept("drop", "not", "null"):
			if err := e.dropNotNull(name); err != nil {
				return err
			}
		case c.accept("set", "not", "null"):
			return pgerr.Unsupported("ALTER COLUMN ... SET NOT NULL").
				WithHint("Iceberg cannot make an optional column required: existing data files may hold nulls.")
		default:
			return c.syntax("TYPE, COMMENT, FIRST, AFTER or DROP NOT NULL")
		}
	}
	return nil
}

// sparkDropColumns reads DROP COLUMNS [(] c, d [)].
func sparkDropColumns(e *schemaEdit, c *tokCursor) error {
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
		if _, err := e.drop(name, false); err != nil {
			return err
		}
	}
	return nil
}

// identifierNames reads a, b, ... and returns their field ids.
func identifierNames(e *schemaEdit, c *tokCursor) ([]int, []string, error) {
	var ids []int
	var names []string
	for _, n := range splitTop(c.toks[c.i:]) {
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
			return nil, nil, undefinedColumn(name)
		}
		ids = append(ids, (*fs)[i].ID)
		names = append(names, name)
	}
	c.i = len(c.toks)
	return ids, names, nil
}

// sparkSetIdentifiers reads SET IDENTIFIER FIELDS a, b.
func sparkSetIdentifiers(e *schemaEdit, c *tokCursor) error {
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
		e.changed = true
	}
	return nil
}

// sparkDropIdentifiers reads DROP IDENTIFIER FIELDS [a, b] (no names: all).
func sparkDropIdentifiers(e *schemaEdit, c *tokCursor) error {
	ids, names, err := identifierNames(e, c)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		e.changed = len(e.schema.IdentifierFieldIDs) > 0
		e.schema.IdentifierFieldIDs = nil
		return nil
	}
	for k, id := range ids {
		i := slices.Index(e.schema.IdentifierFieldIDs, id)
		if i < 0 {
			return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" is not an identifier field", names[k])
		}
		e.schema.IdentifierFieldIDs = slices.Delete(e.schema.IdentifierFieldIDs, i, i+1)
		e.changed = true
	}
	return nil
}

// sparkProperties reads SET TBLPROPERTIES ('k' = 'v', ...) and UNSET
// TBLPROPERTIES [IF EXISTS] ('k', ...).
func sparkProperties(m *catalog.TableMetadata, kind string, c *tokCursor) ([]catalog.Requirement, []catalog.Update, error) {
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
			if key == "format-version" {
				return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "format-version cannot be unset")
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
	r := &parse.DialectRewriter{SQL: c.sql, X: &parse.DDLExtras{}}
	if err := r.Properties(list); err != nil {
		return nil, nil, err
	}
	var updates []catalog.Update
	props := map[string]string{}
	for _, k := range r.X.PropOrder {
		v := r.X.Props[k]
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

// sparkRenameColumn reads RENAME COLUMN a.b TO c (a dotted name, which
// PostgreSQL's grammar lacks).
func sparkRenameColumn(e *schemaEdit, c *tokCursor) error {
	name, err := c.name()
	if err != nil {
		return err
	}
	if !c.accept("to") || c.done() || !parse.IsWordTok(c.toks[c.i]) {
		return c.syntax("TO new_name")
	}
	to := parse.IdentText(c.toks[c.i].Text)
	c.i++
	if !c.done() {
		return c.syntax("the end of the statement")
	}
	return e.rename(name, to)
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

// findColumnPath finds a column by name or by a dotted path into struct
// columns: names as written first, else case-insensitively. It returns the
// field and its path as the schema spells it.
func findColumnPath(fs []catalog.NestedField, name string) (*catalog.NestedField, string) {
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
