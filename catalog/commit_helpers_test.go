package catalog

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// eventRow is the row type of the Parquet files the commit tests write.
type eventRow struct {
	ID       int64  `parquet:"id"`
	Category string `parquet:"category"`
}

// eventsSpec is a table of events partitioned by category.
func eventsSpec(version int) TableSpec {
	return TableSpec{
		Schema: &Schema{Fields: []NestedField{
			{ID: 10, Name: "id", Required: true, Type: &PrimitiveType{ID: TLong}},
			{ID: 20, Name: "category", Type: &PrimitiveType{ID: TString}},
		}, IdentifierFieldIDs: []int{10}},
		Spec:          &PartitionSpec{Fields: []PartitionField{{SourceID: 20, Transform: Transform{Name: "identity"}}}},
		FormatVersion: version,
		Properties:    map[string]string{"owner": "tests"},
	}
}

// newWarehouse returns a Filesystem catalog over a fresh directory with
// namespace "db".
func newWarehouse(t *testing.T) *Filesystem {
	t.Helper()
	cat, err := NewFilesystem("wh", filepath.Join(t.TempDir(), "warehouse"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(context.Background(), []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	return cat
}

// writeEvents writes a Parquet file of n rows of one category into the
// table's data directory and returns it as a DataFile of the table's
// default spec.
func writeEvents(t *testing.T, tbl *Table, name string, category string, n int) *DataFile {
	t.Helper()
	rows := make([]eventRow, n)
	for i := range rows {
		rows[i] = eventRow{ID: int64(i), Category: category}
	}
	rel := "data/category=" + category + "/" + name + ".parquet"
	local := filepath.Join(stripScheme(tbl.Metadata.Location), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := parquet.WriteFile(local, rows); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(local)
	if err != nil {
		t.Fatal(err)
	}
	return &DataFile{
		Content: ContentData, Path: tbl.Metadata.Location + "/" + rel, Format: FormatParquet,
		SpecID: tbl.Metadata.DefaultSpecID, Partition: []any{category},
		RecordCount: int64(n), FileSizeInBytes: st.Size(),
		ValueCounts: map[int]int64{1: int64(n), 2: int64(n)}, NullValueCounts: map[int]int64{1: 0, 2: 0},
		LowerBounds: map[int][]byte{2: []byte(category)}, UpperBounds: map[int][]byte{2: []byte(category)},
	}
}

// listDir returns the sorted names of the files in dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// snapshotChain walks parents from the current snapshot.
func snapshotChain(t *testing.T, m *TableMetadata) []*Snapshot {
	t.Helper()
	var chain []*Snapshot
	for s := m.CurrentSnapshot(); s != nil; {
		chain = append(chain, s)
		if s.ParentSnapshotID == nil {
			break
		}
		next := m.SnapshotByID(*s.ParentSnapshotID)
		if next == nil {
			t.Fatalf("snapshot %d names missing parent %d", s.SnapshotID, *s.ParentSnapshotID)
		}
		s = next
	}
	return chain
}

func livePaths(t *testing.T, tbl *Table) []string {
	t.Helper()
	var out []string
	for _, task := range planCurrent(t, tbl) {
		out = append(out, task.File.Path)
	}
	sort.Strings(out)
	return out
}

func countSuffix(names []string, suffix string) int {
	n := 0
	for _, s := range names {
		if strings.HasSuffix(s, suffix) {
			n++
		}
	}
	return n
}
