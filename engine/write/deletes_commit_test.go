package write

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
)

// TestWriteDeletesAndCommit appends rows to a partitioned table of a
// filesystem catalog twice, deletes the rows with an even id through
// delete files written for the data files as planning returns them,
// commits them with catalog.CommitChange, and reads the table back
// through planning (which matches deletes to data files from the
// manifests) and the scan.
func TestWriteDeletesAndCommit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		version int
		props   map[string]string
	}{
		{"v2 file granularity", 2, nil},
		{"v2 partition granularity", 2, map[string]string{propDeleteGranularity: "partition"}},
		{"v2 avro", 2, map[string]string{propDeleteFormat: "avro"}},
		{"v3", 3, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			cat, err := catalog.NewFilesystem("w", t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			id := catalog.Identifier{Namespace: []string{"db"}, Name: "t"}
			tbl, err := cat.CreateTable(ctx, id, catalog.TableSpec{Schema: partSchema(), FormatVersion: tc.version,
				Properties: tc.props, Spec: &catalog.PartitionSpec{Fields: []catalog.PartitionField{
					{SourceID: 2, FieldID: 1000, Name: "ts_day", Transform: catalog.Transform{Name: "day"}},
					{SourceID: 1, FieldID: 1001, Name: "id_bucket", Transform: catalog.Transform{Name: "bucket", Param: 2}},
					{SourceID: 3, FieldID: 1002, Name: "s", Transform: catalog.Transform{Name: "identity"}},
				}}})
			if err != nil {
				t.Fatal(err)
			}
			schema := tbl.Metadata.CurrentSchema()
			spec := tbl.Metadata.SpecByID(tbl.Metadata.DefaultSpecID)
			out, err := cat.NewOutput(tbl)
			if err != nil {
				t.Fatal(err)
			}
			rec := recordFromJSON(t, schema, partRows)
			defer rec.Release()
			for range 2 {
				files := writeAll(t, WriterSpec{IO: TableOutput(ctx, out), DataDir: DataDir(tbl.Metadata), Schema: schema,
					Spec: spec, Properties: tbl.Metadata.Properties, FormatVersion: tc.version}, rec)
				if _, err := catalog.Append(ctx, cat, id, files, nil); err != nil {
					t.Fatalf("append: %v", err)
				}
			}
			if tbl, err = cat.LoadTable(ctx, id); err != nil {
				t.Fatal(err)
			}
			tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
			if err != nil {
				t.Fatal(err)
			}
			var deletes []FileDeletes
			var refs []string
			for _, task := range tasks {
				ids := tableIDs(t, tbl, schema, []catalog.FileScanTask{task})
				var pos []int64
				for p, v := range ids {
					if v%2 == 0 {
						pos = append(pos, int64(p))
					}
				}
				if len(pos) > 0 {
					deletes = append(deletes, FileDeletes{File: task.File, Positions: pos})
					refs = append(refs, task.File.Path)
				}
			}
			dels, err := WriteDeletes(ctx, DeleteSpec{IO: TableOutput(ctx, out), DataDir: DataDir(tbl.Metadata),
				Metadata: tbl.Metadata}, deletes)
			if err != nil {
				t.Fatalf("write deletes: %v", err)
			}
			for _, d := range dels {
				if strings.Contains(d.Path, "a b/c") || (d.Format != catalog.FormatPuffin && !strings.Contains(d.Path, "ts_day=")) {
					t.Errorf("delete file path %s", d.Path)
				}
			}
			tbl, err = catalog.CommitChange(ctx, cat, id, &catalog.Change{AddedDeleteFiles: dels,
				ReferencedDataFiles: refs, BaseSnapshotID: &tbl.Metadata.CurrentSnapshot().SnapshotID,
				Isolation: catalog.SnapshotIsolation})
			if err != nil {
				t.Fatalf("commit: %v", err)
			}
			tasks, err = catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range tasks {
				for _, d := range task.Deletes {
					if d.ReferencedDataFile != nil && *d.ReferencedDataFile != task.File.Path {
						t.Errorf("delete file %s for %s planned for %s", d.Path, *d.ReferencedDataFile, task.File.Path)
					}
				}
			}
			got := tableIDs(t, tbl, schema, tasks)
			slices.Sort(got)
			if want := []int64{1, 1, 3, 3, 5, 5}; !slices.Equal(got, want) {
				t.Errorf("ids after delete = %v, want %v", got, want)
			}
		})
	}
}

// tableIDs scans tasks of a catalog table and returns the id column.
func tableIDs(t *testing.T, tbl *catalog.Table, schema *catalog.Schema, tasks []catalog.FileScanTask) []int64 {
	t.Helper()
	recs := scanRecords(t, tbl, schema, tasks)
	defer releaseAll(recs)
	var ids []int64
	for _, r := range recs {
		col := r.Column(0).(*array.Int64)
		for i := 0; i < col.Len(); i++ {
			ids = append(ids, col.Value(i))
		}
	}
	return ids
}
