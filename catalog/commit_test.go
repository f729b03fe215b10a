package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// TestCreateAppendReload creates a table of each format version, appends
// twice, reloads it through a fresh catalog and checks files, summaries,
// sequence numbers, logs and row lineage.
func TestCreateAppendReload(t *testing.T) {
	ctx := context.Background()
	for _, version := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("v%d", version), func(t *testing.T) {
			cat := newWarehouse(t)
			id := Identifier{Namespace: []string{"db"}, Name: "events"}
			tbl, err := cat.CreateTable(ctx, id, eventsSpec(version))
			if err != nil {
				t.Fatal(err)
			}
			m := tbl.Metadata
			if m.FormatVersion != version || m.LastColumnID != 2 || m.CurrentSnapshot() != nil || m.Properties["owner"] != "tests" {
				t.Fatalf("new table metadata: %+v", m)
			}
			s := m.CurrentSchema()
			if s.Fields[0].ID != 1 || s.Fields[1].ID != 2 || !slices.Equal(s.IdentifierFieldIDs, []int{1}) {
				t.Fatalf("fresh ids not assigned: %+v", s)
			}
			spec := m.SpecByID(m.DefaultSpecID)
			if len(spec.Fields) != 1 || spec.Fields[0].SourceID != 2 || spec.Fields[0].FieldID != 1000 || spec.Fields[0].Name != "category" || m.LastPartitionID != 1000 {
				t.Fatalf("fresh spec: %+v, last partition id %d", spec, m.LastPartitionID)
			}

			a1 := writeEvents(t, tbl, "a1", "red", 3)
			a2 := writeEvents(t, tbl, "a2", "blue", 4)
			if _, err := Append(ctx, cat, id, []*DataFile{a1, a2}, map[string]string{"app": "icegate"}); err != nil {
				t.Fatal(err)
			}
			b1 := writeEvents(t, tbl, "b1", "red", 5)
			if _, err := Append(ctx, cat, id, []*DataFile{b1}, nil); err != nil {
				t.Fatal(err)
			}

			fresh, err := NewFilesystem("again", cat.Root(), nil)
			if err != nil {
				t.Fatal(err)
			}
			tbl, err = fresh.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			m = tbl.Metadata
			if filepath.Base(tbl.MetadataLocation) != "v3.metadata.json" {
				t.Fatalf("current metadata %s, want v3.metadata.json", tbl.MetadataLocation)
			}
			chain := snapshotChain(t, m)
			if len(chain) != 2 || len(m.Snapshots) != 2 || len(m.SnapshotLog) != 2 || len(m.MetadataLog) != 2 {
				t.Fatalf("chain %d, snapshots %d, snapshot log %d, metadata log %d", len(chain), len(m.Snapshots), len(m.SnapshotLog), len(m.MetadataLog))
			}
			second, first := chain[0], chain[1]
			wantSum := map[string]string{
				"operation": "append", "added-data-files": "1", "added-records": "5",
				"added-files-size": strconv.FormatInt(b1.FileSizeInBytes, 10), "changed-partition-count": "1",
				"total-records": "12", "total-data-files": "3", "total-delete-files": "0",
				"total-position-deletes": "0", "total-equality-deletes": "0",
				"total-files-size": strconv.FormatInt(a1.FileSizeInBytes+a2.FileSizeInBytes+b1.FileSizeInBytes, 10),
			}
			for k, v := range wantSum {
				if second.Summary[k] != v {
					t.Errorf("summary %s = %q, want %q", k, second.Summary[k], v)
				}
			}
			if first.Summary["changed-partition-count"] != "2" || first.Summary["app"] != "icegate" || first.Summary["total-records"] != "7" {
				t.Errorf("first summary %v", first.Summary)
			}
			wantSeq := []int64{1, 2}
			if version == 1 {
				wantSeq = []int64{0, 0}
			}
			if first.SequenceNumber != wantSeq[0] || second.SequenceNumber != wantSeq[1] || m.LastSequenceNumber != wantSeq[1] {
				t.Errorf("sequence numbers %d, %d (last %d), want %v", first.SequenceNumber, second.SequenceNumber, m.LastSequenceNumber, wantSeq)
			}
			tasks := planCurrent(t, tbl)
			if len(tasks) != 3 {
				t.Fatalf("%d tasks, want 3", len(tasks))
			}
			for _, task := range tasks {
				f := task.File
				wantSnap, seq := first.SnapshotID, wantSeq[0]
				if f.Path == b1.Path {
					wantSnap, seq = second.SnapshotID, wantSeq[1]
				}
				if f.SnapshotID != wantSnap || f.DataSequenceNumber != seq || f.FileSequenceNumber != seq {
					t.Errorf("%s: snapshot %d seq %d/%d, want %d seq %d", f.Path, f.SnapshotID, f.DataSequenceNumber, f.FileSequenceNumber, wantSnap, seq)
				}
				if len(f.Partition) != 1 || f.Partition[0] != map[string]string{a1.Path: "red", a2.Path: "blue", b1.Path: "red"}[f.Path] {
					t.Errorf("%s: partition %v", f.Path, f.Partition)
				}
			}
			if version >= 3 {
				if *first.FirstRowID != 0 || *first.AddedRows != 7 || *second.FirstRowID != 7 || *second.AddedRows != 5 || *m.NextRowID != 12 {
					t.Errorf("row lineage: first %d+%d, second %d+%d, next %d", *first.FirstRowID, *first.AddedRows, *second.FirstRowID, *second.AddedRows, *m.NextRowID)
				}
				for _, task := range tasks {
					if task.File.FirstRowID == nil {
						t.Errorf("%s has no first row id", task.File.Path)
					} else if task.File.Path == b1.Path && *task.File.FirstRowID != 7 {
						t.Errorf("%s first row id %d, want 7", task.File.Path, *task.File.FirstRowID)
					}
				}
			}
			// Every metadata file written parses and round-trips.
			for _, n := range listDir(t, filepath.Join(filepath.Dir(tbl.MetadataLocation))) {
				if metadataVersion(n) < 0 {
					continue
				}
				data := readFixtureMetadata(t, filepath.Join(filepath.Dir(tbl.MetadataLocation), n))
				pm, err := ParseMetadata(data)
				if err != nil {
					t.Fatalf("%s: %v", n, err)
				}
				if pm.FormatVersion != version {
					t.Errorf("%s: format version %d", n, pm.FormatVersion)
				}
			}
		})
	}
}

