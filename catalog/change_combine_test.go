package catalog

import (
	"context"
	"reflect"
	"testing"
)

// TestCombine merges a transaction's statements: files added and later
// removed drop out, removals of base files add up, references stay those
// of base files, properties merge, the filter and isolation combine; the
// combined change commits as one snapshot with the plan of the statements
// applied one by one.
func TestCombine(t *testing.T) {
	ctx := context.Background()
	b := newValidationBase(t, 3)
	tbl := b.tbl
	redOnly := []Predicate{{FieldID: 2, Op: OpEq, Values: []any{"red"}}}
	x := fakeData(tbl, "x", "red", 2)
	y := fakeData(tbl, "y", "red", 1)
	dvX := fakeDV(tbl, "px", 4, x, 1)
	dvA1 := fakeDV(tbl, "pa", 4, b.a1, 2)
	dvA1b := fakeDV(tbl, "pb", 8, b.a1, 3)
	// 1: INSERT x. 2: DELETE a row of x and one of a1 (replacing a1's DV).
	// 3: UPDATE x by copy-on-write into y, and a1's DV again.
	changes := []*Change{
		{AddedDataFiles: []*DataFile{x}, Properties: map[string]string{"app": "one", "k": "1"}, BaseSnapshotID: b.base, Isolation: SnapshotIsolation},
		{AddedDeleteFiles: []*DataFile{dvX, dvA1}, RemovedDeleteFiles: []*DataFile{b.d0}, ReferencedDataFiles: []string{x.Path, b.a1.Path},
			Properties: map[string]string{"app": "two"}, Isolation: SnapshotIsolation, ConflictFilter: redOnly},
		{AddedDataFiles: []*DataFile{y}, RemovedDataFiles: []*DataFile{x}, AddedDeleteFiles: []*DataFile{dvA1b}, RemovedDeleteFiles: []*DataFile{dvX, dvA1},
			ReferencedDataFiles: []string{x.Path, b.a1.Path}, Isolation: Serializable, ConflictFilter: redOnly},
	}
	got := Combine(changes)
	names := func(files []*DataFile) []string {
		var out []string
		for _, f := range files {
			n := baseName(f.Path)
			if f.ContentOffset != nil {
				n += "@" + itoa64(*f.ContentOffset)
			}
			out = append(out, n)
		}
		return out
	}
	check := func(what string, got, want []string) {
		t.Helper()
		if !equalStrings(got, want) {
			t.Errorf("%s %v, want %v", what, got, want)
		}
	}
	check("added data", names(got.AddedDataFiles), []string{"y.parquet"})
	check("added deletes", names(got.AddedDeleteFiles), []string{"pb.puffin@8"})
	check("removed data", names(got.RemovedDataFiles), nil)
	check("removed deletes", names(got.RemovedDeleteFiles), []string{"p0.puffin@4"})
	check("referenced", got.ReferencedDataFiles, []string{b.a1.Path})
	if *got.BaseSnapshotID != *b.base || got.Isolation != Serializable || !reflect.DeepEqual(got.ConflictFilter, redOnly) ||
		!reflect.DeepEqual(got.Properties, map[string]string{"app": "two", "k": "1"}) || got.Operation != "" {
		t.Errorf("combined base %v isolation %v filter %v properties %v operation %q", *got.BaseSnapshotID, got.Isolation, got.ConflictFilter, got.Properties, got.Operation)
	}

	// Staged one by one on top of each other, and combined, the plans agree.
	staged := tbl
	for _, c := range changes {
		out, err := b.cat.NewOutput(staged)
		if err != nil {
			t.Fatal(err)
		}
		st, err := StageChange(ctx, out, staged, c)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Discard(ctx)
		staged = st.Table
	}
	committed := mustCommit(t, b.cat, b.id, got)
	want := []string{"a1.parquet: pb.puffin@8", "a2.parquet: ", "y.parquet: "}
	check("plan of the staged statements", planned(t, staged), want)
	check("plan of the combined commit", planned(t, committed), want)
	if n := len(committed.Metadata.Snapshots); n != 3 {
		t.Errorf("%d snapshots, want 3 (the transaction's one)", n)
	}
	wantSummary(t, committed.Metadata.CurrentSnapshot(), map[string]string{"operation": "overwrite", "app": "two", "added-dvs": "1", "removed-dvs": "1", "added-data-files": "1"})

	// A filter differing between statements is the whole table.
	other := []Predicate{{FieldID: 2, Op: OpEq, Values: []any{"blue"}}}
	mixed := Combine([]*Change{
		{ReferencedDataFiles: []string{"a"}, ConflictFilter: redOnly, Isolation: SnapshotIsolation},
		{ReferencedDataFiles: []string{"b"}, ConflictFilter: other, Isolation: SnapshotIsolation},
	})
	if mixed.ConflictFilter != nil || mixed.Isolation != SnapshotIsolation || !equalStrings(mixed.ReferencedDataFiles, []string{"a", "b"}) {
		t.Errorf("mixed filters: %+v", mixed)
	}
	if one := Combine([]*Change{{Operation: "delete", ReferencedDataFiles: []string{"a"}, ConflictFilter: redOnly}}); one.Operation != "delete" || !reflect.DeepEqual(one.ConflictFilter, redOnly) {
		t.Errorf("one change: %+v", one)
	}
	if empty := Combine(nil); empty == nil || !onlyAddsData(empty) {
		t.Errorf("no changes: %+v", empty)
	}
}
