package catalog

import "encoding/json"

// NameMappingProperty is the table property holding the default name
// mapping: how readers find the columns of data files written without
// field ids (files added by add_files), by name.
const NameMappingProperty = "schema.name-mapping.default"

// mappedField is one entry of a name mapping (spec "Column Projection").
type mappedField struct {
	FieldID int           `json:"field-id"`
	Names   []string      `json:"names"`
	Fields  []mappedField `json:"fields,omitempty"`
}

// NameMapping is the JSON name mapping of s: every field, nested ones
// included (list elements as "element", map keys and values as "key" and
// "value"), mapped from its current name to its id.
func NameMapping(s *Schema) (string, error) {
	b, err := json.Marshal(mapFields(s.Fields))
	return string(b), err
}

func mapFields(fs []NestedField) []mappedField {
	out := make([]mappedField, 0, len(fs))
	for _, f := range fs {
		out = append(out, mappedField{FieldID: f.ID, Names: []string{f.Name}, Fields: mapNested(f.Type)})
	}
	return out
}

func mapNested(t Type) []mappedField {
	switch t := t.(type) {
	case *StructType:
		return mapFields(t.Fields)
	case *ListType:
		return []mappedField{{FieldID: t.ElementID, Names: []string{"element"}, Fields: mapNested(t.Element)}}
	case *MapType:
		return []mappedField{
			{FieldID: t.KeyID, Names: []string{"key"}, Fields: mapNested(t.Key)},
			{FieldID: t.ValueID, Names: []string{"value"}, Fields: mapNested(t.Value)},
		}
	}
	return nil
}
