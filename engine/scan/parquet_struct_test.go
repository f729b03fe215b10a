package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// TestNestedPathsAgree reads every fixture table that has struct or list
// columns twice, through the struct and list fast paths and through the
// general level assembly, and requires the same rows.
func TestNestedPathsAgree(t *testing.T) {
	facts := loadFacts(t)
	names := make([]string, 0, len(facts))
	for n := range facts {
		names = append(names, n)
	}
	sort.Strings(names)
	tested := 0
	for _, name := range names {
		tbl, tasks := loadTable(t, name)
		schema := tbl.Metadata.CurrentSchema()
		var ids []int
		for _, f := range schema.Fields {
			switch f.Type.(type) {
			case *catalog.StructType, *catalog.ListType:
				ids = append(ids, f.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids}
			mem := newChecked(t)
			fast, err := scanAll(t, spec, Options{Alloc: mem, BatchSize: 3})
			if err != nil {
				t.Skipf("table not readable: %v", err)
			}
			general, err := scanAll(t, spec, Options{Alloc: mem, BatchSize: 3, generalNested: true})
			if err != nil {
				t.Fatal(err)
			}
			a, b := jsonRows(t, fast), jsonRows(t, general)
			slices.Sort(a) // files are read in parallel: order differs
			slices.Sort(b)
			releaseRecs(fast)
			releaseRecs(general)
			mem.AssertSize(t, 0)
			if !slices.Equal(a, b) {
				t.Errorf("fast path:\n%s\ngeneral path:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			tested++
		})
	}
	if tested == 0 {
		t.Error("no fixture with struct columns was compared")
	}
}

type innerT struct {
	Label *string `parquet:"label,id(16),optional"`
}

type pointT struct {
	X     int32   `parquet:"x,id(14)"`
	Inner *innerT `parquet:"inner,id(15),optional"`
}

type structRow struct {
	ID    int64   `parquet:"id,id(1)"`
	Point *pointT `parquet:"point,id(13),optional"`
}

// TestNestedStructsWritten reads optional structs nested in optional
// structs across pages and row groups, with a field added to the inner
// struct (default 5), through both paths.
func TestNestedStructsWritten(t *testing.T) {
	const n = 1500
	rows := make([]structRow, n)
	want := make([]string, n)
	for i := range rows {
		rows[i].ID = int64(i)
		if i%5 == 0 {
			want[i] = fmt.Sprintf(`{"id":%d,"point":null}`, i)
			continue
		}
		p := &pointT{X: int32(i * 3)}
		inner := "null"
		if i%3 != 0 {
			p.Inner = &innerT{}
			label := "null"
			if i%7 != 0 {
				s := fmt.Sprintf("L%d", i)
				p.Inner.Label = &s
				label = `"` + s + `"`
			}
			inner = fmt.Sprintf(`{"extra":5,"label":%s}`, label)
		}
		rows[i].Point = p
		want[i] = fmt.Sprintf(`{"id":%d,"point":{"inner":%s,"x":%d}}`, i, inner, i*3)
	}
	path := filepath.Join(t.TempDir(), "structs.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[structRow](f, parquet.PageBufferSize(128), parquet.MaxRowsPerRowGroup(600))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: 13, Name: "point", Type: &catalog.StructType{Fields: []catalog.NestedField{
			{ID: 14, Name: "x", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
			{ID: 15, Name: "inner", Type: &catalog.StructType{Fields: []catalog.NestedField{
				{ID: 16, Name: "label", Type: &catalog.PrimitiveType{ID: catalog.TString}},
				{ID: 17, Name: "extra", Type: &catalog.PrimitiveType{ID: catalog.TInt}, InitialDefault: int32(5)},
			}}},
		}}},
	}}
	tbl := &catalog.Table{IO: localIO{}, Metadata: &catalog.TableMetadata{Schemas: []*catalog.Schema{schema}}}
	spec := engine.ScanSpec{Table: tbl, Schema: schema, FieldIDs: []int{1, 13},
		Tasks: []catalog.FileScanTask{{File: &catalog.DataFile{Path: path, Format: catalog.FormatParquet}}}}
	for _, general := range []bool{false, true} {
		t.Run(fmt.Sprintf("general=%v", general), func(t *testing.T) {
			mem := newChecked(t)
			recs, err := scanAll(t, spec, Options{Alloc: mem, BatchSize: 77, generalNested: general})
			if err != nil {
				t.Fatal(err)
			}
			got := jsonRows(t, recs)
			releaseRecs(recs)
			mem.AssertSize(t, 0)
			if len(got) != n {
				t.Fatalf("rows = %d, want %d", len(got), n)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("row %d:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
		})
	}
}
