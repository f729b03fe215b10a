package catalog

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

// TestStageChangeNotCommitted: a staged change is readable from its Table
// but not committed; Discard removes its files.
func TestStageChangeNotCommitted(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "staged", 2, nil)
	out, err := cat.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	st, err := StageChange(ctx, out, tbl, &Change{AddedDataFiles: []*DataFile{fakeData(tbl, "a", "red", 3)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := planned(t, st.Table); !equalStrings(got, []string{"a.parquet: "}) {
		t.Errorf("staged plan %v", got)
	}
	if len(st.Written) != 2 || len(st.Requirements) != 1 || len(st.Updates) != 2 {
		t.Errorf("written %v, %d requirements, %d updates", st.Written, len(st.Requirements), len(st.Updates))
	}
	wantSummary(t, st.Table.Metadata.CurrentSnapshot(), map[string]string{"operation": "append", "added-data-files": "1", "total-records": "3"})
	again, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if again.Metadata.CurrentSnapshot() != nil {
		t.Fatal("staging committed a snapshot")
	}
	st.Discard(ctx)
	if n := countSuffix(listDir(t, filepath.Dir(again.MetadataLocation)), ".avro"); n != 0 {
		t.Errorf("%d Avro files left after Discard", n)
	}
}

// TestCopyOnWrite removes and adds data files in format versions 1-3: the
// plan, the rewritten manifests' entries, the summaries, row lineage, and
// that a manifest left with only deleted entries is not carried further.
func TestCopyOnWrite(t *testing.T) {
	ctx := context.Background()
	for _, version := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("v%d", version), func(t *testing.T) {
			cat := newWarehouse(t)
			id, tbl := newEvents(t, cat, "cow", version, nil)
			a1, a2 := fakeData(tbl, "a1", "red", 3), fakeData(tbl, "a2", "blue", 4)
			tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{a1, a2}})
			first := tbl.Metadata.CurrentSnapshot()
			b1 := fakeData(tbl, "b1", "red", 2)
			tbl = mustCommit(t, cat, id, &Change{
				AddedDataFiles: []*DataFile{b1}, RemovedDataFiles: []*DataFile{a1},
				ReferencedDataFiles: []string{a1.Path}, BaseSnapshotID: headID(tbl),
				Properties: map[string]string{"app": "tests"},
			})
			second := tbl.Metadata.CurrentSnapshot()
			if got := planned(t, tbl); !equalStrings(got, []string{"a2.parquet: ", "b1.parquet: "}) {
				t.Fatalf("plan %v", got)
			}
			wantSummary(t, second, map[string]string{
				"operation": "overwrite", "app": "tests", "added-data-files": "1", "deleted-data-files": "1",
				"added-records": "2", "deleted-records": "3", "added-files-size": "200", "removed-files-size": "300",
				"changed-partition-count": "1", "total-records": "6", "total-data-files": "2", "total-files-size": "600",
				"total-delete-files": "0", "added-delete-files": "",
			})
			seq := func(n int64) int64 {
				if version == 1 {
					return 0
				}
				return n
			}
			if second.SequenceNumber != seq(2) {
				t.Errorf("sequence number %d", second.SequenceNumber)
			}
			// The manifest of the first append is rewritten: a1 deleted by
			// the second snapshot, a2 existing; both keep sequence number 1.
			var rewritten []ManifestEntry
			for _, entries := range entriesOf(t, tbl, second) {
				if len(entries) == 2 {
					rewritten = entries
				}
			}
			if len(rewritten) != 2 {
				t.Fatalf("no rewritten manifest of 2 entries in %v", entriesOf(t, tbl, second))
			}
			for _, e := range rewritten {
				wantStatus, wantSnap := StatusExisting, first.SnapshotID
				if e.File.Path == a1.Path {
					wantStatus, wantSnap = StatusDeleted, second.SnapshotID
				}
				if e.Status != wantStatus || e.File.SnapshotID != wantSnap || e.File.DataSequenceNumber != seq(1) || e.File.FileSequenceNumber != seq(1) {
					t.Errorf("%s: status %d snapshot %d seq %d/%d, want %d %d %d", baseName(e.File.Path), e.Status, e.File.SnapshotID,
						e.File.DataSequenceNumber, e.File.FileSequenceNumber, wantStatus, wantSnap, seq(1))
				}
				if version >= 3 && e.File.Path == a2.Path && (e.File.FirstRowID == nil || *e.File.FirstRowID != 3) {
					t.Errorf("a2 first row id %v, want 3", e.File.FirstRowID)
				}
			}
			if version >= 3 {
				for _, task := range planCurrent(t, tbl) {
					if task.File.Path == b1.Path && (task.File.FirstRowID == nil || *task.File.FirstRowID < 7) {
						t.Errorf("b1 first row id %v, want a fresh one (>= 7)", task.File.FirstRowID)
					}
				}
			}

			// Removing a2 too drops a1's deleted entry; the manifest then has
			// no live entry and the next snapshot does not carry it.
			tbl = mustCommit(t, cat, id, &Change{RemovedDataFiles: []*DataFile{a2}, ReferencedDataFiles: []string{a2.Path}, BaseSnapshotID: headID(tbl)})
			third := tbl.Metadata.CurrentSnapshot()
			allDeleted := false
			for _, entries := range entriesOf(t, tbl, third) {
				allDeleted = allDeleted || (len(entries) == 1 && entries[0].Status == StatusDeleted && entries[0].File.Path == a2.Path)
			}
			if !allDeleted {
				t.Errorf("the third snapshot lacks the rewritten manifest listing a2 as deleted")
			}
			wantSummary(t, third, map[string]string{"operation": "delete", "deleted-data-files": "1", "deleted-records": "4", "total-records": "2", "total-data-files": "1"})
			for _, entries := range entriesOf(t, tbl, third) {
				for _, e := range entries {
					if e.File.Path == a1.Path {
						t.Errorf("a1 still listed (status %d) after its manifest was rewritten again", e.Status)
					}
				}
			}
			tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{fakeData(tbl, "c1", "green", 1)}})
			fourth := tbl.Metadata.CurrentSnapshot()
			if n := len(entriesOf(t, tbl, fourth)); n != 2 {
				t.Errorf("%d manifests, want 2 (b1's, c1's, not the all-deleted one)", n)
			}

			// A fresh catalog reads it all back.
			fresh, err := NewFilesystem("again", cat.Root(), nil)
			if err != nil {
				t.Fatal(err)
			}
			reloaded, err := fresh.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got := planned(t, reloaded); !equalStrings(got, []string{"b1.parquet: ", "c1.parquet: "}) {
				t.Errorf("reloaded plan %v", got)
			}
		})
	}
}

