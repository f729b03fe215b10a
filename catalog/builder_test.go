package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func baseMetadata(t *testing.T, version int) *TableMetadata {
	t.Helper()
	m, err := NewTableMetadata(eventsSpec(version), "/wh/db/t", "d1e2f3a4-0000-4000-8000-000000000001")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func testSnapshot(id, seq int64, parent *int64) *Snapshot {
	return &Snapshot{SnapshotID: id, ParentSnapshotID: parent, SequenceNumber: seq, TimestampMs: 1000 + id,
		ManifestList: fmt.Sprintf("/wh/db/t/metadata/snap-%d.avro", id), Summary: map[string]string{"operation": "append"}}
}

func v3Snapshot(id, seq, first, added int64) *Snapshot {
	s := testSnapshot(id, seq, nil)
	s.FirstRowID, s.AddedRows = &first, &added
	return s
}

// TestBuilderRejectsInvalidUpdates: every invalid update is ErrDataInvalid
// (or ErrUnsupported) and names its action.
func TestBuilderRejectsInvalidUpdates(t *testing.T) {
	long := &PrimitiveType{ID: TLong}
	one := int64(1)
	for _, tc := range []struct {
		name    string
		version int
		updates []Update
		want    error
	}{
		{"stale sequence number", 2, []Update{AddSnapshot{testSnapshot(1, 1, nil)}, AddSnapshot{testSnapshot(2, 1, &one)}}, ErrCommitConflict},
		{"duplicate snapshot id", 2, []Update{AddSnapshot{testSnapshot(1, 1, nil)}, AddSnapshot{testSnapshot(1, 2, nil)}}, ErrDataInvalid},
		{"snapshot without operation", 2, []Update{AddSnapshot{&Snapshot{SnapshotID: 5, SequenceNumber: 1, ManifestList: "x"}}}, ErrDataInvalid},
		{"stale first row id", 3, []Update{AddSnapshot{v3Snapshot(1, 1, 0, 5)}, AddSnapshot{v3Snapshot(2, 2, 3, 1)}}, ErrCommitConflict},
		{"v3 snapshot without row ids", 3, []Update{AddSnapshot{testSnapshot(1, 1, nil)}}, ErrDataInvalid},
		{"ref to missing snapshot", 2, []Update{SetSnapshotRef{Name: "main", Ref: SnapshotRef{SnapshotID: 9, Type: "branch"}}}, ErrDataInvalid},
		{"main as a tag", 2, []Update{AddSnapshot{testSnapshot(1, 1, nil)}, SetSnapshotRef{Name: "main", Ref: SnapshotRef{SnapshotID: 1, Type: "tag"}}}, ErrDataInvalid},
		{"missing current schema", 2, []Update{SetCurrentSchema{SchemaID: 7}}, ErrDataInvalid},
		{"last added schema without one", 2, []Update{SetCurrentSchema{SchemaID: LastAdded}}, ErrDataInvalid},
		{"field id above last-column-id", 2, []Update{AddSchema{Schema: &Schema{Fields: []NestedField{{ID: 9, Name: "x", Type: long}}}, LastColumnID: 5}}, ErrDataInvalid},
		{"last-column-id decreases", 2, []Update{AddSchema{Schema: &Schema{Fields: []NestedField{{ID: 1, Name: "x", Type: long}}}, LastColumnID: 1}}, ErrDataInvalid},
		{"duplicate field id", 2, []Update{AddSchema{Schema: &Schema{Fields: []NestedField{{ID: 1, Name: "x", Type: long}, {ID: 1, Name: "y", Type: long}}}}}, ErrDataInvalid},
		{"spec on missing column", 2, []Update{AddSpec{Spec: &PartitionSpec{Fields: []PartitionField{{SourceID: 42, Name: "p", Transform: Transform{Name: "identity"}}}}}}, ErrDataInvalid},
		{"spec with unknown transform", 2, []Update{AddSpec{Spec: &PartitionSpec{Fields: []PartitionField{{SourceID: 1, Name: "p", Transform: Transform{Name: "zorder"}}}}}}, ErrDataInvalid},
		{"duplicate partition field id", 2, []Update{AddSpec{Spec: &PartitionSpec{Fields: []PartitionField{
			{SourceID: 1, FieldID: 1005, Name: "p", Transform: Transform{Name: "identity"}},
			{SourceID: 2, FieldID: 1005, Name: "q", Transform: Transform{Name: "identity"}}}}}}, ErrDataInvalid},
		{"missing default spec", 2, []Update{SetDefaultSpec{SpecID: 3}}, ErrDataInvalid},
		{"sort order with bad direction", 2, []Update{AddSortOrder{SortOrder: &SortOrder{Fields: []SortField{{SourceID: 1, Transform: Transform{Name: "identity"}, Direction: "up", NullOrder: "nulls-first"}}}}}, ErrDataInvalid},
		{"missing default sort order", 2, []Update{SetDefaultSortOrder{SortOrderID: 4}}, ErrDataInvalid},
		{"downgrade", 2, []Update{UpgradeFormatVersion{FormatVersion: 1}}, ErrDataInvalid},
		{"upgrade to v4", 2, []Update{UpgradeFormatVersion{FormatVersion: 4}}, ErrUnsupported},
		{"reassign uuid", 2, []Update{AssignUUID{UUID: "other"}}, ErrDataInvalid},
		{"empty location", 2, []Update{SetLocation{}}, ErrDataInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewMetadataBuilderFrom(baseMetadata(t, tc.version), "")
			err := b.Apply(tc.updates...)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.updates[len(tc.updates)-1].Action()) {
				t.Errorf("error %q does not name %s", err, tc.updates[len(tc.updates)-1].Action())
			}
		})
	}
}

