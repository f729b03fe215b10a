package translate

import (
	"context"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/seqexec"
	"github.com/icegate/icegate/translate/sequence"
)

// What CREATE TABLE and ALTER TABLE keep of a column's default beyond
// Iceberg's constant write-default: serial and identity columns (a
// sequence of their own, bind/defaults.go's properties) and expressions
// such as now() or gen_random_uuid().

// tableDefaults collects, while CREATE TABLE binds, the defaults kept in
// properties; field ids are the binder's until finish maps them.
type tableDefaults struct {
	exprs map[int]string // field id -> default text
	seqs  []ownedSeq
}

// ownedSeq is the sequence a serial or identity column gets.
type ownedSeq struct {
	field    int
	column   string
	typ      string // smallint, integer, bigint
	identity bool
	always   bool
	spec     sequence.Spec
	opts     sequence.Options   // resolved at finish
	name     catalog.Identifier // chosen at finish
	text     string             // its name as the default writes it
}

// serialTypes maps the serial pseudo-types to their sequence type.
var serialTypes = map[string]string{
	"smallserial": "smallint", "serial2": "smallint",
	"serial": "integer", "serial4": "integer",
	"bigserial": "bigint", "serial8": "bigint",
}

var serialInts = map[string]string{"smallint": "int2", "integer": "int4", "bigint": "int8"}

// columnType is the type a column definition creates: the integer type of
// a serial column (which gets its sequence), else as written.
func (d *tableDefaults) columnType(cd *pg.ColumnDef, id int) *pg.TypeName {
	tn := cd.TypeName
	if tn == nil || len(tn.Names) != 1 || len(tn.ArrayBounds) > 0 {
		return tn
	}
	typ, ok := serialTypes[strings.ToLower(tn.Names[0].GetString_().GetSval())]
	if !ok {
		return tn
	}
	d.seqs = append(d.seqs, ownedSeq{field: id, column: cd.Colname, typ: typ})
	return &pg.TypeName{Names: []*pg.Node{pg.MakeStrNode("pg_catalog"), pg.MakeStrNode(serialInts[typ])}, Typemod: -1, Location: tn.Location}
}

// isSerial reports whether field id is a serial column (NOT NULL).
func (d *tableDefaults) isSerial(id int) bool {
	for _, q := range d.seqs {
		if q.field == id && !q.identity {
			return true
		}
	}
	return false
}

