package catalog

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// dataManifests lists the data manifests of the current snapshot.
func dataManifests(t *testing.T, tbl *Table) []ManifestFile {
	t.Helper()
	list, err := ReadManifestList(context.Background(), tbl.IO, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	var out []ManifestFile
	for _, mf := range list {
		if mf.Content == ManifestData {
			out = append(out, mf)
		}
	}
	return out
}

func TestRewriteManifestsRegroups(t *testing.T) {
	for _, version := range []int{1, 2, 3} {
		t.Run(fmt.Sprint(version), func(t *testing.T) {
			ctx := context.Background()
			cat := newWarehouse(t)
			id, tbl := newEvents(t, cat, "events", version, nil)
			cats := []string{"a", "b", "c"}
			for i := range 9 {
				f := fakeData(tbl, fmt.Sprintf("f%d", i), cats[i%3], int64(i+1))
				var err error
				if tbl, err = Append(ctx, cat, id, []*DataFile{f}, nil); err != nil {
					t.Fatal(err)
				}
			}
			if version >= 2 {
				// A delete manifest is carried as it is.
				tasks := planCurrent(t, tbl)
				tbl = mustCommit(t, cat, id, &Change{BaseSnapshotID: headID(tbl), Isolation: SnapshotIsolation,
					AddedDeleteFiles: []*DataFile{deleteFor(tbl, tasks[0].File)}})
			}
			before := planned(t, tbl)
			seqs := dataSeqs(t, tbl)
			if n := len(dataManifests(t, tbl)); n != 9 {
				t.Fatalf("%d data manifests before, want 9", n)
			}
			res, err := RewriteManifests(ctx, cat, id, RewriteManifestsSpec{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Rewritten != 9 || res.Added != 1 {
				t.Fatalf("result %+v, want 9 rewritten into 1", res)
			}
			tbl, err = cat.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got := planned(t, tbl); !slices.Equal(got, before) {
				t.Fatalf("planned files changed:\n%v\n%v", got, before)
			}
			if got := dataSeqs(t, tbl); !mapsEq(got, seqs) {
				t.Fatalf("data sequence numbers changed: %v -> %v", seqs, got)
			}
			snap := tbl.Metadata.CurrentSnapshot()
			if snap.Summary["operation"] != "replace" || snap.Summary["total-data-files"] != "9" {
				t.Fatalf("summary %v", snap.Summary)
			}
			if n := len(dataManifests(t, tbl)); n != 1 {
				t.Fatalf("%d data manifests after, want 1", n)
			}
			// One manifest left: nothing to do.
			res, err = RewriteManifests(ctx, cat, id, RewriteManifestsSpec{})
			if err != nil || res.Rewritten != 0 {
				t.Fatalf("second run %+v, %v", res, err)
			}
			if got := len(snapshotChain(t, mustLoad(t, cat, id).Metadata)); got != len(snapshotChain(t, tbl.Metadata)) {
				t.Fatal("a rewrite with nothing to do committed")
			}
		})
	}
}

// A small target size splits the entries into several manifests, each
// covering a contiguous run of partitions.
func TestRewriteManifestsTargetSizeClustersPartitions(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "events", 2, map[string]string{PropManifestTargetSize: "12000"})
	cats := []string{"a", "b", "c"}
	for i := range 12 {
		var err error
		if tbl, err = Append(ctx, cat, id, []*DataFile{fakeData(tbl, fmt.Sprintf("f%d", i), cats[i%3], 5)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	before := planned(t, tbl)
	res, err := RewriteManifests(ctx, cat, id, RewriteManifestsSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rewritten != 12 || res.Added < 2 || res.Added >= 12 {
		t.Fatalf("result %+v", res)
	}
	tbl = mustLoad(t, cat, id)
	if got := planned(t, tbl); !slices.Equal(got, before) {
		t.Fatal("planned files changed")
	}
	// Partitions do not interleave: each manifest's range follows the last.
	var last string
	for _, mf := range dataManifests(t, tbl) {
		m, err := ReadManifest(ctx, tbl.IO, &mf)
		if err != nil {
			t.Fatal(err)
		}
		first := m.Entries[0].File.Partition[0].(string)
		if first < last {
			t.Fatalf("manifest starts at %s after one ending at %s", first, last)
		}
		last = m.Entries[len(m.Entries)-1].File.Partition[0].(string)
	}
}

func TestRewriteManifestsUnknownSpec(t *testing.T) {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "events", 2, nil)
	if _, err := Append(context.Background(), cat, id, []*DataFile{fakeData(tbl, "f", "a", 1)}, nil); err != nil {
		t.Fatal(err)
	}
	bad := 7
	if _, err := RewriteManifests(context.Background(), cat, id, RewriteManifestsSpec{SpecID: &bad}); err == nil {
		t.Fatal("spec 7 accepted")
	}
}

func deleteFor(tbl *Table, of *DataFile) *DataFile {
	if tbl.Metadata.FormatVersion >= 3 {
		return fakeDV(tbl, "dv", 4, of, 1)
	}
	return fakePosDeletes(tbl, "d", of, 1)
}

func mustLoad(t *testing.T, cat *Filesystem, id Identifier) *Table {
	t.Helper()
	tbl, err := cat.LoadTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// dataSeqs maps each live data file to its data sequence number.
func dataSeqs(t *testing.T, tbl *Table) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, task := range planCurrent(t, tbl) {
		out[baseName(task.File.Path)] = task.File.DataSequenceNumber
	}
	return out
}

func mapsEq(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Manifests that only list files an earlier snapshot removed are dropped.
func TestRewriteManifestsDropsDeletedOnly(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "events", 2, nil)
	a, b := fakeData(tbl, "a", "x", 3), fakeData(tbl, "b", "x", 4)
	for _, f := range []*DataFile{a, b} {
		var err error
		if tbl, err = Append(ctx, cat, id, []*DataFile{f}, nil); err != nil {
			t.Fatal(err)
		}
	}
	tbl = mustCommit(t, cat, id, &Change{BaseSnapshotID: headID(tbl), Isolation: SnapshotIsolation,
		RemovedDataFiles: []*DataFile{b}, ReferencedDataFiles: []string{b.Path}})
	if n := len(dataManifests(t, tbl)); n != 2 {
		t.Fatalf("%d data manifests before, want 2 (one of them only listing b as deleted)", n)
	}
	res, err := RewriteManifests(ctx, cat, id, RewriteManifestsSpec{})
	if err != nil || res.Rewritten != 1 || res.Added != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	tbl = mustLoad(t, cat, id)
	if n := len(dataManifests(t, tbl)); n != 1 {
		t.Fatalf("%d data manifests after, want 1", n)
	}
	if got := planned(t, tbl); !slices.Equal(got, []string{"a.parquet: "}) {
		t.Fatalf("planned %v", got)
	}
}
