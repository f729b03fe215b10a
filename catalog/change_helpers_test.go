package catalog

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The change tests describe files without writing them: planning and
// validation read only manifests.

// fakeData is a data file of the events table (partitioned by category)
// with n rows.
func fakeData(tbl *Table, name, category string, n int64) *DataFile {
	return &DataFile{
		Content: ContentData, Path: tbl.Metadata.Location + "/data/category=" + category + "/" + name + ".parquet",
		Format: FormatParquet, SpecID: tbl.Metadata.DefaultSpecID, Partition: []any{category},
		RecordCount: n, FileSizeInBytes: 100 * n,
		LowerBounds: map[int][]byte{2: []byte(category)}, UpperBounds: map[int][]byte{2: []byte(category)},
	}
}

// fakePosDeletes is a v2 position delete file of n deletes scoped to
// data file of (equal file_path bounds).
func fakePosDeletes(tbl *Table, name string, of *DataFile, n int64) *DataFile {
	return &DataFile{
		Content: ContentPositionDelete, Path: tbl.Metadata.Location + "/data/" + name + "-deletes.parquet",
		Format: FormatParquet, SpecID: of.SpecID, Partition: of.Partition,
		RecordCount: n, FileSizeInBytes: 10 * n,
		LowerBounds: map[int][]byte{filePathFieldID: []byte(of.Path)}, UpperBounds: map[int][]byte{filePathFieldID: []byte(of.Path)},
	}
}

// fakePartitionDeletes is a position delete file naming no single data
// file, in a partition of the events table.
func fakePartitionDeletes(tbl *Table, name, category string) *DataFile {
	return &DataFile{
		Content: ContentPositionDelete, Path: tbl.Metadata.Location + "/data/" + name + "-deletes.parquet",
		Format: FormatParquet, SpecID: tbl.Metadata.DefaultSpecID, Partition: []any{category},
		RecordCount: 2, FileSizeInBytes: 20,
	}
}

// fakeEqDeletes is an equality delete file on id in a partition.
func fakeEqDeletes(tbl *Table, name, category string) *DataFile {
	return &DataFile{
		Content: ContentEqualityDelete, Path: tbl.Metadata.Location + "/data/" + name + "-eq.parquet",
		Format: FormatParquet, SpecID: tbl.Metadata.DefaultSpecID, Partition: []any{category},
		RecordCount: 1, FileSizeInBytes: 10, EqualityIDs: []int{1},
	}
}

// fakeDV is a deletion vector of n deleted rows of data file of, a blob at
// offset in Puffin file puffin.
func fakeDV(tbl *Table, puffin string, offset int64, of *DataFile, n int64) *DataFile {
	ref := of.Path
	size := int64(40)
	return &DataFile{
		Content: ContentPositionDelete, Path: tbl.Metadata.Location + "/data/" + puffin + ".puffin",
		Format: FormatPuffin, SpecID: of.SpecID, Partition: of.Partition,
		RecordCount: n, FileSizeInBytes: 1000,
		ReferencedDataFile: &ref, ContentOffset: &offset, ContentSizeInBytes: &size,
	}
}

// newEvents creates db.<name>, an events table of format version, with
// extra properties.
func newEvents(t *testing.T, cat *Filesystem, name string, version int, props map[string]string) (Identifier, *Table) {
	t.Helper()
	id := Identifier{Namespace: []string{"db"}, Name: name}
	spec := eventsSpec(version)
	for k, v := range props {
		spec.Properties[k] = v
	}
	tbl, err := cat.CreateTable(context.Background(), id, spec)
	if err != nil {
		t.Fatal(err)
	}
	return id, tbl
}

// mustCommit commits a change and returns the table after it.
func mustCommit(t *testing.T, cat MutableCatalog, id Identifier, c *Change) *Table {
	t.Helper()
	tbl, err := CommitChange(context.Background(), cat, id, c)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// headID is the id of the table's current snapshot.
func headID(tbl *Table) *int64 {
	if s := tbl.Metadata.CurrentSnapshot(); s != nil {
		id := s.SnapshotID
		return &id
	}
	return nil
}

// planned renders the current snapshot's tasks as "data: delete, delete"
// lines (file names only), sorted.
func planned(t *testing.T, tbl *Table) []string {
	t.Helper()
	var out []string
	for _, task := range planCurrent(t, tbl) {
		var dels []string
		for _, d := range task.Deletes {
			name := baseName(d.Path)
			if d.ContentOffset != nil {
				name += "@" + itoa64(*d.ContentOffset)
			}
			dels = append(dels, name)
		}
		sort.Strings(dels)
		out = append(out, baseName(task.File.Path)+": "+strings.Join(dels, ", "))
	}
	sort.Strings(out)
	return out
}

func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// entriesOf reads the manifests of a snapshot: per manifest, its entries
// as "status name snapshot seq" strings.
func entriesOf(t *testing.T, tbl *Table, snap *Snapshot) [][]ManifestEntry {
	t.Helper()
	ctx := context.Background()
	list, err := ReadManifestList(ctx, tbl.IO, snap)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]ManifestEntry
	for i := range list {
		m, err := ReadManifest(ctx, tbl.IO, &list[i])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m.Entries)
	}
	return out
}

// wantSummary checks summary keys (a "" value: the key is absent).
func wantSummary(t *testing.T, snap *Snapshot, want map[string]string) {
	t.Helper()
	for k, v := range want {
		got, ok := snap.Summary[k]
		if v == "" && ok {
			t.Errorf("summary has %s = %q, want none", k, got)
		} else if v != "" && got != v {
			t.Errorf("summary %s = %q, want %q", k, got, v)
		}
	}
}

// isValidationConflict reports whether err is a validation failure that
// also reads as a commit conflict.
func isValidationConflict(err error) bool {
	return errors.Is(err, ErrValidation) && errors.Is(err, ErrCommitConflict)
}

func equalStrings(a, b []string) bool { return slices.Equal(a, b) }