// seqTypeOf is the sequence type of an identity column of type t.
func seqTypeOf(f catalog.NestedField) (string, error) {
	if p := catalog.Primitive(f.Type); p != nil {
		switch p.ID {
		case catalog.TInt:
			return "integer", nil
		case catalog.TLong:
			return "bigint", nil
		}
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
}

// addIdentity records GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(options)].
func (d *tableDefaults) addIdentity(f catalog.NestedField, con *pg.Constraint) error {
	typ, err := seqTypeOf(f)
	if err != nil {
		return err
	}
	for _, q := range d.seqs {
		if q.field == f.ID {
			return pgerr.New(pgerr.SyntaxError, "multiple identity specifications for column \"%s\"", f.Name)
		}
	}
	sp, err := sequence.SpecOf(con.Options)
	if err != nil {
		return err
	}
	d.seqs = append(d.seqs, ownedSeq{field: f.ID, column: f.Name, typ: typ, identity: true, always: con.GeneratedWhen == "a", spec: sp})
	return nil
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
	if err := s.qualifyNextval(ctx, raw); err != nil {
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

// qualifyNextval resolves the sequence of each nextval('name') in a
// default expression now, as PostgreSQL's 'name'::regclass does when the
// default is defined: the argument becomes the sequence's qualified name
// cast to regclass, so the default takes from that sequence whatever the
// search_path of the session that inserts (the system catalog shows the
// name unqualified where the search path finds it). A sequence that does
// not exist is 42P01 here, as in PostgreSQL.
func (s *session) qualifyNextval(ctx context.Context, raw *pg.Node) error {
	var err error
	parse.WalkExpr(raw, func(n *pg.Node) {
		fc := n.GetFuncCall()
		if err != nil || fc == nil || len(fc.Args) != 1 || !parse.IsNextvalName(fc.Funcname) {
			return
		}
		name, ok := parse.RegclassLiteral(fc.Args[0])
		if !ok {
			return
		}
		t, e := seqexec.With(s).ByName(ctx, name)
		if e != nil {
			err = e
			return
		}
		q := syscat.QuoteIdent(strings.Join(t.Ident.Namespace, ".")) + "." + syscat.QuoteIdent(t.Ident.Name)
		fc.Args[0] = &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{
			Arg:      pg.MakeAConstStrNode(q, -1),
			TypeName: &pg.TypeName{Names: []*pg.Node{pg.MakeStrNode("regclass")}, Typemod: -1, Location: -1},
			Location: -1,
		}}}
	})
	return err
}

// finish maps the collected defaults to the fresh field ids the table will
// have, chooses the sequences' names and puts the properties into ct.
func (s *session) finishTableDefaults(ctx context.Context, ct *createTable, d *tableDefaults) error {
	if len(d.exprs) == 0 && len(d.seqs) == 0 {
		return nil
	}
	// The defaults were collected by the ids the columns were bound with;
	// the schema has fresh ones by now.
	ids := ct.freshIDs
	props := ct.spec.Properties
	for id, text := range d.exprs {
		props[bind.DefaultKey(ids[id])] = text
	}
	taken := map[string]bool{}
	for i := range d.seqs {
		q := &d.seqs[i]
		var err error
		if q.opts, err = q.spec.Resolve(nil, q.typ); err != nil {
			return err
		}
		name, err := s.chooseSequenceName(ctx, ct.id, q, taken)
		if err != nil {
			return err
		}
		q.name = catalog.Identifier{Namespace: ct.id.Namespace, Name: name}
		q.text = syscat.QuoteIdent(strings.Join(ct.id.Namespace, ".")) + "." + syscat.QuoteIdent(name)
		q.field = ids[q.field]
		if q.identity {
			props[bind.IdentityKey(q.field)] = bind.FormatIdentity(bind.Identity{Always: q.always, Sequence: q.text})
		} else {
			props[bind.DefaultKey(q.field)] = bind.NextvalText(q.text)
		}
	}
	return nil
}

// chooseSequenceName is <table>_<column>_seq (or the identity's SEQUENCE
// NAME), numbered when the name is taken, as PostgreSQL does.
func (s *session) chooseSequenceName(ctx context.Context, tid catalog.Identifier, q *ownedSeq, taken map[string]bool) (string, error) {
	if len(q.spec.Name) > 0 {
		name := q.spec.Name[len(q.spec.Name)-1]
		taken[name] = true
		return name, nil
	}
	base := tid.Name + "_" + q.column
	for n := 0; ; n++ {
		suffix := "_seq"
		if n > 0 {
			suffix += strconv.Itoa(n)
		}
		b := base
		if len(b)+len(suffix) > 63 {
			b = b[:63-len(suffix)]
		}
		name := b + suffix
		if taken[name] {
			continue
		}
		if _, err := s.cat.LoadTable(ctx, catalog.Identifier{Namespace: tid.Namespace, Name: name}); err == nil {
			continue
		}
		taken[name] = true
		return name, nil
	}
}

// createOwnedSequences creates the sequences of table t's serial and
// identity columns; on failure the table is dropped again.
func (s *session) createOwnedSequences(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, d *tableDefaults) error {
	for _, q := range d.seqs {
		o := q.opts
		o.OwnerTable, o.OwnerField = t.Ident.Name, q.field
		spec, err := sequence.TableSpec(o)
		if err != nil {
			return s.undoCreate(ctx, mc, t, err)
		}
		if _, err := mc.CreateTable(ctx, q.name, spec); err != nil {
			return s.undoCreate(ctx, mc, t, catalogError(err, kindTable, q.name.Name))
		}
	}
	return nil
}

func (s *session) undoCreate(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, err error) error {
	_ = seqexec.With(s).DropOwned(ctx, mc, t)
	_ = mc.DropTable(context.WithoutCancel(ctx), t.Ident, true)
	return err
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
