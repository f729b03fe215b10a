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
// smallint to their Iceberg types, and text or varchar to a shorter
// varchar(n) when fits (which reads the stored values) says they are at
// most n characters long; anything else that the recorded type would have
// to check is 0A000.
func (r *RecordedEdit) Retype(e *SchemaEdit, name string, tn *pg.TypeName, to catalog.Type, fits func(n int) error) error {
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
	case t.OID == pgtypes.Varchar && (from.OID == pgtypes.Varchar || from.OID == pgtypes.Text):
		keeps = from.OID == pgtypes.Varchar && from.Typmod >= 0 && from.Typmod <= t.Typmod
		if !keeps && fits != nil {
			if err := fits(int(t.Typmod - 4)); err != nil {
				return err
			}
			keeps = true
		}
	}
	if t.OID == pgtypes.VarcharArray && (from.OID == pgtypes.VarcharArray || from.OID == pgtypes.TextArray) {
		// varchar(n)[] to a longer length or none: the elements fit.
		keeps = t.Typmod < 0 || from.OID == pgtypes.VarcharArray && from.Typmod >= 0 && from.Typmod <= t.Typmod
	}
	if !keeps {
		return pgerr.Unsupported("changing column \"%s\" from %s to %s", name, from, t).
			WithHint("Values are not rewritten by ALTER COLUMN TYPE: create a new column, fill it with UPDATE and drop the old one.")
	}
	r.rec[f.ID] = t
	return nil
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

// FieldExisted reports whether m's current schema has a top-level column
// called name (one an ALTER TABLE did not add).
func FieldExisted(m *catalog.TableMetadata, name string) bool {
	schema := m.CurrentSchema()
	return schema != nil && fieldIndex(schema.Fields, name) >= 0
}
