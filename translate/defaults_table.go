package translate

import (
	"context"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/seqexec"
)

// What CREATE TABLE and ALTER TABLE keep of a column's default beyond
// Iceberg's constant write-default: serial and identity columns (a
// sequence of their own, bind/defaults.go's properties) and expressions
// such as now() or gen_random_uuid().

// tableDefaults collects, while CREATE TABLE binds, the defaults kept in
// properties; field ids are the binder's until finish maps them.
type tableDefaults struct {
	exprs map[int]string // field id -> default text
	seqs  seqexec.ColumnSeqs
}

// addExpr records a default that is not a constant, checked by binding it
// as an assignment to the column.
func (s *session) addDefaultExpr(ctx context.Context, ps parse.Stmt, d *tableDefaults, f catalog.NestedField, raw *pg.Node) error {
	text, err := s.checkDefaultExpr(ctx, ps, f, raw)
	if err != nil {
		return err
	}
	if d.exprs == nil {
		d.exprs = map[int]string{}
	}
	d.exprs[f.ID] = text
	return nil
}

// checkDefaultExpr binds a default expression for field f and returns its
// text as kept in the properties.
func (s *session) checkDefaultExpr(ctx context.Context, ps parse.Stmt, f catalog.NestedField, raw *pg.Node) (string, error) {
	interval := engine.IsIntervalParts(f.Type) // an interval column (engine.IntervalPartsType)
	if !defaultableType(f.Type) && !interval {
		return "", pgerr.NotYetPlural("defaults of nested columns")
	}
	if parse.ContainsColumnRef(raw) {
		return "", pgerr.New(pgerr.FeatureNotSupported, "cannot use column reference in DEFAULT expression")
	}
	if err := seqexec.With(s).QualifyNextval(ctx, raw); err != nil {
		return "", err
	}
	text, err := parse.DeparseExpr(raw)
	if err != nil {
		return "", err
	}
	b := bind.New(ctx, s, ps, &bind.ParamSet{}, time.Now())
	col := bind.Column{Name: f.Name, Type: plan.TypeOfIceberg(f.Type), Arrow: engine.ArrowType(f.Type)}
	if interval {
		col.Type, col.Arrow = plan.TInterval, plan.ArrowOf(plan.TInterval)
	}
	if _, err := b.DefaultExpr(text, col); err != nil {
		return "", err
	}
	return text, nil
}

// finishTableDefaults maps the collected defaults to the fresh field ids
// the table will have, chooses the sequences' names and puts the
// properties into ct.
func (s *session) finishTableDefaults(ctx context.Context, ct *createTable, d *tableDefaults) error {
	// The defaults were collected by the ids the columns were bound with;
	// the schema has fresh ones by now.
	for id, text := range d.exprs {
		ct.spec.Properties[bind.DefaultKey(ct.freshIDs[id])] = text
	}
	return d.seqs.Finish(ctx, seqexec.With(s), ct.id, ct.freshIDs, ct.spec.Properties)
}

// alterColumnDefault applies ALTER COLUMN c SET DEFAULT expr | DROP
// DEFAULT: a constant becomes the field's write-default, any other
// expression the default property; the other one goes.
func (s *session) alterColumnDefault(ctx context.Context, ps parse.Stmt, m *catalog.TableMetadata, e *ddl.SchemaEdit, props *propertyEdit, cmd *pg.AlterTableCmd) ([]Notice, error) {
	var f *catalog.NestedField
	for i := range m.CurrentSchema().Fields {
		if m.CurrentSchema().Fields[i].Name == cmd.Name {
			f = &m.CurrentSchema().Fields[i]
		}
	}
	if f == nil {
		return nil, ddl.UndefinedColumn(cmd.Name)
	}
	if _, ok := bind.IdentityOf(m.Properties, f.ID); ok && cmd.Def != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "column \"%s\" of relation \"%s\" is an identity column", f.Name, e.Table).
			WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.")
	}
	key := bind.DefaultKey(f.ID)
	drop := func() {
		if _, ok := m.Properties[key]; ok {
			props.remove = append(props.remove, key)
		}
	}
	switch {
	case cmd.Def == nil:
		drop()
		return nil, e.SetWriteDefault(f.Name, nil)
	case !expressionDefault(cmd.Def, f.Type):
		v, err := s.columnDefault(ctx, ps, *f, cmd.Def)
		if err != nil {
			return nil, err
		}
		drop()
		return nil, e.SetWriteDefault(f.Name, v)
	}
	text, err := s.checkDefaultExpr(ctx, ps, *f, cmd.Def)
	if err != nil {
		return nil, err
	}
	if props.set == nil {
		props.set = map[string]string{}
	}
	props.set[key] = text
	return nil, e.SetWriteDefault(f.Name, nil)
}

// addColumnDefaultExpr keeps the expression default of a column ADD COLUMN
// adds: new rows get it; the rows already there read NULL (PostgreSQL
// would evaluate it for each of them, which needs a rewrite of the data).
func (s *session) addColumnDefaultExpr(ctx context.Context, ps parse.Stmt, f catalog.NestedField, raw *pg.Node, props *propertyEdit) error {
	text, err := s.checkDefaultExpr(ctx, ps, f, raw)
	if err != nil {
		return err
	}
	if props.set == nil {
		props.set = map[string]string{}
	}
	props.set[bind.DefaultKey(f.ID)] = text
	return nil
}

// defaultableType reports whether a column of Iceberg type t can have a
// default: a primitive (a constant one is Iceberg's write-default), or an
// array of primitives (kept as an expression default: Iceberg's defaults
// of lists can only be empty).
func defaultableType(t catalog.Type) bool {
	if catalog.Primitive(t) != nil {
		return true
	}
	l, ok := t.(*catalog.ListType)
	return ok && catalog.Primitive(l.Element) != nil
}

// expressionDefault reports whether the default raw of a column of type t
// is kept as an expression (a property) rather than as Iceberg's
// write-default: it is not a constant, or the column is an array.
func expressionDefault(raw *pg.Node, t catalog.Type) bool {
	return !constantDefault(raw) || catalog.Primitive(t) == nil
}