// TestMergeOnReadV2 adds position delete files: the plan pairs them with
// their data files, the summary counts them, removing a data file with its
// delete file clears both.
func TestMergeOnReadV2(t *testing.T) {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "mor", 2, nil)
	a1, a2 := fakeData(tbl, "a1", "red", 3), fakeData(tbl, "a2", "blue", 4)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{a1, a2}})
	d1 := fakePosDeletes(tbl, "d1", a1, 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDeleteFiles: []*DataFile{d1}, ReferencedDataFiles: []string{a1.Path}, BaseSnapshotID: headID(tbl)})
	if got := planned(t, tbl); !equalStrings(got, []string{"a1.parquet: d1-deletes.parquet", "a2.parquet: "}) {
		t.Fatalf("plan %v", got)
	}
	snap := tbl.Metadata.CurrentSnapshot()
	wantSummary(t, snap, map[string]string{
		"operation": "delete", "added-delete-files": "1", "added-position-delete-files": "1", "added-position-deletes": "2",
		"added-files-size": "20", "changed-partition-count": "1", "total-delete-files": "1", "total-position-deletes": "2",
		"total-records": "7", "total-data-files": "2", "added-data-files": "", "added-dvs": "",
	})
	if snap.SequenceNumber != 2 {
		t.Errorf("sequence number %d", snap.SequenceNumber)
	}
	// An update by merge-on-read: new rows and deletes at once.
	d2 := fakePosDeletes(tbl, "d2", a2, 1)
	b1 := fakeData(tbl, "b1", "blue", 1)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{b1}, AddedDeleteFiles: []*DataFile{d2}, ReferencedDataFiles: []string{a2.Path}, BaseSnapshotID: headID(tbl)})
	wantSummary(t, tbl.Metadata.CurrentSnapshot(), map[string]string{"operation": "overwrite", "total-delete-files": "2", "total-position-deletes": "3", "total-records": "8"})
	// d2 has b1's sequence number and partition but names a2: b1 gets none.
	if got := planned(t, tbl); !equalStrings(got, []string{"a1.parquet: d1-deletes.parquet", "a2.parquet: d2-deletes.parquet", "b1.parquet: "}) {
		t.Fatalf("plan %v", got)
	}
	// Removing a1 with its delete file.
	tbl = mustCommit(t, cat, id, &Change{RemovedDataFiles: []*DataFile{a1}, RemovedDeleteFiles: []*DataFile{d1}, ReferencedDataFiles: []string{a1.Path}, BaseSnapshotID: headID(tbl)})
	if got := planned(t, tbl); !equalStrings(got, []string{"a2.parquet: d2-deletes.parquet", "b1.parquet: "}) {
		t.Fatalf("plan %v", got)
	}
	wantSummary(t, tbl.Metadata.CurrentSnapshot(), map[string]string{
		"operation": "delete", "deleted-data-files": "1", "removed-delete-files": "1", "removed-position-delete-files": "1",
		"removed-position-deletes": "2", "removed-files-size": "320", "total-delete-files": "1", "total-position-deletes": "1",
		"total-records": "5", "total-data-files": "2",
	})
}

