package catalog

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// age sets a file's modification time to d ago.
func age(t *testing.T, local string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	if err := os.Chtimes(local, old, old); err != nil {
		t.Fatal(err)
	}
}

// ageAll makes every file under dir d old.
func ageAll(t *testing.T, dir string, d time.Duration) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			age(t, p, d)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func tableDirOf(tbl *Table) string { return filepath.Dir(filepath.Dir(tbl.MetadataLocation)) }

func names(locs []string) []string {
	var out []string
	for _, l := range locs {
		out = append(out, l[strings.Index(l, "/ev/")+len("/ev/"):])
	}
	return out
}

// TestRemoveOrphanFiles: an old file nothing references goes; files the
// metadata reaches (every snapshot's, the metadata log's, the version
// hint), files newer than OlderThan and files a live writer recorded stay;
// a dry run only lists.
func TestRemoveOrphanFiles(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	tbl, files := appendN(t, cat, id, tbl, 3, "o")
	dir := tableDirOf(tbl)
	// An orphan data file, one in the metadata directory and an old
	// metadata file dropped from the log.
	for _, rel := range []string{"data/category=red/lost.parquet", "metadata/lost-m0.avro", "data/x/y/deep.parquet"} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A file a live writer (this process) is about to commit.
	out, err := cat.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	w, err := out.Create(ctx, tbl.Metadata.Location+"/data/category=red/pending.parquet")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("pending"))
	w.Close()
	ageAll(t, dir, 10*24*time.Hour)
	// A young orphan.
	young := filepath.Join(dir, "data", "young.parquet")
	os.WriteFile(young, []byte("y"), 0o644)

	want := []string{"data/category=red/lost.parquet", "data/x/y/deep.parquet", "metadata/lost-m0.avro"}
	got, err := RemoveOrphanFiles(ctx, cat, id, OrphanOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names(got), want) {
		t.Errorf("dry run: %v, want %v", names(got), want)
	}
	if _, err := os.Stat(filepath.Join(dir, "data/category=red/lost.parquet")); err != nil {
		t.Errorf("dry run removed a file: %v", err)
	}
	got, err = RemoveOrphanFiles(ctx, cat, id, OrphanOptions{OlderThan: time.Now().Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names(got), want) {
		t.Errorf("removed %v, want %v", names(got), want)
	}
	for _, rel := range want {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); !os.IsNotExist(err) {
			t.Errorf("%s not removed: %v", rel, err)
		}
	}
	for _, p := range []string{young, filepath.Join(dir, "data/category=red/pending.parquet"), filepath.Join(dir, "metadata", versionHintFile)} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
	tbl = reload(t, cat, id)
	for _, f := range files {
		if !exists(t, tbl, f.Path) {
			t.Errorf("committed %s removed", baseName(f.Path))
		}
	}
	if got := len(livePaths(t, tbl)); got != 3 {
		t.Errorf("%d live files, want 3", got)
	}
	for _, e := range tbl.Metadata.MetadataLog {
		if !exists(t, tbl, e.MetadataFile) {
			t.Errorf("metadata file %s in the log removed", baseName(e.MetadataFile))
		}
	}
	// The young orphan goes once older_than passes it.
	got, err = RemoveOrphanFiles(ctx, cat, id, OrphanOptions{OlderThan: time.Now().Add(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names(got), []string{"data/young.parquet"}) {
		t.Errorf("second run removed %v", names(got))
	}
}

// TestRemoveOrphanFilesAfterExpire: files an expiration left behind (its
// deletions interrupted) are orphans, and so are metadata files that fell
// off the log; those the log lists are not.
func TestRemoveOrphanFilesAfterExpire(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, map[string]string{PropPreviousVersionsMax: "2"})
	a := writeEvents(t, tbl, "a", "red", 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{a}})
	oldList := tbl.Metadata.CurrentSnapshot().ManifestList
	oldManifests, err := ReadManifestList(ctx, tbl.IO, tbl.Metadata.CurrentSnapshot())
	if err != nil || len(oldManifests) != 1 {
		t.Fatalf("manifests %v: %v", oldManifests, err)
	}
	b := writeEvents(t, tbl, "b", "red", 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{b}, RemovedDataFiles: []*DataFile{a}, ReferencedDataFiles: []string{a.Path}, BaseSnapshotID: headID(tbl)})
	// Expire through the metadata alone, as an expiration interrupted
	// before its deletions would leave the table.
	first := tbl.Metadata.Snapshots[0].SnapshotID
	if _, err := cat.CommitTable(ctx, id, nil, []Update{RemoveSnapshots{SnapshotIDs: []int64{first}}}); err != nil {
		t.Fatal(err)
	}
	dir := tableDirOf(tbl)
	ageAll(t, dir, 4*24*time.Hour)
	// While the process that wrote them runs, the files it wrote are
	// protected: a.parquet (written by the test, not recorded) and the
	// metadata file that fell off the log go.
	got, err := RemoveOrphanFiles(ctx, cat, id, OrphanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"data/category=red/a.parquet", "metadata/v1.metadata.json"}; !slices.Equal(names(got), want) {
		t.Errorf("removed %v, want %v", names(got), want)
	}
	// Once it has stopped, the manifest list of the expired snapshot goes.
	if err := cat.Close(ctx); err != nil {
		t.Fatal(err)
	}
	cat, err = NewFilesystem("wh", cat.Root(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err = RemoveOrphanFiles(ctx, cat, id, OrphanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tbl = reload(t, cat, id)
	// The first snapshot's manifest, rewritten by the second, too.
	wantGone := []string{"metadata/" + baseName(oldList), "metadata/" + baseName(oldManifests[0].Path)}
	slices.Sort(wantGone)
	if !slices.Equal(names(got), wantGone) {
		t.Errorf("removed %v, want %v", names(got), wantGone)
	}
	if got := planned(t, tbl); !equalStrings(got, []string{"b.parquet: "}) {
		t.Errorf("planned %v", got)
	}
	for _, e := range tbl.Metadata.MetadataLog {
		if !exists(t, tbl, e.MetadataFile) {
			t.Errorf("metadata file %s in the log removed", baseName(e.MetadataFile))
		}
	}
}

// TestRemoveOrphanFilesLocation: a location inside the table limits the
// search; one outside it is 22023.
func TestRemoveOrphanFilesLocation(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	tbl, _ = appendN(t, cat, id, tbl, 1, "l")
	dir := tableDirOf(tbl)
	for _, rel := range []string{"data/category=red/lost.parquet", "metadata/lost.avro"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ageAll(t, dir, 4*24*time.Hour)
	for _, loc := range []string{tbl.Metadata.Location + "/data", tbl.Metadata.Location + "/data/", dir + "/data"} {
		got, err := RemoveOrphanFiles(ctx, cat, id, OrphanOptions{Location: loc, DryRun: true})
		if err != nil {
			t.Fatalf("%s: %v", loc, err)
		}
		if !slices.Equal(names(got), []string{"data/category=red/lost.parquet"}) {
			t.Errorf("%s: %v", loc, names(got))
		}
	}
	for _, loc := range []string{"/etc", filepath.Dir(dir), tbl.Metadata.Location + "/../other", tbl.Metadata.Location + "x/data", "relative/data"} {
		_, err := RemoveOrphanFiles(ctx, cat, id, OrphanOptions{Location: loc})
		if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InvalidParameterValue {
			t.Errorf("location %s: %v", loc, err)
		}
	}
}

// TestRemoveOrphanFilesWriteRecords: a file another host's write record
// lists stays (its writer may be alive); one a dead process of this host
// listed goes.
func TestRemoveOrphanFilesWriteRecords(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	dir := tableDirOf(tbl)
	records := map[string]string{
		writeRecordPrefix + "foreign": "# icegate write record; host elsewhere-42\ndata/foreign.parquet\n",
		writeRecordPrefix + "dead":    recordHeader() + "\ndata/dead.parquet\n",
	}
	for name, text := range records {
		if err := os.WriteFile(filepath.Join(dir, "metadata", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"foreign.parquet", "dead.parquet"} {
		if err := os.WriteFile(filepath.Join(dir, "data", n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ageAll(t, dir, 4*24*time.Hour)
	// A fresh catalog: the table is loaded for the first time.
	cat2, err := NewFilesystem("wh", cat.Root(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveOrphanFiles(ctx, cat2, id, OrphanOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "foreign.parquet")); err != nil {
		t.Errorf("file of another host's writer removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "dead.parquet")); !os.IsNotExist(err) {
		t.Errorf("file of a dead writer kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "metadata", writeRecordPrefix+"foreign")); err != nil {
		t.Errorf("another host's write record removed: %v", err)
	}
}
