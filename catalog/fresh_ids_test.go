package catalog

import (
	"errors"
	"slices"
	"testing"
)

// TestFreshSchema: ids are assigned level by level (a struct's fields
// before their children), identifier ids follow, and specs and sort orders
// are remapped to the new ids.
func TestFreshSchema(t *testing.T) {
	p := func(id TypeID) Type { return &PrimitiveType{ID: id} }
	in := &Schema{ID: 7, IdentifierFieldIDs: []int{50}, Fields: []NestedField{
		{ID: 40, Name: "a", Type: &StructType{Fields: []NestedField{{ID: 41, Name: "x", Type: p(TInt)}, {ID: 42, Name: "y", Type: p(TString)}}}},
		{ID: 30, Name: "b", Type: &ListType{ElementID: 31, Element: &StructType{Fields: []NestedField{{ID: 32, Name: "z", Type: p(TLong)}}}}},
		{ID: 20, Name: "c", Type: &MapType{KeyID: 21, Key: p(TString), ValueID: 22, Value: p(TInt)}},
		{ID: 50, Name: "d", Required: true, Type: p(TDate)},
	}}
	out, ids, last := FreshSchema(in)
	if last != 10 || out.ID != 0 || !slices.Equal(out.IdentifierFieldIDs, []int{4}) {
		t.Fatalf("last id %d, schema id %d, identifier ids %v", last, out.ID, out.IdentifierFieldIDs)
	}
	want := map[int]int{40: 1, 30: 2, 20: 3, 50: 4, 41: 5, 42: 6, 31: 7, 32: 8, 21: 9, 22: 10}
	for old, n := range want {
		if ids[old] != n {
			t.Errorf("field %d got id %d, want %d", old, ids[old], n)
		}
	}
	if f := out.FindField(8); f == nil || f.Name != "z" {
		t.Errorf("field 8 is %+v, want z", f)
	}
	if in.Fields[0].ID != 40 {
		t.Error("input schema modified")
	}
	spec, err := freshSpec(&PartitionSpec{Fields: []PartitionField{
		{SourceID: 50, Transform: Transform{Name: "month"}},
		{SourceID: 20 + 21, Transform: Transform{Name: "bucket", Param: 4}},
	}}, out, ids)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Fields[0].SourceID != 4 || spec.Fields[0].Name != "d_month" || spec.Fields[0].FieldID != 1000 ||
		spec.Fields[1].SourceID != 5 || spec.Fields[1].Name != "x_bucket" || spec.Fields[1].FieldID != 1001 {
		t.Errorf("fresh spec %+v", spec)
	}
	order, err := freshSortOrder(&SortOrder{Fields: []SortField{{SourceID: 50, Transform: Transform{Name: "identity"}, Direction: "desc"}}}, ids)
	if err != nil {
		t.Fatal(err)
	}
	if order.ID != 1 || order.Fields[0].SourceID != 4 || order.Fields[0].NullOrder != "nulls-last" {
		t.Errorf("fresh sort order %+v", order)
	}
	if _, err := freshSpec(&PartitionSpec{Fields: []PartitionField{{SourceID: 99}}}, out, ids); !errors.Is(err, ErrDataInvalid) {
		t.Errorf("spec on a missing column: %v", err)
	}
}