// TestConcurrentAppends appends from 8 goroutines at once: every file lands
// exactly once, the snapshot chain is linear and no file of a lost race
// stays behind.
func TestConcurrentAppends(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "busy"}
	spec := eventsSpec(2)
	spec.Properties = map[string]string{PropCommitNumRetries: "100", PropCommitMinWaitMs: "1", PropCommitMaxWaitMs: "20"}
	tbl, err := cat.CreateTable(ctx, id, spec)
	if err != nil {
		t.Fatal(err)
	}
	const writers = 8
	files := make([]*DataFile, writers)
	for i := range files {
		files[i] = writeEvents(t, tbl, fmt.Sprintf("w%d", i), "c"+strconv.Itoa(i%3), i+1)
	}
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Append(ctx, cat, id, files[i:i+1], nil)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	tbl, err = cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range files {
		want = append(want, f.Path)
	}
	slices.Sort(want)
	if got := livePaths(t, tbl); !slices.Equal(got, want) {
		t.Fatalf("live files\n got %v\nwant %v", got, want)
	}
	chain := snapshotChain(t, tbl.Metadata)
	if len(chain) != writers || len(tbl.Metadata.Snapshots) != writers {
		t.Fatalf("chain of %d snapshots, %d in metadata, want %d", len(chain), len(tbl.Metadata.Snapshots), writers)
	}
	for i, s := range chain {
		if s.SequenceNumber != int64(writers-i) {
			t.Errorf("snapshot %d of the chain has sequence number %d, want %d", i, s.SequenceNumber, writers-i)
		}
		if s.Summary["total-data-files"] != strconv.Itoa(writers-i) {
			t.Errorf("snapshot %d total-data-files %s", i, s.Summary["total-data-files"])
		}
	}
	names := listDir(t, filepath.Dir(tbl.MetadataLocation))
	if n := countSuffix(names, ".avro"); n != 2*writers {
		t.Errorf("%d Avro files in metadata/, want %d (a manifest and a list per commit): %v", n, 2*writers, names)
	}
	if n := countSuffix(names, ".metadata.json"); n != writers+1 {
		t.Errorf("%d metadata files, want %d: %v", n, writers+1, names)
	}
	if n := countSuffix(names, ".tmp"); n != 0 {
		t.Errorf("%d temporary files left: %v", n, names)
	}
	if filepath.Base(tbl.MetadataLocation) != fmt.Sprintf("v%d.metadata.json", writers+1) {
		t.Errorf("version hint leads to %s", tbl.MetadataLocation)
	}
}

