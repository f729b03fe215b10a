package catalog

import "testing"

// TestReuseSchemaIDs checks that a replacement schema keeps the ids of the
// fields whose name path the base schema has, nested ones included, and
// numbers new fields above last-column-id.
func TestReuseSchemaIDs(t *testing.T) {
	str := &PrimitiveType{ID: TString}
	i32 := &PrimitiveType{ID: TInt}
	base := &Schema{Fields: []NestedField{
		{ID: 1, Name: "id", Type: i32},
		{ID: 2, Name: "tags", Type: &ListType{ElementID: 4, Element: str}},
		{ID: 3, Name: "attrs", Type: &MapType{KeyID: 5, Key: str, ValueID: 6, Value: &StructType{Fields: []NestedField{{ID: 7, Name: "a", Type: i32}}}}},
	}}
	// as CREATE TABLE numbers it: from 1
	next := &Schema{Fields: []NestedField{
		{ID: 1, Name: "attrs", Type: &MapType{KeyID: 4, Key: str, ValueID: 5, Value: &StructType{Fields: []NestedField{{ID: 6, Name: "b", Type: i32}, {ID: 7, Name: "a", Type: str}}}}},
		{ID: 2, Name: "id", Type: str},
		{ID: 3, Name: "new", Type: i32},
	}, IdentifierFieldIDs: []int{2}}
	got, ids, highest := reuseSchemaIDs(next, base, 7)
	m := got.Fields[0].Type.(*MapType)
	inner := m.Value.(*StructType)
	if got.Fields[0].ID != 3 || m.KeyID != 5 || m.ValueID != 6 || inner.Fields[1].ID != 7 || got.Fields[1].ID != 1 {
		t.Errorf("kept ids: %+v / %+v", got.Fields, inner.Fields)
	}
	if inner.Fields[0].ID != 8 || got.Fields[2].ID != 9 || highest != 9 {
		t.Errorf("new ids: b=%d new=%d highest=%d, want 8, 9, 9", inner.Fields[0].ID, got.Fields[2].ID, highest)
	}
	if len(got.IdentifierFieldIDs) != 1 || got.IdentifierFieldIDs[0] != 1 || ids[2] != 1 {
		t.Errorf("identifier fields %v, ids %v", got.IdentifierFieldIDs, ids)
	}
}
