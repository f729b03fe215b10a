package bind

import (
	"slices"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// Column defaults that are not constants (now(), gen_random_uuid(),
// nextval(...)) and identity columns. Iceberg's write-default holds only a
// constant, so icegate keeps these in the table's properties, keyed by
// field id (a rename keeps them, other engines ignore them):
//
//	icegate.default.<field-id>  = the default's SQL text, as pg_get_expr
//	                              shows it: "now()", "nextval('t_id_seq'::regclass)"
//	icegate.identity.<field-id> = "always <sequence>" | "by-default <sequence>"
//
// The sequence is written as a qualified regclass literal body
// (`"public"."t_id_seq"`). A write binds the text as an expression for each
// column it does not give a value, so it is evaluated per row when the rows
// are made: INSERT, COPY, MERGE's INSERT, upserts, UPDATE SET c = DEFAULT.
const (
	DefaultPropPrefix  = "icegate.default."
	IdentityPropPrefix = "icegate.identity."
)

// DefaultKey is the property holding field id's default expression.
func DefaultKey(id int) string { return DefaultPropPrefix + strconv.Itoa(id) }

// IdentityKey is the property marking field id as an identity column.
func IdentityKey(id int) string { return IdentityPropPrefix + strconv.Itoa(id) }

// Identity describes an identity column.
type Identity struct {
	// Always is GENERATED ALWAYS (else BY DEFAULT).
	Always bool
	// Sequence is the sequence's qualified name, quoted as SQL.
	Sequence string
}

// FormatIdentity is the identity property's value.
func FormatIdentity(id Identity) string {
	if id.Always {
		return "always " + id.Sequence
	}
	return "by-default " + id.Sequence
}

// IdentityOf reads field id's identity property.
func IdentityOf(props map[string]string, id int) (Identity, bool) {
	v, ok := props[IdentityKey(id)]
	if !ok {
		return Identity{}, false
	}
	kind, seq, _ := strings.Cut(v, " ")
	return Identity{Always: kind == "always", Sequence: seq}, true
}

// NextvalText is the default of a column taking its values from seq (a
// quoted SQL name): nextval('seq'::regclass).
func NextvalText(seq string) string {
	return "nextval('" + strings.ReplaceAll(seq, "'", "''") + "'::regclass)"
}

// DefaultText is the SQL text of field id's default kept in the
// properties (an identity column's nextval), "" when there is none.
func DefaultText(props map[string]string, id int) string {
	if ident, ok := IdentityOf(props, id); ok {
		return NextvalText(ident.Sequence)
	}
	return props[DefaultKey(id)]
}

// ColumnDefault is the value a write gives column col (field f of table
// t) when it names no value: the default kept in t's properties, bound as
// an expression, else the field's constant write default, else NULL.
func (b *Binder) ColumnDefault(t *catalog.Table, f catalog.NestedField, col Column) (expr.Expr, error) {
	if t != nil && t.Metadata != nil {
		if text := DefaultText(t.Metadata.Properties, f.ID); text != "" {
			return b.DefaultExpr(text, col)
		}
	}
	return WriteDefault(f, col.Arrow), nil
}

// DefaultExpr binds the default expression text for column col, converted
// to the column's type as an assignment.
func (b *Binder) DefaultExpr(text string, col Column) (expr.Expr, error) {
	node, ps, err := ParseDefault(text)
	if err != nil {
		return nil, err
	}
	sub := New(b.ctx, b.env, ps, &ParamSet{}, b.now)
	x, err := sub.Expr(node)
	if err != nil {
		return nil, defaultError(col, err)
	}
	e, err := sub.Assign(x, col, -1)
	if err == nil {
		err = sub.LitErr
	}
	if err != nil {
		return nil, defaultError(col, err)
	}
	return e, nil
}

func defaultError(col Column, err error) error {
	if e := pgerr.As(err); e != nil {
		c := *e
		c.Position = 0
		if c.Code == pgerr.DatatypeMismatch {
			c.Message = strings.Replace(c.Message, "but expression", "but default expression", 1)
			return &c
		}
		if c.Detail == "" {
			c.Detail = "While evaluating the default of column \"" + col.Name + "\"."
		}
		return &c
	}
	return err
}

// ParseDefault parses a default expression's text.
func ParseDefault(text string) (*pg.Node, parse.Stmt, error) {
	stmts, err := parse.Parse("SELECT "+text, parse.Config{})
	if err != nil {
		return nil, parse.Stmt{}, err
	}
	if len(stmts) != 1 {
		return nil, parse.Stmt{}, pgerr.New(pgerr.SyntaxError, "invalid column default \"%s\"", text)
	}
	sel := stmts[0].Node.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 || sel.FromClause != nil {
		return nil, parse.Stmt{}, pgerr.New(pgerr.SyntaxError, "invalid column default \"%s\"", text)
	}
	return sel.TargetList[0].GetResTarget().GetVal(), stmts[0], nil
}

// tableDefaults is every column's value when a write gives none.
func (b *Binder) tableDefaults(t *catalog.Table, schema *catalog.Schema, cols []Column) ([]expr.Expr, error) {
	row := make([]expr.Expr, len(cols))
	for i, c := range cols {
		e, err := b.ColumnDefault(t, schema.Fields[i], c)
		if err != nil {
			return nil, err
		}
		row[i] = e
	}
	return row, nil
}

// identityCheck enforces GENERATED ALWAYS on the columns an INSERT gives
// values (targets: column indexes, explicit[k] false for a DEFAULT item):
// 428C9 unless OVERRIDING SYSTEM VALUE. With OVERRIDING USER VALUE the
// values given to identity columns are dropped (ignore reports which).
func (b *Binder) identityCheck(t *catalog.Table, schema *catalog.Schema, ins *pg.InsertStmt, targets []int) (ignore map[int]bool, err error) {
	props := t.Metadata.Properties
	for _, c := range targets {
		f := schema.Fields[c]
		ident, ok := IdentityOf(props, f.ID)
		if !ok {
			continue
		}
		switch {
		case ins.Override == pg.OverridingKind_OVERRIDING_USER_VALUE:
			if ignore == nil {
				ignore = map[int]bool{}
			}
			ignore[c] = true
		case ident.Always && ins.Override != pg.OverridingKind_OVERRIDING_SYSTEM_VALUE:
			return nil, pgerr.New(pgerr.GeneratedAlways, "cannot insert a non-DEFAULT value into column \"%s\"", f.Name).
				WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", f.Name).
				WithHint("Use OVERRIDING SYSTEM VALUE to override.")
		}
	}
	return ignore, nil
}

// cloneRow copies a row of defaults.
func cloneRow(row []expr.Expr) []expr.Expr { return slices.Clone(row) }

// alwaysIdentityUpdate refuses an UPDATE that sets a GENERATED ALWAYS
// column to anything but DEFAULT (428C9).
func alwaysIdentityUpdate(t *catalog.Table, f catalog.NestedField) error {
	if t == nil || t.Metadata == nil {
		return nil
	}
	if id, ok := IdentityOf(t.Metadata.Properties, f.ID); ok && id.Always {
		return pgerr.New(pgerr.GeneratedAlways, "column \"%s\" can only be updated to DEFAULT", f.Name).
			WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", f.Name)
	}
	return nil
}