// TestCommitRequirementFails checks every requirement kind: a failed one is
// ErrCommitConflict and leaves the table and its directory as they were.
func TestCommitRequirementFails(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "guarded"}
	tbl, err := cat.CreateTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	tbl, err = Append(ctx, cat, id, []*DataFile{writeEvents(t, tbl, "x", "red", 2)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := tbl.Metadata
	cur := *m.CurrentSnapshotID
	wrong := cur + 1
	metaDir := filepath.Dir(tbl.MetadataLocation)
	before := listDir(t, metaDir)
	update := []Update{SetProperties{Updates: map[string]string{"k": "v"}}}
	for _, tc := range []struct {
		req  Requirement
		pass bool
	}{
		{AssertCreate{}, false},
		{AssertTableUUID{UUID: "00000000-0000-0000-0000-000000000000"}, false},
		{AssertTableUUID{UUID: m.TableUUID}, true},
		{AssertRefSnapshotID{Ref: "main", SnapshotID: &wrong}, false},
		{AssertRefSnapshotID{Ref: "main", SnapshotID: nil}, false},
		{AssertRefSnapshotID{Ref: "audit", SnapshotID: &cur}, false},
		{AssertRefSnapshotID{Ref: "main", SnapshotID: &cur}, true},
		{AssertCurrentSchemaID{SchemaID: m.CurrentSchemaID + 1}, false},
		{AssertLastAssignedFieldID{LastAssignedFieldID: m.LastColumnID + 1}, false},
		{AssertLastAssignedPartitionID{LastAssignedPartitionID: m.LastPartitionID - 1}, false},
		{AssertDefaultSpecID{SpecID: m.DefaultSpecID + 1}, false},
		{AssertDefaultSortOrderID{SortOrderID: m.DefaultSortOrderID + 1}, false},
	} {
		err := tc.req.Validate(m)
		if tc.pass {
			if err != nil {
				t.Errorf("%s %+v: %v", tc.req.Kind(), tc.req, err)
			}
			continue
		}
		if !errors.Is(err, ErrCommitConflict) {
			t.Errorf("%s %+v: error %v, want a commit conflict", tc.req.Kind(), tc.req, err)
		}
		_, err = cat.CommitTable(ctx, id, []Requirement{AssertTableUUID{UUID: m.TableUUID}, tc.req}, update)
		if !errors.Is(err, ErrCommitConflict) {
			t.Errorf("commit with %s: error %v, want a commit conflict", tc.req.Kind(), err)
		}
	}
	after, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.MetadataLocation != tbl.MetadataLocation || after.Metadata.Properties["k"] != "" {
		t.Errorf("table changed: %s %v", after.MetadataLocation, after.Metadata.Properties)
	}
	if got := listDir(t, metaDir); !slices.Equal(got, before) {
		t.Errorf("metadata directory changed:\nbefore %v\nafter  %v", before, got)
	}
	// A passing commit goes through.
	if _, err := cat.CommitTable(ctx, id, []Requirement{AssertRefSnapshotID{Ref: "main", SnapshotID: &cur}}, update); err != nil {
		t.Fatal(err)
	}
}

// racingCatalog lets another writer commit just before each of its commits:
// a real concurrent change, as another process would make it.
type racingCatalog struct {
	*Filesystem
	rival func() error
}

func (r *racingCatalog) CommitTable(ctx context.Context, id Identifier, reqs []Requirement, updates []Update) (*Table, error) {
	if err := r.rival(); err != nil {
		return nil, err
	}
	return r.Filesystem.CommitTable(ctx, id, reqs, updates)
}

// TestAppendLostRaceCleansUp: with no retries left, an append that loses
// the race fails with ErrCommitConflict and removes its manifest and list.
func TestAppendLostRaceCleansUp(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "raced"}
	spec := eventsSpec(2)
	spec.Properties = map[string]string{PropCommitNumRetries: "0"}
	tbl, err := cat.CreateTable(ctx, id, spec)
	if err != nil {
		t.Fatal(err)
	}
	rivalFile := writeEvents(t, tbl, "rival", "red", 1)
	racing := &racingCatalog{Filesystem: cat, rival: func() error {
		_, err := Append(ctx, cat, id, []*DataFile{rivalFile}, nil)
		return err
	}}
	metaDir := filepath.Dir(tbl.MetadataLocation)
	_, err = Append(ctx, racing, id, []*DataFile{writeEvents(t, tbl, "loser", "blue", 1)}, nil)
	if !errors.Is(err, ErrCommitConflict) {
		t.Fatalf("error %v, want a commit conflict", err)
	}
	names := listDir(t, metaDir)
	if n := countSuffix(names, ".avro"); n != 2 {
		t.Errorf("%d Avro files, want the rival's 2: %v", n, names)
	}
	tbl, err = cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := livePaths(t, tbl); !slices.Equal(got, []string{rivalFile.Path}) {
		t.Errorf("live files %v", got)
	}

	// With retries the loser rebuilds on top of the rival and lands.
	if _, err := cat.CommitTable(ctx, id, nil, []Update{SetProperties{Updates: map[string]string{PropCommitNumRetries: "2", PropCommitMinWaitMs: "1"}}}); err != nil {
		t.Fatal(err)
	}
	calls := 0
	racing.rival = func() error {
		calls++
		if calls > 1 {
			return nil
		}
		_, err := Append(ctx, cat, id, []*DataFile{writeEvents(t, tbl, fmt.Sprintf("rival%d", calls), "red", 1)}, nil)
		return err
	}
	if _, err := Append(ctx, racing, id, []*DataFile{writeEvents(t, tbl, "winner", "blue", 1)}, nil); err != nil {
		t.Fatal(err)
	}
	tbl, err = cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(livePaths(t, tbl)); n != 3 {
		t.Errorf("%d live files, want 3", n)
	}
	if n := countSuffix(listDir(t, metaDir), ".avro"); n != 6 {
		t.Errorf("%d Avro files, want 6 (3 commits)", n)
	}
}

