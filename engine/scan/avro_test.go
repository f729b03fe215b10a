package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/avro"
	"github.com/twmb/avro/ocf"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// TestAvroDataFiles reads the fixtures whose data files are Avro: values
// by field id, and v3 defaults for columns the Avro files lack.
func TestAvroDataFiles(t *testing.T) {
	cases := []struct {
		table string
		want  []string
	}{
		{"impala__iceberg_avro_only", []string{
			`{"double_col":0.5,"int_col":1,"string_col":"A"}`,
			`{"double_col":1.5,"int_col":2,"string_col":"B"}`,
			`{"double_col":2.5,"int_col":3,"string_col":"C"}`,
		}},
		{"impala__iceberg_v3_default_value_avro", []string{
			`{"i":1,"j":-1}`,
			`{"i":2,"j":2}`,
		}},
	}
	for _, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			tbl, tasks := loadTable(t, c.table)
			schema := tbl.Metadata.CurrentSchema()
			mem := newChecked(t)
			recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)},
				Options{Alloc: mem, BatchSize: 2})
			if err != nil {
				t.Fatal(err)
			}
			got := jsonRows(t, recs)
			releaseRecs(recs)
			mem.AssertSize(t, 0)
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestEmptyScan has no tasks: the first Next ends the stream.
func TestEmptyScan(t *testing.T) {
	tbl, _ := loadTable(t, "lithium__no_partitioning")
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Schema: schema, FieldIDs: allFieldIDs(schema)}, Options{Alloc: mem})
	if err != nil || len(recs) != 0 {
		t.Fatalf("got %d batches, %v; want none", len(recs), err)
	}
	mem.AssertSize(t, 0)
}

// TestAvroPositionDeletes applies a position-delete file written in Avro
// (field ids in field-id properties) to the written Parquet data file.
func TestAvroPositionDeletes(t *testing.T) {
	path := writeTestParquet(t)
	schema := avro.MustParse(`{"type":"record","name":"position_delete","fields":[
		{"name":"file_path","type":"string","field-id":2147483546},
		{"name":"pos","type":"long","field-id":2147483545}]}`)
	delPath := filepath.Join(t.TempDir(), "deletes.avro")
	f, err := os.Create(delPath)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ocf.NewWriter(f, schema)
	if err != nil {
		t.Fatal(err)
	}
	deleted := []int64{3, 698, 1400, 2499}
	for _, p := range deleted {
		if err := w.Encode(map[string]any{"file_path": path, "pos": p}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tbl := &catalog.Table{IO: localIO{}, Metadata: &catalog.TableMetadata{}}
	task := catalog.FileScanTask{
		File:    &catalog.DataFile{Path: path, Format: catalog.FormatParquet},
		Deletes: []*catalog.DataFile{{Path: delPath, Format: catalog.FormatAvro, Content: catalog.ContentPositionDelete}},
	}
	mem := newChecked(t)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Schema: writtenSchema, FieldIDs: []int{1},
		Tasks: []catalog.FileScanTask{task}}, Options{Alloc: mem, BatchSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	got := formatRows(recs)
	releaseRecs(recs)
	mem.AssertSize(t, 0)
	if len(got) != writtenRows-len(deleted) {
		t.Fatalf("rows = %d, want %d", len(got), writtenRows-len(deleted))
	}
	for _, row := range got {
		for _, d := range deleted {
			if row == fmt.Sprint(d) {
				t.Errorf("deleted row %s was returned", row)
			}
		}
	}
}