// TestMergeOnReadV3 adds deletion vectors, two in one Puffin file, and
// replaces one: the plan sees only the newest DV of each file.
func TestMergeOnReadV3(t *testing.T) {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "dv", 3, nil)
	a1, a2 := fakeData(tbl, "a1", "red", 3), fakeData(tbl, "a2", "blue", 4)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{a1, a2}})
	dv1, dv2 := fakeDV(tbl, "p1", 4, a1, 1), fakeDV(tbl, "p1", 44, a2, 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDeleteFiles: []*DataFile{dv1, dv2}, ReferencedDataFiles: []string{a1.Path, a2.Path}, BaseSnapshotID: headID(tbl)})
	if got := planned(t, tbl); !equalStrings(got, []string{"a1.parquet: p1.puffin@4", "a2.parquet: p1.puffin@44"}) {
		t.Fatalf("plan %v", got)
	}
	wantSummary(t, tbl.Metadata.CurrentSnapshot(), map[string]string{
		"operation": "delete", "added-dvs": "2", "added-delete-files": "2", "added-position-deletes": "3",
		"added-files-size": "80", "added-position-delete-files": "", "changed-partition-count": "2", "total-delete-files": "2",
	})
	// A later delete of a1 replaces its DV; a2's, in the same Puffin file,
	// stays.
	dv3 := fakeDV(tbl, "p2", 4, a1, 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDeleteFiles: []*DataFile{dv3}, RemovedDeleteFiles: []*DataFile{dv1}, ReferencedDataFiles: []string{a1.Path}, BaseSnapshotID: headID(tbl)})
	if got := planned(t, tbl); !equalStrings(got, []string{"a1.parquet: p2.puffin@4", "a2.parquet: p1.puffin@44"}) {
		t.Fatalf("plan %v", got)
	}
	snap := tbl.Metadata.CurrentSnapshot()
	wantSummary(t, snap, map[string]string{
		"operation": "delete", "added-dvs": "1", "removed-dvs": "1", "added-delete-files": "1", "removed-delete-files": "1",
		"added-position-deletes": "2", "removed-position-deletes": "1", "total-delete-files": "2", "total-position-deletes": "4",
	})
	if snap.FirstRowID == nil || snap.AddedRows == nil || *snap.AddedRows != 0 {
		t.Errorf("a delete-only snapshot adds no rows: first %v added %v", snap.FirstRowID, snap.AddedRows)
	}
}

// TestChangeRejectsFiles: files a table of that format cannot hold, and
// removals of files that are not live.
func TestChangeRejectsFiles(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	tables := map[int]*Table{}
	ids := map[int]Identifier{}
	for _, v := range []int{1, 2, 3} {
		ids[v], tables[v] = newEvents(t, cat, fmt.Sprintf("t%d", v), v, nil)
		ids[v], tables[v] = ids[v], mustCommit(t, cat, ids[v], &Change{AddedDataFiles: []*DataFile{fakeData(tables[v], "a", "red", 2)}})
	}
	a := func(v int) *DataFile { return fakeData(tables[v], "a", "red", 2) }
	cases := []struct {
		name    string
		version int
		change  *Change
		want    error
	}{
		{"v1 position deletes", 1, &Change{AddedDeleteFiles: []*DataFile{fakePosDeletes(tables[1], "d", a(1), 1)}}, ErrUnsupported},
		{"v2 deletion vector", 2, &Change{AddedDeleteFiles: []*DataFile{fakeDV(tables[2], "p", 4, a(2), 1)}}, ErrDataInvalid},
		{"v3 position delete file", 3, &Change{AddedDeleteFiles: []*DataFile{fakePosDeletes(tables[3], "d", a(3), 1)}}, ErrDataInvalid},
		{"data file among deletes", 2, &Change{AddedDeleteFiles: []*DataFile{a(2)}}, ErrDataInvalid},
		{"delete file among data", 2, &Change{AddedDataFiles: []*DataFile{fakePosDeletes(tables[2], "d", a(2), 1)}}, ErrDataInvalid},
		{"unknown spec", 2, &Change{AddedDataFiles: []*DataFile{{Content: ContentData, Path: "x", SpecID: 7}}}, ErrDataInvalid},
		{"removed file not live", 2, &Change{RemovedDataFiles: []*DataFile{fakeData(tables[2], "gone", "red", 1)}, BaseSnapshotID: headID(tables[2])}, ErrValidation},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CommitChange(ctx, cat, ids[tc.version], tc.change)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			after, err := cat.LoadTable(ctx, ids[tc.version])
			if err != nil {
				t.Fatal(err)
			}
			if len(after.Metadata.Snapshots) != 1 {
				t.Errorf("%d snapshots after a rejected change", len(after.Metadata.Snapshots))
			}
			if n := countSuffix(listDir(t, filepath.Dir(after.MetadataLocation)), ".avro"); n != 2 {
				t.Errorf("%d Avro files, want the first append's 2", n)
			}
		})
	}
}