// TestBuilderUpdates applies one valid update of each kind and checks the
// metadata that results, written and parsed back.
func TestBuilderUpdates(t *testing.T) {
	base := baseMetadata(t, 1)
	b := NewMetadataBuilderFrom(base, "/wh/db/t/metadata/v1.metadata.json")
	one, two := int64(1), int64(2)
	keep := 3
	cur := base.CurrentSchema()
	wider := &Schema{Fields: append(append([]NestedField(nil), cur.Fields...), NestedField{ID: 3, Name: "note", Type: &PrimitiveType{ID: TString}, WriteDefault: "n/a", InitialDefault: "n/a"}), IdentifierFieldIDs: cur.IdentifierFieldIDs}
	s1, s2 := testSnapshot(1, 1, nil), testSnapshot(2, 2, &one)
	err := b.Apply(
		UpgradeFormatVersion{FormatVersion: 2},
		AddSchema{Schema: wider},
		SetCurrentSchema{SchemaID: LastAdded},
		AddSpec{Spec: &PartitionSpec{Fields: []PartitionField{{SourceID: 1, Name: "id_bucket", Transform: Transform{Name: "bucket", Param: 8}}}}},
		SetDefaultSpec{SpecID: LastAdded},
		AddSortOrder{SortOrder: &SortOrder{Fields: []SortField{{SourceID: 1, Transform: Transform{Name: "identity"}, Direction: "desc", NullOrder: "nulls-last"}}}},
		SetDefaultSortOrder{SortOrderID: LastAdded},
		AddSnapshot{s1},
		SetSnapshotRef{Name: "main", Ref: SnapshotRef{SnapshotID: 1, Type: "branch"}},
		AddSnapshot{s2},
		SetSnapshotRef{Name: "main", Ref: SnapshotRef{SnapshotID: 2, Type: "branch", MinSnapshotsToKeep: &keep}},
		SetSnapshotRef{Name: "v1-tag", Ref: SnapshotRef{SnapshotID: 1, Type: "tag"}},
		SetProperties{Updates: map[string]string{"a": "1", "b": "2"}},
		RemoveProperties{Removals: []string{"b", "owner"}},
		SetLocation{Location: "/wh/db/t2"},
	)
	if err != nil {
		t.Fatal(err)
	}
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	data, err := MarshalMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	m, err = ParseMetadata(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	checks := []struct {
		what string
		ok   bool
	}{
		{"format version 2", m.FormatVersion == 2},
		{"current schema 1 with 3 columns", m.CurrentSchemaID == 1 && len(m.CurrentSchema().Fields) == 3 && m.LastColumnID == 3},
		{"defaults kept", m.CurrentSchema().Fields[2].WriteDefault == "n/a"},
		{"default spec 1 with field 1001", m.DefaultSpecID == 1 && m.SpecByID(1).Fields[0].FieldID == 1001 && m.LastPartitionID == 1001},
		{"default sort order 1", m.DefaultSortOrderID == 1 && len(m.SortOrders) == 2},
		{"current snapshot 2, seq 2", m.CurrentSnapshotID != nil && *m.CurrentSnapshotID == 2 && m.LastSequenceNumber == 2},
		{"snapshot log of 2", len(m.SnapshotLog) == 2 && m.SnapshotLog[1].SnapshotID == 2 && m.SnapshotLog[1].TimestampMs == s2.TimestampMs},
		{"main keeps retention", m.Refs["main"].MinSnapshotsToKeep != nil && *m.Refs["main"].MinSnapshotsToKeep == 3},
		{"tag", m.Refs["v1-tag"].Type == "tag" && m.Refs["v1-tag"].SnapshotID == 1},
		{"properties", m.Properties["a"] == "1" && m.Properties["b"] == "" && m.Properties["owner"] == ""},
		{"location", m.Location == "/wh/db/t2"},
		{"metadata log", len(m.MetadataLog) == 1 && m.MetadataLog[0].MetadataFile == "/wh/db/t/metadata/v1.metadata.json" && m.MetadataLog[0].TimestampMs == base.LastUpdatedMs},
		{"last updated", m.LastUpdatedMs >= base.LastUpdatedMs},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: %+v", c.what, m)
		}
	}

	// Removing snapshots drops their refs and log entries; removing main
	// leaves no current snapshot.
	b = NewMetadataBuilderFrom(m, "")
	if err := b.Apply(RemoveSnapshots{SnapshotIDs: []int64{1}}, RemoveSnapshotRef{Name: "main"}); err != nil {
		t.Fatal(err)
	}
	m2, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if len(m2.Snapshots) != 1 || m2.CurrentSnapshotID != nil || len(m2.Refs) != 0 || len(m2.SnapshotLog) != 1 || m2.SnapshotByID(two) == nil {
		t.Errorf("after removals: snapshots %d, current %v, refs %v, log %v", len(m2.Snapshots), m2.CurrentSnapshotID, m2.Refs, m2.SnapshotLog)
	}
	// Re-adding an identical schema reuses its id.
	b = NewMetadataBuilderFrom(m, "")
	if err := b.Apply(AddSchema{Schema: wider}, SetCurrentSchema{SchemaID: LastAdded}); err != nil {
		t.Fatal(err)
	}
	if m3, err := b.Build(); err != nil || len(m3.Schemas) != 2 || m3.CurrentSchemaID != 1 {
		t.Errorf("identical schema added again: %v %+v", err, m3)
	}
}

