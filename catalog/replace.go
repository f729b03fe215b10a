package catalog

import (
	"fmt"
	"maps"
)

// ReplaceTable returns the requirements and updates that replace table m
// by spec the way Iceberg's replace-table transaction does (Spark's
// REPLACE TABLE and CREATE OR REPLACE TABLE): the table keeps its uuid,
// location, snapshots, snapshot log and refs other than main; spec's
// schema becomes current (a field whose name path the current schema has
// keeps its id, new fields get ids above last-column-id), its partition
// spec and sort order become the defaults (reusing identical ones), its
// properties are merged over the table's, and main is removed: the table
// has no current snapshot until the caller adds one (the replacement's
// rows) with a snapshot that has no parent. The requirements fail the
// commit (ErrCommitConflict) when the table changed since m.
func ReplaceTable(m *TableMetadata, spec TableSpec) ([]Requirement, []Update, error) {
	if spec.Schema == nil {
		return nil, nil, fmt.Errorf("replace table: no schema: %w", ErrDataInvalid)
	}
	if spec.FormatVersion != 0 && spec.FormatVersion < m.FormatVersion {
		return nil, nil, fmt.Errorf("replace table: cannot downgrade format version %d to %d: %w", m.FormatVersion, spec.FormatVersion, ErrDataInvalid)
	}
	schema, ids, last := reuseSchemaIDs(spec.Schema, m.CurrentSchema(), m.LastColumnID)
	newSpec, err := freshSpec(spec.Spec, schema, ids)
	if err != nil {
		return nil, nil, err
	}
	// A partition field of an existing spec with the same source and
	// transform keeps its field id; others get new ones.
	for i := range newSpec.Fields {
		f := &newSpec.Fields[i]
		f.FieldID = 0
		for _, old := range m.PartitionSpecs {
			for _, of := range old.Fields {
				if of.SourceID == f.SourceID && of.Transform == f.Transform && f.FieldID == 0 {
					f.FieldID, f.Name = of.FieldID, of.Name
				}
			}
		}
	}
	order, err := freshSortOrder(spec.SortOrder, ids)
	if err != nil {
		return nil, nil, err
	}
	reqs := []Requirement{
		AssertTableUUID{UUID: m.TableUUID},
		AssertCurrentSchemaID{SchemaID: m.CurrentSchemaID},
	}
	if cur := m.CurrentSnapshotID; cur != nil {
		id := *cur
		reqs = append(reqs, AssertRefSnapshotID{Ref: "main", SnapshotID: &id})
	} else {
		reqs = append(reqs, AssertRefSnapshotID{Ref: "main"})
	}
	var updates []Update
	if spec.FormatVersion > m.FormatVersion {
		updates = append(updates, UpgradeFormatVersion{FormatVersion: spec.FormatVersion})
	}
	updates = append(updates,
		AddSchema{Schema: schema, LastColumnID: max(last, m.LastColumnID)},
		SetCurrentSchema{SchemaID: LastAdded},
		AddSpec{Spec: newSpec},
		SetDefaultSpec{SpecID: LastAdded},
		AddSortOrder{SortOrder: order},
		SetDefaultSortOrder{SortOrderID: LastAdded},
	)
	if len(spec.Properties) > 0 {
		updates = append(updates, SetProperties{Updates: maps.Clone(spec.Properties)})
	}
	if _, ok := m.Refs["main"]; ok || m.CurrentSnapshotID != nil {
		updates = append(updates, RemoveSnapshotRef{Name: "main"})
	}
	return reqs, updates, nil
}

// reuseSchemaIDs numbers the fields of s: a field whose path of names
// (list elements, map keys and values included) base has keeps base's id,
// the others get ids above last. It returns the schema, the old->new id
// mapping and the highest id used.
func reuseSchemaIDs(s, base *Schema, last int) (*Schema, map[int]int, int) {
	const sep = "\x00"
	known := map[string]int{}
	var walkBase func(prefix string, t Type)
	walkBaseFields := func(prefix string, fs []NestedField) {
		for _, f := range fs {
			known[prefix+f.Name] = f.ID
			walkBase(prefix+f.Name+sep, f.Type)
		}
	}
	walkBase = func(prefix string, t Type) {
		switch t := t.(type) {
		case *StructType:
			walkBaseFields(prefix, t.Fields)
		case *ListType:
			known[prefix+"element"] = t.ElementID
			walkBase(prefix+"element"+sep, t.Element)
		case *MapType:
			known[prefix+"key"], known[prefix+"value"] = t.KeyID, t.ValueID
			walkBase(prefix+"key"+sep, t.Key)
			walkBase(prefix+"value"+sep, t.Value)
		}
	}
	if base != nil {
		walkBaseFields("", base.Fields)
	}
	ids := map[int]int{}
	used := map[int]bool{}
	next, highest := last, 0
	assign := func(path string, old int) int {
		id, ok := known[path]
		if !ok || used[id] {
			next++
			id = next
		}
		used[id] = true
		ids[old] = id
		highest = max(highest, id)
		return id
	}
	var fresh func(prefix string, t Type) Type
	freshFields := func(prefix string, fs []NestedField) []NestedField {
		out := append([]NestedField(nil), fs...)
		for i := range out {
			out[i].ID = assign(prefix+fs[i].Name, fs[i].ID)
			out[i].Type = fresh(prefix+fs[i].Name+sep, fs[i].Type)
		}
		return out
	}
	fresh = func(prefix string, t Type) Type {
		switch t := t.(type) {
		case *StructType:
			return &StructType{Fields: freshFields(prefix, t.Fields)}
		case *ListType:
			l := *t
			l.ElementID = assign(prefix+"element", t.ElementID)
			l.Element = fresh(prefix+"element"+sep, t.Element)
			return &l
		case *MapType:
			m := *t
			m.KeyID = assign(prefix+"key", t.KeyID)
			m.ValueID = assign(prefix+"value", t.ValueID)
			m.Key = fresh(prefix+"key"+sep, t.Key)
			m.Value = fresh(prefix+"value"+sep, t.Value)
			return &m
		}
		return t
	}
	out := &Schema{Fields: freshFields("", s.Fields)}
	for _, id := range s.IdentifierFieldIDs {
		out.IdentifierFieldIDs = append(out.IdentifierFieldIDs, ids[id])
	}
	return out, ids, highest
}
