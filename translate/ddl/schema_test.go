package ddl

import (
	"testing"

	"github.com/icegate/icegate/catalog"
)

// A column made required after its rows were checked commits only while
// main is still at the snapshot that was checked: a row written since may
// be NULL.
func TestRequireCheckedAssertsTheCheckedSnapshot(t *testing.T) {
	snap := int64(42)
	tbl := &catalog.Table{Ident: catalog.Identifier{Namespace: []string{"ns"}, Name: "t"}, Metadata: &catalog.TableMetadata{
		TableUUID: "u", CurrentSchemaID: 0, LastColumnID: 2, CurrentSnapshotID: &snap,
		Schemas: []*catalog.Schema{{ID: 0, Fields: []catalog.NestedField{
			{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TInt}},
			{ID: 2, Name: "v", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		}}},
	}}
	for _, tc := range []struct {
		column string
		want   bool
	}{{"id", false}, {"v", true}} {
		e := NewSchemaEdit(tbl)
		if err := e.RequireChecked(tc.column); err != nil {
			t.Fatal(err)
		}
		var got *catalog.AssertRefSnapshotID
		for _, r := range e.Requirements() {
			if a, ok := r.(catalog.AssertRefSnapshotID); ok {
				got = &a
			}
		}
		if (got != nil) != tc.want {
			t.Fatalf("%s: snapshot requirement %v, want one: %v", tc.column, got, tc.want)
		}
		if got != nil && (got.Ref != "main" || got.SnapshotID == nil || *got.SnapshotID != snap) {
			t.Errorf("%s: requirement %+v, want main at %d", tc.column, *got, snap)
		}
	}
}
