package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// touch creates an empty file at the written path of a table file (delete
// files the tests describe without writing their contents).
func touch(t *testing.T, tbl *Table, written string) {
	t.Helper()
	local, err := tbl.IO.Resolve(written)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(local, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// exists reports whether the written path of a table file is on disk.
func exists(t *testing.T, tbl *Table, written string) bool {
	t.Helper()
	local, err := tbl.IO.Resolve(written)
	if err != nil {
		t.Fatal(err)
	}
	_, err = os.Stat(local)
	return err == nil
}

// appendN appends n snapshots of one file each and returns the table and
// the files in order.
func appendN(t *testing.T, cat *Filesystem, id Identifier, tbl *Table, n int, prefix string) (*Table, []*DataFile) {
	t.Helper()
	var files []*DataFile
	for i := range n {
		f := writeEvents(t, tbl, fmt.Sprintf("%s%d", prefix, i), "red", 3)
		var err error
		if tbl, err = Append(context.Background(), cat, id, []*DataFile{f}, nil); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return tbl, files
}

func snapshotIDs(m *TableMetadata) []int64 {
	var out []int64
	for _, s := range m.Snapshots {
		out = append(out, s.SnapshotID)
	}
	slices.Sort(out)
	return out
}

func mustExpire(t *testing.T, cat MutableCatalog, id Identifier, o ExpireOptions) *ExpireResult {
	t.Helper()
	res, err := ExpireSnapshots(context.Background(), cat, id, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func reload(t *testing.T, cat Catalog, id Identifier) *Table {
	t.Helper()
	tbl, err := cat.LoadTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestExpireRetainLast: appends only add files, so expiring all but the
// last three snapshots deletes their manifest lists and nothing else; the
// current rows stay readable.
func TestExpireRetainLast(t *testing.T) {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	tbl, files := appendN(t, cat, id, tbl, 6, "f")
	chain := snapshotChain(t, tbl.Metadata)
	res := mustExpire(t, cat, id, ExpireOptions{Now: time.Now(), OlderThan: time.Now().Add(time.Hour), RetainLast: 3})
	tbl = reload(t, cat, id)
	if got := len(tbl.Metadata.Snapshots); got != 3 {
		t.Fatalf("%d snapshots left, want 3", got)
	}
	for i, s := range chain {
		kept := tbl.Metadata.SnapshotByID(s.SnapshotID) != nil
		if kept != (i < 3) {
			t.Errorf("snapshot %d (%d from the head) kept = %v", s.SnapshotID, i, kept)
		}
		if exists(t, tbl, s.ManifestList) != (i < 3) {
			t.Errorf("manifest list of snapshot %d (%d from the head) on disk = %v", s.SnapshotID, i, !kept)
		}
	}
	if res.DeletedManifestLists != 3 || res.DeletedDataFiles != 0 || res.DeletedManifests != 0 || len(res.ExpiredSnapshots) != 3 {
		t.Errorf("result %+v", res)
	}
	for _, f := range files {
		if !exists(t, tbl, f.Path) {
			t.Errorf("data file %s deleted", f.Path)
		}
	}
	if got := len(livePaths(t, tbl)); got != 6 {
		t.Errorf("%d live files, want 6", got)
	}
	// Nothing more to expire: a no-op that commits nothing.
	before := tbl.MetadataLocation
	res = mustExpire(t, cat, id, ExpireOptions{Now: time.Now(), OlderThan: time.Now().Add(time.Hour), RetainLast: 3})
	if len(res.ExpiredSnapshots) != 0 || reload(t, cat, id).MetadataLocation != before {
		t.Errorf("second expiration: %+v", res)
	}
}

// TestExpireDeletesUnreachableFiles: files removed by a later snapshot go
// once the snapshots that reached them are expired; delete files are
// counted by kind; a file a remaining snapshot reaches stays.
func TestExpireDeletesUnreachableFiles(t *testing.T) {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	a := writeEvents(t, tbl, "a", "red", 4)
	b := writeEvents(t, tbl, "b", "blue", 4)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{a, b}})
	pos := fakePosDeletes(tbl, "p", a, 1)
	eq := fakeEqDeletes(tbl, "e", "blue")
	touch(t, tbl, pos.Path)
	touch(t, tbl, eq.Path)
	tbl = mustCommit(t, cat, id, &Change{AddedDeleteFiles: []*DataFile{pos, eq}, BaseSnapshotID: headID(tbl), ReferencedDataFiles: []string{a.Path}})
	// Copy-on-write of a: a and its delete file go, a2 replaces them.
	a2 := writeEvents(t, tbl, "a2", "red", 3)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{a2}, RemovedDataFiles: []*DataFile{a}, RemovedDeleteFiles: []*DataFile{pos},
		ReferencedDataFiles: []string{a.Path}, BaseSnapshotID: headID(tbl)})
	// A plain delete of everything blue (b and the equality deletes).
	tbl = mustCommit(t, cat, id, &Change{RemovedDataFiles: []*DataFile{b}, RemovedDeleteFiles: []*DataFile{eq}, ReferencedDataFiles: []string{b.Path}, BaseSnapshotID: headID(tbl)})
	oldLists := []string{}
	for _, s := range tbl.Metadata.Snapshots {
		if s.SnapshotID != *tbl.Metadata.CurrentSnapshotID {
			oldLists = append(oldLists, s.ManifestList)
		}
	}
	res := mustExpire(t, cat, id, ExpireOptions{Now: time.Now(), OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
	tbl = reload(t, cat, id)
	if len(tbl.Metadata.Snapshots) != 1 {
		t.Fatalf("%d snapshots left", len(tbl.Metadata.Snapshots))
	}
	if res.DeletedDataFiles != 2 || res.DeletedPositionDeleteFiles != 1 || res.DeletedEqualityDeleteFiles != 1 || res.DeletedManifestLists != 3 || res.DeletedManifests == 0 {
		t.Errorf("result %+v", res)
	}
	for _, gone := range []string{a.Path, b.Path, pos.Path, eq.Path} {
		if exists(t, tbl, gone) {
			t.Errorf("%s not deleted", baseName(gone))
		}
	}
	for _, l := range oldLists {
		if exists(t, tbl, l) {
			t.Errorf("manifest list %s not deleted", baseName(l))
		}
	}
	if !exists(t, tbl, a2.Path) {
		t.Errorf("live file a2 deleted")
	}
	// Every manifest the remaining snapshot reaches is still there.
	if got := planned(t, tbl); !equalStrings(got, []string{"a2.parquet: "}) {
		t.Errorf("planned %v", got)
	}
	// Nothing is left on disk that only the expired snapshots reached.
	var data []string
	err := filepath.WalkDir(filepath.Join(filepath.Dir(filepath.Dir(tbl.MetadataLocation)), "data"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data = append(data, d.Name())
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !equalStrings(data, []string{"a2.parquet"}) {
		t.Errorf("data directory holds %v", data)
	}
}

// TestExpireRefRetention: a tag keeps its snapshot and the files it
// reaches; a branch keeps its head; a ref older than its max-ref-age-ms is
// removed with what only it reached; main's head is never expired.
func TestExpireRefRetention(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	a := writeEvents(t, tbl, "a", "red", 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{a}})
	s1 := *headID(tbl)
	b := writeEvents(t, tbl, "b", "red", 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{b}, BaseSnapshotID: headID(tbl)})
	s2 := *headID(tbl)
	// main removes a and b.
	tbl = mustCommit(t, cat, id, &Change{RemovedDataFiles: []*DataFile{a, b}, ReferencedDataFiles: []string{a.Path, b.Path}, BaseSnapshotID: headID(tbl)})
	c := writeEvents(t, tbl, "c", "red", 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{c}, BaseSnapshotID: headID(tbl)})
	shortAge := int64(1)
	if _, err := cat.CommitTable(ctx, id, nil, []Update{
		SetSnapshotRef{Name: "keep", Ref: SnapshotRef{SnapshotID: s1, Type: "tag"}},
		SetSnapshotRef{Name: "old", Ref: SnapshotRef{SnapshotID: s2, Type: "tag", MaxRefAgeMs: &shortAge}},
	}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	res := mustExpire(t, cat, id, ExpireOptions{Now: time.Now(), OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
	tbl = reload(t, cat, id)
	if !slices.Equal(res.RemovedRefs, []string{"old"}) {
		t.Errorf("removed refs %v", res.RemovedRefs)
	}
	if _, ok := tbl.Metadata.Refs["keep"]; !ok || tbl.Metadata.SnapshotByID(s1) == nil || tbl.Metadata.SnapshotByID(s2) != nil {
		t.Fatalf("refs %v snapshots %v", tbl.Metadata.Refs, snapshotIDs(tbl.Metadata))
	}
	if len(tbl.Metadata.Snapshots) != 2 {
		t.Errorf("snapshots %v, want the tag's and main's", snapshotIDs(tbl.Metadata))
	}
	if !exists(t, tbl, a.Path) || exists(t, tbl, b.Path) || !exists(t, tbl, c.Path) {
		t.Errorf("a (tagged) %v, b (only the removed tag) %v, c (main) %v", exists(t, tbl, a.Path), exists(t, tbl, b.Path), exists(t, tbl, c.Path))
	}
	if res.DeletedDataFiles != 1 {
		t.Errorf("result %+v", res)
	}
	// The tag's head can be expired only by dropping the tag first.
	_, err := ExpireSnapshots(ctx, cat, id, ExpireOptions{SnapshotIDs: []int64{s1}})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InvalidParameterValue {
		t.Errorf("expiring the tag's snapshot: %v", err)
	}
	_, err = ExpireSnapshots(ctx, cat, id, ExpireOptions{SnapshotIDs: []int64{*headID(tbl)}})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InvalidParameterValue {
		t.Errorf("expiring main's head: %v", err)
	}
	_, err = ExpireSnapshots(ctx, cat, id, ExpireOptions{SnapshotIDs: []int64{12345}})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.InvalidParameterValue {
		t.Errorf("expiring a snapshot that does not exist: %v", err)
	}
}

// TestExpireBranchRetention: a branch's own min-snapshots-to-keep and
// max-snapshot-age-ms override the defaults for its ancestry.
func TestExpireBranchRetention(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	tbl, _ = appendN(t, cat, id, tbl, 4, "m")
	chain := snapshotChain(t, tbl.Metadata) // head first
	three := 3
	if _, err := cat.CommitTable(ctx, id, nil, []Update{
		SetSnapshotRef{Name: "dev", Ref: SnapshotRef{SnapshotID: chain[1].SnapshotID, Type: "branch", MinSnapshotsToKeep: &three}},
	}); err != nil {
		t.Fatal(err)
	}
	mustExpire(t, cat, id, ExpireOptions{OlderThan: time.Now().Add(time.Hour)})
	tbl = reload(t, cat, id)
	// main keeps its head; dev keeps its head and two ancestors.
	want := []int64{chain[0].SnapshotID, chain[1].SnapshotID, chain[2].SnapshotID, chain[3].SnapshotID}
	slices.Sort(want)
	if got := snapshotIDs(tbl.Metadata); !slices.Equal(got, want) {
		t.Errorf("snapshots %v, want %v", got, want)
	}
	if _, ok := tbl.Metadata.Refs["dev"]; !ok {
		t.Errorf("branch dev removed")
	}
}

// TestExpireTableProperties: without arguments the history.expire.*
// properties decide: min-snapshots-to-keep, max-snapshot-age-ms and, for
// refs, max-ref-age-ms.
func TestExpireTableProperties(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, map[string]string{PropMinSnapshotsToKeep: "2", PropMaxSnapshotAgeMs: "3600000", PropMaxRefAgeMs: "7200000"})
	tbl, _ = appendN(t, cat, id, tbl, 5, "p")
	chain := snapshotChain(t, tbl.Metadata)
	if _, err := cat.CommitTable(ctx, id, nil, []Update{SetSnapshotRef{Name: "t1", Ref: SnapshotRef{SnapshotID: chain[4].SnapshotID, Type: "tag"}}}); err != nil {
		t.Fatal(err)
	}
	// Now: all five are younger than an hour: nothing goes.
	if res := mustExpire(t, cat, id, ExpireOptions{}); len(res.ExpiredSnapshots) != 0 || len(res.RemovedRefs) != 0 {
		t.Errorf("expired %+v while every snapshot is younger than max-snapshot-age-ms", res)
	}
	// In 90 minutes: older than max-snapshot-age-ms, two kept, the tag
	// younger than max-ref-age-ms keeps its snapshot.
	res := mustExpire(t, cat, id, ExpireOptions{Now: time.Now().Add(90 * time.Minute)})
	tbl = reload(t, cat, id)
	if len(res.ExpiredSnapshots) != 2 || len(tbl.Metadata.Snapshots) != 3 || tbl.Metadata.SnapshotByID(chain[4].SnapshotID) == nil {
		t.Errorf("in 90 minutes: %+v, snapshots %v", res, snapshotIDs(tbl.Metadata))
	}
	// In three hours the tag is too old too.
	res = mustExpire(t, cat, id, ExpireOptions{Now: time.Now().Add(3 * time.Hour)})
	tbl = reload(t, cat, id)
	if !slices.Equal(res.RemovedRefs, []string{"t1"}) || len(tbl.Metadata.Snapshots) != 2 {
		t.Errorf("in three hours: %+v, snapshots %v", res, snapshotIDs(tbl.Metadata))
	}
	// A property that is not a number is an error naming it.
	if _, err := cat.CommitTable(ctx, id, nil, []Update{SetProperties{Updates: map[string]string{PropMinSnapshotsToKeep: "many"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ExpireSnapshots(ctx, cat, id, ExpireOptions{}); err == nil || pgerr.As(err) == nil || pgerr.As(err).Code != pgerr.InvalidParameterValue {
		t.Errorf("bad property: %v", err)
	}
}

// TestExpireSnapshotIDsAndLog: an explicit snapshot id goes even inside
// retain_last; the snapshot log loses the entries before it, so time
// travel into the gap finds nothing rather than the wrong snapshot.
func TestExpireSnapshotIDsAndLog(t *testing.T) {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	tbl, _ = appendN(t, cat, id, tbl, 4, "s")
	chain := snapshotChain(t, tbl.Metadata)
	res := mustExpire(t, cat, id, ExpireOptions{SnapshotIDs: []int64{chain[2].SnapshotID}, RetainLast: 10})
	tbl = reload(t, cat, id)
	if !slices.Equal(res.ExpiredSnapshots, []int64{chain[2].SnapshotID}) || len(tbl.Metadata.Snapshots) != 3 {
		t.Fatalf("%+v; snapshots %v", res, snapshotIDs(tbl.Metadata))
	}
	var logged []int64
	for _, e := range tbl.Metadata.SnapshotLog {
		logged = append(logged, e.SnapshotID)
	}
	if !slices.Equal(logged, []int64{chain[1].SnapshotID, chain[0].SnapshotID}) {
		t.Errorf("snapshot log %v", logged)
	}
	if res.DeletedManifestLists != 1 || exists(t, tbl, chain[2].ManifestList) {
		t.Errorf("result %+v", res)
	}
}

// expireRace commits something else just before the first commit it
// passes on, as a concurrent writer would.
type expireRace struct {
	*Filesystem
	before func() error
	done   bool
}

func (r *expireRace) CommitTable(ctx context.Context, id Identifier, reqs []Requirement, updates []Update) (*Table, error) {
	if !r.done {
		r.done = true
		if err := r.before(); err != nil {
			return nil, err
		}
	}
	return r.Filesystem.CommitTable(ctx, id, reqs, updates)
}

// TestExpireRaces: an append committed while the expiration is planned
// does not stop it (main moved forward, the plan still holds); main moved
// back onto a snapshot being expired makes it plan again and keep it.
func TestExpireRaces(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	tbl, _ = appendN(t, cat, id, tbl, 4, "r")
	chain := snapshotChain(t, tbl.Metadata)
	late := writeEvents(t, tbl, "late", "red", 1)
	rc := &expireRace{Filesystem: cat, before: func() error {
		_, err := Append(ctx, cat, id, []*DataFile{late}, nil)
		return err
	}}
	res := mustExpire(t, rc, id, ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 2})
	tbl = reload(t, cat, id)
	if len(res.ExpiredSnapshots) != 2 || len(tbl.Metadata.Snapshots) != 3 || !exists(t, tbl, late.Path) {
		t.Errorf("after a concurrent append: %+v, snapshots %v", res, snapshotIDs(tbl.Metadata))
	}
	if res.DeletedManifestLists != 2 {
		t.Errorf("result %+v", res)
	}
	if got := len(livePaths(t, tbl)); got != 5 {
		t.Errorf("%d live files, want 5", got)
	}

	// Roll main back onto the oldest remaining ancestor while expiring it.
	cat2 := newWarehouse(t)
	id2, tbl2 := newEvents(t, cat2, "ev", 2, nil)
	tbl2, _ = appendN(t, cat2, id2, tbl2, 3, "q")
	chain = snapshotChain(t, tbl2.Metadata)
	rc = &expireRace{Filesystem: cat2, before: func() error {
		_, err := cat2.CommitTable(ctx, id2, nil, []Update{SetSnapshotRef{Name: "main", Ref: SnapshotRef{SnapshotID: chain[2].SnapshotID, Type: "branch"}}})
		return err
	}}
	res = mustExpire(t, rc, id2, ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
	tbl2 = reload(t, cat2, id2)
	if *tbl2.Metadata.CurrentSnapshotID != chain[2].SnapshotID || tbl2.Metadata.SnapshotByID(chain[2].SnapshotID) == nil {
		t.Fatalf("main rolled back to %d lost: current %v, snapshots %v", chain[2].SnapshotID, tbl2.Metadata.CurrentSnapshotID, snapshotIDs(tbl2.Metadata))
	}
	if len(tbl2.Metadata.Snapshots) != 1 || len(livePaths(t, tbl2)) != 1 {
		t.Errorf("after the rollback: %+v, snapshots %v", res, snapshotIDs(tbl2.Metadata))
	}
}

// TestExpireCancelled: a cancelled expiration commits nothing.
func TestExpireCancelled(t *testing.T) {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	tbl, _ = appendN(t, cat, id, tbl, 3, "c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ExpireSnapshots(ctx, cat, id, ExpireOptions{OlderThan: time.Now().Add(time.Hour)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if got := reload(t, cat, id); got.MetadataLocation != tbl.MetadataLocation || len(got.Metadata.Snapshots) != 3 {
		t.Errorf("a cancelled expiration committed")
	}
}

// TestExpireCleanMetadata: with CleanExpiredMetadata the partition specs
// and schemas only expired snapshots used are removed too.
func TestExpireCleanMetadata(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, nil)
	a := writeEvents(t, tbl, "a", "red", 2)
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{a}})
	oldSpec := tbl.Metadata.DefaultSpecID
	var err error
	if tbl, err = cat.CommitTable(ctx, id, nil, []Update{AddSpec{Spec: &PartitionSpec{}}, SetDefaultSpec{SpecID: LastAdded}}); err != nil {
		t.Fatal(err)
	}
	b := writeEvents(t, tbl, "b", "red", 2)
	b.Partition, b.SpecID = nil, tbl.Metadata.DefaultSpecID
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{b}, RemovedDataFiles: []*DataFile{a}, ReferencedDataFiles: []string{a.Path}, BaseSnapshotID: headID(tbl)})
	// The head's manifests still name spec 0 (a's entry, deleted): it
	// stays until a snapshot no longer carries that manifest.
	res := mustExpire(t, cat, id, ExpireOptions{OlderThan: time.Now().Add(time.Hour), CleanExpiredMetadata: true})
	if tbl = reload(t, cat, id); tbl.Metadata.SpecByID(oldSpec) == nil {
		t.Fatalf("spec %d removed while the head's manifests use it: %+v", oldSpec, res)
	}
	c := writeEvents(t, tbl, "c", "red", 2)
	c.Partition, c.SpecID = nil, tbl.Metadata.DefaultSpecID
	tbl = mustCommit(t, cat, id, &Change{AddedDataFiles: []*DataFile{c}, BaseSnapshotID: headID(tbl)})
	res = mustExpire(t, cat, id, ExpireOptions{OlderThan: time.Now().Add(time.Hour), CleanExpiredMetadata: true})
	tbl = reload(t, cat, id)
	if tbl.Metadata.SpecByID(oldSpec) != nil || !slices.Equal(res.RemovedSpecs, []int{oldSpec}) {
		t.Errorf("spec %d not removed: %+v", oldSpec, res)
	}
	if got := planned(t, tbl); !equalStrings(got, []string{"b.parquet: ", "c.parquet: "}) {
		t.Errorf("planned %v", got)
	}
}

// TestMetadataPrunedByExpire: an expiration is a commit like any other:
// with delete-after-commit the metadata files that fall off the log go.
func TestMetadataPrunedByExpire(t *testing.T) {
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, map[string]string{PropPreviousVersionsMax: "1", PropDeleteAfterCommit: "true"})
	tbl, _ = appendN(t, cat, id, tbl, 3, "m")
	mustExpire(t, cat, id, ExpireOptions{OlderThan: time.Now().Add(time.Hour)})
	tbl = reload(t, cat, id)
	names := listDir(t, filepath.Dir(tbl.MetadataLocation))
	if got := countSuffix(names, ".metadata.json"); got != 2 || len(tbl.Metadata.MetadataLog) != 1 {
		t.Errorf("metadata files %v, log %v", names, tbl.Metadata.MetadataLog)
	}
}

// TestGCDisabled: with gc.enabled false neither expiration nor orphan
// removal runs (55000), and nothing changes.
func TestGCDisabled(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id, tbl := newEvents(t, cat, "ev", 2, map[string]string{PropGCEnabled: "False"})
	tbl, _ = appendN(t, cat, id, tbl, 3, "g")
	_, err := ExpireSnapshots(ctx, cat, id, ExpireOptions{OlderThan: time.Now().Add(time.Hour)})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.ObjectNotInPrerequisiteState {
		t.Errorf("expire: %v", err)
	}
	_, err = RemoveOrphanFiles(ctx, cat, id, OrphanOptions{OlderThan: time.Now()})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.ObjectNotInPrerequisiteState {
		t.Errorf("remove orphan files: %v", err)
	}
	if got := reload(t, cat, id); got.MetadataLocation != tbl.MetadataLocation {
		t.Errorf("committed with gc.enabled false")
	}
}

// TestExpireWithoutMainRef: metadata naming its current snapshot without
// a main branch still keeps that snapshot.
func TestExpireWithoutMainRef(t *testing.T) {
	one, two := int64(1), int64(2)
	m := &TableMetadata{Snapshots: []*Snapshot{{SnapshotID: 1, TimestampMs: 10}, {SnapshotID: 2, ParentSnapshotID: &one, TimestampMs: 20}}}
	m.CurrentSnapshotID = &two
	plan, err := PlanExpire(m, ExpireOptions{Now: time.UnixMilli(1000), OlderThan: time.UnixMilli(100)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Snapshots, []int64{1}) {
		t.Errorf("plan %+v", plan)
	}
}