// TestAppendToFixtureCopies appends a copy of a live file to a copy of
// every fixture table (written by other engines: v1, v2, v3, foreign path
// prefixes, deletes, evolved specs) and plans the result.
func TestAppendToFixtureCopies(t *testing.T) {
	ctx := context.Background()
	fx := fixtures.Dir(t)
	tables := loadFixtureTables(t)
	folders := make([]string, 0, len(tables))
	for f := range tables {
		folders = append(folders, f)
	}
	slices.Sort(folders)
	for _, folder := range folders {
		t.Run(folder, func(t *testing.T) {
			ft := tables[folder]
			root := filepath.Join(t.TempDir(), "wh")
			copyTree(t, filepath.Join(fx, folder), filepath.Join(root, "iceberg", folder))
			cat, err := NewFilesystem("copy", root, nil)
			if err != nil {
				t.Fatal(err)
			}
			id := fixtureIdent(folder, ft)
			tbl, err := cat.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			before := planCurrent(t, tbl)
			if len(before) == 0 {
				t.Fatal("fixture has no live files")
			}
			// Add a copy of a live file under a new name.
			src := *before[0].File
			local, err := tbl.IO.Resolve(src.Path)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(local)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(append([]string{root}, append(id.Namespace, id.Name, "data")...)...)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			name := "appended" + filepath.Ext(local)
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
			added := src
			added.Path = DataLocation(tbl.Metadata) + "/" + name
			added.FirstRowID = nil
			after, err := Append(ctx, cat, id, []*DataFile{&added}, nil)
			if err != nil {
				t.Fatal(err)
			}
			m := after.Metadata
			if m.FormatVersion != ft.FormatVersion {
				t.Errorf("format version %d, want %d", m.FormatVersion, ft.FormatVersion)
			}
			tasks := planCurrent(t, after)
			if len(tasks) != len(before)+1 {
				t.Fatalf("%d live files after the append, want %d", len(tasks), len(before)+1)
			}
			found := false
			for _, task := range tasks {
				if task.File.Path == added.Path {
					found = true
					if task.File.SnapshotID != *m.CurrentSnapshotID || (m.FormatVersion >= 2 && task.File.DataSequenceNumber != m.LastSequenceNumber) {
						t.Errorf("appended file: snapshot %d seq %d", task.File.SnapshotID, task.File.DataSequenceNumber)
					}
					if !partitionsEqual(task.File.Partition, src.Partition) {
						t.Errorf("partition %v, want %v", task.File.Partition, src.Partition)
					}
				}
			}
			if !found {
				t.Error("appended file not planned")
			}
			parent := m.SnapshotByID(*m.CurrentSnapshot().ParentSnapshotID)
			if parent == nil || parent.SnapshotID != *ft.CurrentSnapshotID {
				t.Errorf("parent of the new snapshot is not the fixture's current snapshot")
			}
		})
	}
}