// TestMarshalMetadataV1Legacy: v1 metadata carries schema and
// partition-spec, and no sequence numbers.
func TestMarshalMetadataV1Legacy(t *testing.T) {
	data, err := MarshalMetadata(baseMetadata(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, want := range []string{`"schema": {`, `"partition-spec": [`, `"field-id": 1000`, `"identifier-field-ids": [`} {
		if !strings.Contains(s, want) {
			t.Errorf("v1 metadata lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "last-sequence-number") || strings.Contains(s, "next-row-id") {
		t.Errorf("v1 metadata has v2+ fields:\n%s", s)
	}
	data, err = MarshalMetadata(baseMetadata(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"next-row-id": 0`) || strings.Contains(string(data), `"schema": {`) {
		t.Errorf("v3 metadata:\n%s", data)
	}
}

// TestMetadataLogRetention: previous-versions-max bounds the metadata log
// and delete-after-commit removes the files that fall off it.
func TestMetadataLogRetention(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "kept"}
	spec := eventsSpec(2)
	spec.Properties = map[string]string{PropPreviousVersionsMax: "2", PropDeleteAfterCommit: "true"}
	tbl, err := cat.CreateTable(ctx, id, spec)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if tbl, err = Append(ctx, cat, id, []*DataFile{writeEvents(t, tbl, fmt.Sprintf("f%d", i), "red", 1)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	m := tbl.Metadata
	if len(m.MetadataLog) != 2 || !strings.HasSuffix(m.MetadataLog[0].MetadataFile, "v3.metadata.json") || !strings.HasSuffix(m.MetadataLog[1].MetadataFile, "v4.metadata.json") {
		t.Fatalf("metadata log %+v", m.MetadataLog)
	}
	metaDir := filepath.Dir(tbl.MetadataLocation)
	for _, n := range []string{"v1.metadata.json", "v2.metadata.json"} {
		if _, err := os.Stat(filepath.Join(metaDir, n)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s not deleted: %v", n, err)
		}
	}
	for _, n := range []string{"v3.metadata.json", "v4.metadata.json", "v5.metadata.json"} {
		if _, err := os.Stat(filepath.Join(metaDir, n)); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if got := len(livePaths(t, tbl)); got != 4 {
		t.Errorf("%d live files, want 4", got)
	}
}

// TestUpgradeThenAppend upgrades a v1 table with data to v2 and v3 and
// appends after each step: sequence numbers start at 1 and row ids cover
// the rows written before the upgrade.
func TestUpgradeThenAppend(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "old"}
	tbl, err := cat.CreateTable(ctx, id, eventsSpec(1))
	if err != nil {
		t.Fatal(err)
	}
	if tbl, err = Append(ctx, cat, id, []*DataFile{writeEvents(t, tbl, "v1", "red", 2)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err = cat.CommitTable(ctx, id, []Requirement{AssertTableUUID{UUID: tbl.Metadata.TableUUID}}, []Update{UpgradeFormatVersion{FormatVersion: 2}}); err != nil {
		t.Fatal(err)
	}
	if tbl, err = Append(ctx, cat, id, []*DataFile{writeEvents(t, tbl, "v2", "red", 3)}, nil); err != nil {
		t.Fatal(err)
	}
	if tbl.Metadata.CurrentSnapshot().SequenceNumber != 1 {
		t.Errorf("first v2 snapshot has sequence number %d", tbl.Metadata.CurrentSnapshot().SequenceNumber)
	}
	if _, err = cat.CommitTable(ctx, id, nil, []Update{UpgradeFormatVersion{FormatVersion: 3}}); err != nil {
		t.Fatal(err)
	}
	if tbl, err = Append(ctx, cat, id, []*DataFile{writeEvents(t, tbl, "v3", "blue", 4)}, nil); err != nil {
		t.Fatal(err)
	}
	m := tbl.Metadata
	snap := m.CurrentSnapshot()
	if m.FormatVersion != 3 || snap.SequenceNumber != 2 || *snap.FirstRowID != 0 || *snap.AddedRows != 9 || *m.NextRowID != 9 {
		t.Errorf("v3 append: version %d seq %d first-row-id %v added-rows %v next %v", m.FormatVersion, snap.SequenceNumber, *snap.FirstRowID, *snap.AddedRows, *m.NextRowID)
	}
	seen := map[int64]bool{}
	for _, task := range planCurrent(t, tbl) {
		f := task.File
		if f.FirstRowID == nil {
			t.Errorf("%s has no first row id", f.Path)
			continue
		}
		for r := *f.FirstRowID; r < *f.FirstRowID+f.RecordCount; r++ {
			if seen[r] {
				t.Errorf("row id %d assigned twice", r)
			}
			seen[r] = true
		}
	}
	if len(seen) != 9 {
		t.Errorf("%d row ids, want 9", len(seen))
	}
}
