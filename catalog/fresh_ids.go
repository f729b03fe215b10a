package catalog

import (
	"fmt"
	"slices"
)

// FreshSchema returns schema with field ids reassigned the way the spec's
// reference implementation does for new tables: the fields of a struct get
// consecutive ids before their children are visited, list elements and map
// keys/values likewise. It returns the old->new id mapping and the highest
// id assigned.
func FreshSchema(s *Schema) (*Schema, map[int]int, int) {
	next := 0
	ids := map[int]int{}
	assign := func(old int) int {
		next++
		ids[old] = next
		return next
	}
	var freshType func(t Type) Type
	freshFields := func(fs []NestedField) []NestedField {
		out := slices.Clone(fs)
		for i := range out {
			out[i].ID = assign(fs[i].ID)
		}
		for i := range out {
			out[i].Type = freshType(fs[i].Type)
		}
		return out
	}
	freshType = func(t Type) Type {
		switch t := t.(type) {
		case *StructType:
			return &StructType{Fields: freshFields(t.Fields)}
		case *ListType:
			l := *t
			l.ElementID = assign(t.ElementID)
			l.Element = freshType(t.Element)
			return &l
		case *MapType:
			m := *t
			m.KeyID = assign(t.KeyID)
			m.ValueID = assign(t.ValueID)
			m.Key = freshType(t.Key)
			m.Value = freshType(t.Value)
			return &m
		}
		return t
	}
	out := &Schema{ID: 0, Fields: freshFields(s.Fields)}
	for _, id := range s.IdentifierFieldIDs {
		out.IdentifierFieldIDs = append(out.IdentifierFieldIDs, ids[id])
	}
	return out, ids, next
}

// freshSpec maps a spec's source ids through ids and numbers its fields
// from 1000, naming unnamed fields the usual way (col, col_bucket, ...).
func freshSpec(spec *PartitionSpec, schema *Schema, ids map[int]int) (*PartitionSpec, error) {
	out := &PartitionSpec{ID: 0}
	if spec == nil {
		return out, nil
	}
	for i, f := range spec.Fields {
		src, ok := ids[f.SourceID]
		if !ok {
			return nil, fmt.Errorf("partition field %d: source column %d is not in the schema: %w", i, f.SourceID, ErrDataInvalid)
		}
		name := f.Name
		if name == "" {
			col := schema.FindField(src)
			name = defaultPartitionName(col.Name, f.Transform)
		}
		out.Fields = append(out.Fields, PartitionField{SourceID: src, FieldID: 1000 + i, Name: name, Transform: f.Transform})
	}
	return out, nil
}

func defaultPartitionName(col string, tr Transform) string {
	switch tr.Name {
	case "identity":
		return col
	case "bucket":
		return col + "_bucket"
	case "truncate":
		return col + "_trunc"
	case "void":
		return col + "_null"
	}
	return col + "_" + tr.Name
}

// freshSortOrder maps a sort order's source ids through ids; a sorted order
// gets id 1, the unsorted order id 0.
func freshSortOrder(order *SortOrder, ids map[int]int) (*SortOrder, error) {
	if order == nil || len(order.Fields) == 0 {
		return &SortOrder{ID: 0}, nil
	}
	out := &SortOrder{ID: 1}
	for i, f := range order.Fields {
		src, ok := ids[f.SourceID]
		if !ok {
			return nil, fmt.Errorf("sort field %d: source column %d is not in the schema: %w", i, f.SourceID, ErrDataInvalid)
		}
		f.SourceID = src
		if f.Direction == "" {
			f.Direction = "asc"
		}
		if f.NullOrder == "" {
			f.NullOrder = "nulls-first"
			if f.Direction == "desc" {
				f.NullOrder = "nulls-last"
			}
		}
		out.Fields = append(out.Fields, f)
	}
	return out, nil
}

// NewTableMetadata builds the first metadata of a table from spec with fresh
// ids, at location, with the given uuid.
func NewTableMetadata(spec TableSpec, location, uuid string) (*TableMetadata, error) {
	if spec.Schema == nil {
		return nil, fmt.Errorf("create table: no schema: %w", ErrDataInvalid)
	}
	version := spec.FormatVersion
	if version == 0 {
		version = DefaultFormatVersion
	}
	b, err := NewMetadataBuilder(version)
	if err != nil {
		return nil, err
	}
	schema, ids, last := FreshSchema(spec.Schema)
	pspec, err := freshSpec(spec.Spec, schema, ids)
	if err != nil {
		return nil, err
	}
	order, err := freshSortOrder(spec.SortOrder, ids)
	if err != nil {
		return nil, err
	}
	props := map[string]string{}
	for k, v := range spec.Properties {
		props[k] = v
	}
	err = b.Apply(
		AssignUUID{UUID: uuid},
		AddSchema{Schema: schema, LastColumnID: last},
		SetCurrentSchema{SchemaID: LastAdded},
		AddSpec{Spec: pspec},
		SetDefaultSpec{SpecID: LastAdded},
		AddSortOrder{SortOrder: order},
		SetDefaultSortOrder{SortOrderID: LastAdded},
		SetLocation{Location: location},
		SetProperties{Updates: props},
	)
	if err != nil {
		return nil, fmt.Errorf("create table: %w", err)
	}
	return b.Build()
}
