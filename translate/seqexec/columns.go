package seqexec

import (
	"context"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/caterr"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/sequence"
)

// The sequences of CREATE TABLE's serial and identity columns.

// ColumnSeqs collects, while CREATE TABLE binds, the sequences its serial
// and identity columns get; field ids are the binder's until Finish maps
// them.
type ColumnSeqs []columnSeq

// columnSeq is the sequence a serial or identity column gets.
type columnSeq struct {
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

// ColumnType is the type a column definition creates: the integer type of
// a serial column (which gets its sequence), else as written.
func (d *ColumnSeqs) ColumnType(cd *pg.ColumnDef, id int) *pg.TypeName {
	tn := cd.TypeName
	if tn == nil || len(tn.Names) != 1 || len(tn.ArrayBounds) > 0 {
		return tn
	}
	typ, ok := serialTypes[strings.ToLower(tn.Names[0].GetString_().GetSval())]
	if !ok {
		return tn
	}
	*d = append(*d, columnSeq{field: id, column: cd.Colname, typ: typ})
	return &pg.TypeName{Names: []*pg.Node{pg.MakeStrNode("pg_catalog"), pg.MakeStrNode(serialInts[typ])}, Typemod: -1, Location: tn.Location}
}

// IsSerial reports whether field id is a serial column (NOT NULL).
func (d ColumnSeqs) IsSerial(id int) bool {
	for _, q := range d {
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

// AddIdentity records GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(options)].
func (d *ColumnSeqs) AddIdentity(f catalog.NestedField, con *pg.Constraint) error {
	typ, err := seqTypeOf(f)
	if err != nil {
		return err
	}
	for _, q := range *d {
		if q.field == f.ID {
			return pgerr.New(pgerr.SyntaxError, "multiple identity specifications for column \"%s\"", f.Name)
		}
	}
	sp, err := sequence.SpecOf(con.Options)
	if err != nil {
		return err
	}
	*d = append(*d, columnSeq{field: f.ID, column: f.Name, typ: typ, identity: true, always: con.GeneratedWhen == "a", spec: sp})
	return nil
}

// Finish maps the sequences' fields to the fresh ids the table will have
// (ids), chooses the sequences' names in table tid's namespace and puts
// the columns' defaults and identities that name them into props.
func (d ColumnSeqs) Finish(ctx context.Context, s Exec, tid catalog.Identifier, ids map[int]int, props map[string]string) error {
	taken := map[string]bool{}
	for i := range d {
		q := &d[i]
		var err error
		if q.opts, err = q.spec.Resolve(nil, q.typ); err != nil {
			return err
		}
		name, err := s.chooseSequenceName(ctx, tid, q, taken)
		if err != nil {
			return err
		}
		q.name = catalog.Identifier{Namespace: tid.Namespace, Name: name}
		q.text = syscat.QuoteIdent(strings.Join(tid.Namespace, ".")) + "." + syscat.QuoteIdent(name)
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
func (s Exec) chooseSequenceName(ctx context.Context, tid catalog.Identifier, q *columnSeq, taken map[string]bool) (string, error) {
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
		if _, err := s.Catalog().LoadTable(ctx, catalog.Identifier{Namespace: tid.Namespace, Name: name}); err == nil {
			continue
		}
		taken[name] = true
		return name, nil
	}
}

// Create creates the sequences of table t's serial and identity columns;
// on failure the table is dropped again.
func (d ColumnSeqs) Create(ctx context.Context, s Exec, mc catalog.MutableCatalog, t *catalog.Table) error {
	for _, q := range d {
		o := q.opts
		o.OwnerTable, o.OwnerField = t.Ident.Name, q.field
		spec, err := sequence.TableSpec(o)
		if err != nil {
			return s.undoCreate(ctx, mc, t, err)
		}
		if _, err := mc.CreateTable(ctx, q.name, spec); err != nil {
			return s.undoCreate(ctx, mc, t, caterr.Convert(err, caterr.Table, q.name.Name))
		}
	}
	return nil
}

func (s Exec) undoCreate(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, err error) error {
	_ = s.DropOwned(ctx, mc, t)
	_ = mc.DropTable(context.WithoutCancel(ctx), t.Ident, true)
	return err
}

// QualifyNextval resolves the sequence of each nextval('name') in a
// default expression now, as PostgreSQL's 'name'::regclass does when the
// default is defined: the argument becomes the sequence's qualified name
// cast to regclass, so the default takes from that sequence whatever the
// search_path of the session that inserts (the system catalog shows the
// name unqualified where the search path finds it). A sequence that does
// not exist is 42P01 here, as in PostgreSQL.
func (s Exec) QualifyNextval(ctx context.Context, raw *pg.Node) error {
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
		t, e := s.ByName(ctx, name)
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
