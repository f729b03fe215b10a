package plan

import (
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgtypes"
)

// TestRecordedCharArrays: varchar(n)[], char(n)[], json[] and interval[]
// columns record their array type with the element's length as typmod;
// the record reads back as format_type prints it and fits only the lists
// they are stored as.
func TestRecordedCharArrays(t *testing.T) {
	str := &catalog.PrimitiveType{ID: catalog.TString}
	list := func(e catalog.Type) catalog.Type { return &catalog.ListType{ElementID: 9, Element: e} }
	n := 20
	parts := engine.IntervalPartsType(func() int { n++; return n })
	for _, c := range []struct {
		name string
		t    Type
		it   catalog.Type
	}{
		{"character varying(50)[]", Type{OID: pgtypes.VarcharArray, Typmod: 54}, list(str)},
		{"character varying[]", Type{OID: pgtypes.VarcharArray, Typmod: -1}, list(str)},
		{"character(2)[]", Type{OID: pgtypes.BPCharArray, Typmod: 6}, list(list(str))},
		{"json[]", Type{OID: pgtypes.JSONArray, Typmod: -1}, list(str)},
		{"interval[]", Type{OID: pgtypes.IntervalArray, Typmod: -1}, list(parts)},
	} {
		got, ok := ParseRecordedType(c.name)
		if !ok || got != c.t {
			t.Errorf("ParseRecordedType(%q) = %+v, %v; want %+v", c.name, got, ok, c.t)
		}
		if s := c.t.String(); s != c.name {
			t.Errorf("%+v prints as %q, want %q", c.t, s, c.name)
		}
		if !Recordable(c.t, c.it) {
			t.Errorf("Recordable(%s, %v) = false", c.name, c.it)
		}
		if Recordable(c.t, str) {
			t.Errorf("Recordable(%s, string) = true: a scalar is no array", c.name)
		}
	}
	if Recordable(Type{OID: pgtypes.VarcharArray, Typmod: 7}, list(&catalog.PrimitiveType{ID: catalog.TInt})) {
		t.Error("varchar(3)[] fits a list of int")
	}
	if Recordable(Type{OID: pgtypes.IntervalArray, Typmod: -1}, list(str)) {
		t.Error("interval[] fits a list of strings")
	}
	for _, e := range []uint32{pgtypes.Varchar, pgtypes.BPChar, pgtypes.JSON, pgtypes.Interval, pgtypes.XID, pgtypes.CID} {
		arr := pgtypes.ArrayOf(e)
		if arr == 0 || pgtypes.ElemOf(arr) != e || pgtypes.TypeName(arr) != pgtypes.TypeName(e)+"[]" && e != pgtypes.BPChar {
			t.Errorf("array of %d: %d (%q), element back %d", e, arr, pgtypes.TypeName(arr), pgtypes.ElemOf(arr))
		}
	}
}
