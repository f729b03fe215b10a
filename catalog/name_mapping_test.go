package catalog

import "testing"

// TestNameMapping maps every field, nested ones under Iceberg's names for
// list elements and map keys and values.
func TestNameMapping(t *testing.T) {
	s := &Schema{Fields: []NestedField{
		{ID: 1, Name: "id", Type: &PrimitiveType{ID: TLong}},
		{ID: 2, Name: "tags", Type: &ListType{ElementID: 5, Element: &PrimitiveType{ID: TString}}},
		{ID: 3, Name: "attrs", Type: &MapType{KeyID: 6, Key: &PrimitiveType{ID: TString}, ValueID: 7,
			Value: &StructType{Fields: []NestedField{{ID: 8, Name: "x", Type: &PrimitiveType{ID: TInt}}}}}},
		{ID: 4, Name: "Point", Type: &StructType{Fields: []NestedField{{ID: 9, Name: "lat", Type: &PrimitiveType{ID: TDouble}}}}},
	}}
	got, err := NameMapping(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"field-id":1,"names":["id"]},` +
		`{"field-id":2,"names":["tags"],"fields":[{"field-id":5,"names":["element"]}]},` +
		`{"field-id":3,"names":["attrs"],"fields":[{"field-id":6,"names":["key"]},{"field-id":7,"names":["value"],"fields":[{"field-id":8,"names":["x"]}]}]},` +
		`{"field-id":4,"names":["Point"],"fields":[{"field-id":9,"names":["lat"]}]}]`
	if got != want {
		t.Errorf("mapping\n got %s\nwant %s", got, want)
	}
}
