package write

import (
	"context"
	"slices"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// TestWriteAndAppend writes rows into a table of a filesystem catalog,
// commits them with catalog.Append, and reads the new snapshot back
// through planning and the scan.
func TestWriteAndAppend(t *testing.T) {
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("w", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	id := catalog.Identifier{Namespace: []string{"db"}, Name: "t"}
	tbl, err := cat.CreateTable(ctx, id, catalog.TableSpec{Schema: partSchema(),
		Spec: &catalog.PartitionSpec{Fields: []catalog.PartitionField{
			{SourceID: 2, FieldID: 1000, Name: "ts_day", Transform: catalog.Transform{Name: "day"}},
			{SourceID: 1, FieldID: 1001, Name: "id_bucket", Transform: catalog.Transform{Name: "bucket", Param: 4}},
		}}})
	if err != nil {
		t.Fatal(err)
	}
	schema := tbl.Metadata.CurrentSchema()
	var spec *catalog.PartitionSpec
	for _, s := range tbl.Metadata.PartitionSpecs {
		if s.ID == tbl.Metadata.DefaultSpecID {
			spec = s
		}
	}
	out, err := cat.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	rec := recordFromJSON(t, schema, partRows)
	defer rec.Release()
	files := writeAll(t, WriterSpec{IO: TableOutput(ctx, out), DataDir: DataDir(tbl.Metadata), Schema: schema, Spec: spec,
		Properties: tbl.Metadata.Properties, FormatVersion: tbl.Metadata.FormatVersion}, rec)
	if _, err := catalog.Append(ctx, cat, id, files, nil); err != nil {
		t.Fatalf("append: %v", err)
	}
	tbl, err = cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != len(files) {
		t.Errorf("planned %d files, wrote %d", len(tasks), len(files))
	}
	for _, task := range tasks {
		i := slices.IndexFunc(files, func(f *catalog.DataFile) bool { return f.Path == task.File.Path })
		if i < 0 || !tuplesEqual(task.File.Partition, files[i].Partition) || task.File.RecordCount != files[i].RecordCount {
			t.Errorf("manifest entry %s (partition %v) does not match the written file", task.File.Path, task.File.Partition)
		}
	}
	got := scanRecords(t, tbl, schema, tasks)
	defer releaseAll(got)
	if g, w := sortedRows(got...), sortedRows(rec); !slices.Equal(g, w) {
		t.Errorf("rows differ\n got: %q\nwant: %q", g, w)
	}
}
