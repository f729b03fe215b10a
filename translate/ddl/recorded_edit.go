package ddl

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// RecordedEdit follows the PostgreSQL types a table records per field id
// (plan.PGTypesProperty) through one ALTER TABLE: added columns record
// theirs, ALTER COLUMN TYPE replaces or removes the entry, and entries of
// dropped columns go.
type RecordedEdit struct {
	before string
	rec    map[int]plan.Type
}

func NewRecordedEdit(m *catalog.TableMetadata) *RecordedEdit {
	rec := plan.RecordedTypes(m.Properties)
	if rec == nil {
		rec = map[int]plan.Type{}
	}
	return &RecordedEdit{before: m.Properties[plan.PGTypesProperty], rec: rec}
}

// Added records the type of the top-level column name, just added to e as
// declared by tn.
func (r *RecordedEdit) Added(e *SchemaEdit, name string, tn *pg.TypeName) error {
	i := fieldIndex(e.schema.Fields, name)
	if i < 0 {
		return nil
	}
	f := e.schema.Fields[i]
	t, ok, err := RecordedTypeOf(tn, f.Type)
	if err != nil {
		return err
	}
	if ok {
		r.rec[f.ID] = t
	}
	return nil
}

// Retype checks ALTER COLUMN name TYPE tn (Iceberg type to) against the
// column's recorded type and records the new one. Values are not
// rewritten, so only changes every stored value already satisfies pass:
// a longer varchar(n), varchar(n) or char(n) to text, json or jsonb or
// smallint to their Iceberg types; anything else that the recorded type
// would have to check is 0A000.
func (r *RecordedEdit) Retype(e *SchemaEdit, name string, tn *pg.TypeName, to catalog.Type) error {
	return r.retype(e, name, tn, to, false)
}

func (r *RecordedEdit) retype(e *SchemaEdit, name string, tn *pg.TypeName, to catalog.Type, checked bool) error {
	i := fieldIndex(e.schema.Fields, name)
	if i < 0 {
		return nil // nested or missing: SchemaEdit.Retype says
	}
	f := e.schema.Fields[i]
	from := plan.TypeOfField(f, r.rec)
	t, ok, err := RecordedTypeOf(tn, to)
	if err != nil {
		return err
	}
	if !ok {
		delete(r.rec, f.ID)
		return nil
	}
	keeps := from == t
	switch {
	case t.OID == pgtypes.Varchar && t.Typmod < 0:
		keeps = from.OID == pgtypes.Text || from.OID == pgtypes.Varchar
	case t.OID == pgtypes.Varchar && from.OID == pgtypes.Varchar:
		keeps = from.Typmod >= 0 && from.Typmod <= t.Typmod
	}
	if !keeps && !(checked && narrowsString(from, t)) {
		return pgerr.Unsupported("changing column \"%s\" from %s to %s", name, from, t).
			WithHint("Values are not rewritten by ALTER COLUMN TYPE: create a new column, fill it with UPDATE and drop the old one.")
	}
	r.rec[f.ID] = t
	return nil
}

// Narrowing is the length of character varying(n) when retyping column
// name to tn is a change from text or a longer character varying, which
// holds only if every value has at most n characters: the caller reads
// the rows, then calls RetypeChecked. ok is false for any other change.
func (r *RecordedEdit) Narrowing(e *SchemaEdit, name string, tn *pg.TypeName, to catalog.Type) (n int, ok bool) {
	i := fieldIndex(e.schema.Fields, name)
	if i < 0 {
		return 0, false
	}
	from := plan.TypeOfField(e.schema.Fields[i], r.rec)
	t, rec, err := RecordedTypeOf(tn, to)
	if err != nil || !rec || !narrowsString(from, t) {
		return 0, false
	}
	return int(t.Typmod - 4), true
}

// RetypeChecked is Retype once the rows were read and every value fits
// (Narrowing): the commit requires main to be at the snapshot read.
func (r *RecordedEdit) RetypeChecked(e *SchemaEdit, name string, tn *pg.TypeName, to catalog.Type) error {
	e.sameRows = true
	return r.retype(e, name, tn, to, true)
}

// narrowsString: from text or character varying(m) to character
// varying(n), n < m. The stored strings stay as they are.
func narrowsString(from, to plan.Type) bool {
	if to.OID != pgtypes.Varchar || to.Typmod < 0 {
		return false
	}
	return from.OID == pgtypes.Text || from.OID == pgtypes.Varchar && (from.Typmod < 0 || from.Typmod > to.Typmod)
}

// Updates are the property changes that keep PGTypesProperty in step with
// the edited schema (entries of dropped or retyped columns pruned).
func (r *RecordedEdit) Updates(e *SchemaEdit) []catalog.Update {
	v := plan.EncodeRecordedTypes(plan.PruneRecordedTypes(r.rec, e.schema))
	if v == r.before {
		return nil
	}
	if v == "" {
		return []catalog.Update{catalog.RemoveProperties{Removals: []string{plan.PGTypesProperty}}}
	}
	return []catalog.Update{catalog.SetProperties{Updates: map[string]string{plan.PGTypesProperty: v}}}
}
