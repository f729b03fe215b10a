package plan

import (
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
)

// TestRecordedArrayTypes: a list of lists records its element's array
// type, which reads back and fits only lists of at least two levels of
// that element.
func TestRecordedArrayTypes(t *testing.T) {
	prim := func(id catalog.TypeID) catalog.Type { return &catalog.PrimitiveType{ID: id} }
	list := func(e catalog.Type) catalog.Type { return &catalog.ListType{ElementID: 9, Element: e} }
	intArr := Type{OID: pgtypes.ArrayOf(pgtypes.Int4), Typmod: -1}
	for _, c := range []struct {
		it   catalog.Type
		t    Type
		dims int
		fits bool
	}{
		{list(list(prim(catalog.TInt))), intArr, 2, true},
		{list(list(list(prim(catalog.TInt)))), intArr, 3, true},
		{list(prim(catalog.TInt)), intArr, 1, false},          // one dimension needs no record
		{list(list(prim(catalog.TLong))), intArr, 2, false},   // another element type
		{list(list(&catalog.StructType{})), intArr, 0, false}, // not an array
		{prim(catalog.TString), Type{OID: pgtypes.Text, Typmod: -1}, 0, false},
	} {
		if got := ArrayDims(c.it); got != c.dims {
			t.Errorf("ArrayDims(%v) = %d, want %d", c.it, got, c.dims)
		}
		if got := Recordable(c.t, c.it); got != c.fits {
			t.Errorf("Recordable(%s, %v) = %v, want %v", c.t, c.it, got, c.fits)
		}
	}
	for _, name := range []string{"integer[]", "text[]", "timestamp with time zone[]", "double precision[]"} {
		rt, ok := ParseRecordedType(name)
		if !ok || rt.String() != name {
			t.Errorf("ParseRecordedType(%q) = %s, %v", name, rt, ok)
		}
	}
	if _, ok := ParseRecordedType("nosuch[]"); ok {
		t.Error("nosuch[] parsed")
	}
	enc := EncodeRecordedTypes(map[int]Type{3: intArr})
	if back := RecordedTypes(map[string]string{PGTypesProperty: enc}); back[3] != intArr {
		t.Errorf("round trip of %s: %v", enc, back)
	}
}
