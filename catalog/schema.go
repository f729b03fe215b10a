package catalog

// Schema is one schema of a table: a struct of top-level fields with field
// ids, plus the identifier field ids (the row key used by upserts).
type Schema struct {
	ID                 int
	Fields             []NestedField
	IdentifierFieldIDs []int
}

// FindField returns the field with id anywhere in the schema (nested fields
// included), or nil.
func (s *Schema) FindField(id int) *NestedField {
	var walk func(fs []NestedField) *NestedField
	var walkType func(t Type) *NestedField
	walk = func(fs []NestedField) *NestedField {
		for i := range fs {
			if fs[i].ID == id {
				return &fs[i]
			}
			if f := walkType(fs[i].Type); f != nil {
				return f
			}
		}
		return nil
	}
	walkType = func(t Type) *NestedField {
		switch t := t.(type) {
		case *StructType:
			return walk(t.Fields)
		case *ListType:
			if t.ElementID == id {
				return &NestedField{ID: t.ElementID, Name: "element", Required: t.ElementRequired, Type: t.Element}
			}
			return walkType(t.Element)
		case *MapType:
			if t.KeyID == id {
				return &NestedField{ID: t.KeyID, Name: "key", Required: true, Type: t.Key}
			}
			if t.ValueID == id {
				return &NestedField{ID: t.ValueID, Name: "value", Required: t.ValueRequired, Type: t.Value}
			}
			if f := walkType(t.Key); f != nil {
				return f
			}
			return walkType(t.Value)
		}
		return nil
	}
	return walk(s.Fields)
}
