package scan

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// localIO is a FileIO over plain local paths, for files tests write.
type localIO struct{}

func (localIO) Resolve(p string) (string, error) { return filepath.Clean(p), nil }

func (localIO) Open(_ context.Context, p string) (catalog.File, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &osFile{File: f, size: st.Size()}, nil
}

type osFile struct {
	*os.File
	size int64
}

func (f *osFile) Size() int64 { return f.size }

// writtenRow is written by parquet-go with field ids, in several row groups
// and many small pages, so that readers cross page and row-group bounds.
type writtenRow struct {
	ID      int64            `parquet:"id,id(1)"`
	TsMilli int64            `parquet:"ts_milli,id(2),timestamp(millisecond)"`
	Legacy  deprecated.Int96 `parquet:"legacy,id(3)"`
	Tags    []string         `parquet:"tags,id(4),list"`
	Dec     int32            `parquet:"dec,id(5),decimal(2:9)"`
	Opt     *string          `parquet:"opt,id(6),optional"`
	Small   int32            `parquet:"small,id(7)"`
	Flag    bool             `parquet:"flag,id(8)"`
	Name    string           `parquet:"name,id(9),dict"`
	Never   *string          `parquet:"never,id(12),optional"` // every page all NULL
}

// The read schema: ts_milli read as timestamp (micros), the legacy INT96
// as timestamptz, small promoted int -> long, dec widened to decimal(12,2),
// and field 10 missing from the file with an initial default.
var writtenSchema = &catalog.Schema{Fields: []catalog.NestedField{
	{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
	{ID: 2, Name: "ts_milli", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TTimestamp}},
	{ID: 3, Name: "legacy", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TTimestamptz}},
	{ID: 4, Name: "tags", Type: &catalog.ListType{ElementID: 11, Element: &catalog.PrimitiveType{ID: catalog.TString}}},
	{ID: 5, Name: "dec", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 12, Scale: 2}},
	{ID: 6, Name: "opt", Type: &catalog.PrimitiveType{ID: catalog.TString}},
	{ID: 7, Name: "small", Type: &catalog.PrimitiveType{ID: catalog.TLong}},
	{ID: 8, Name: "flag", Type: &catalog.PrimitiveType{ID: catalog.TBoolean}},
	{ID: 9, Name: "name", Type: &catalog.PrimitiveType{ID: catalog.TString}},
	{ID: 10, Name: "added", Type: &catalog.PrimitiveType{ID: catalog.TInt}, InitialDefault: int32(7)},
	{ID: 12, Name: "never", Type: &catalog.PrimitiveType{ID: catalog.TString}},
}}

const writtenRows = 2500

var baseTime = time.Date(2024, 2, 29, 23, 59, 58, 0, time.UTC)

func makeRow(i int) writtenRow {
	ts := baseTime.Add(time.Duration(i) * 1001 * time.Millisecond)
	nanos := ts.Add(123 * time.Microsecond)
	day := nanos.Unix()/86400 + julianUnixEpoch
	nod := nanos.UnixNano() - (nanos.Unix()/86400)*86400*1e9
	r := writtenRow{
		ID:      int64(i),
		TsMilli: ts.UnixMilli(),
		Legacy:  deprecated.Int96{uint32(nod), uint32(nod >> 32), uint32(day)},
		Dec:     int32(i*7 - 5000),
		Small:   int32(i - 1000),
		Flag:    i%3 == 0,
		Name:    fmt.Sprintf("name-%d", i%5),
	}
	for j := range i % 4 {
		r.Tags = append(r.Tags, fmt.Sprintf("tag-%d-%d-%s", i, j, strings.Repeat("x", i%17)))
	}
	if i%4 != 1 {
		s := fmt.Sprintf("opt-%d", i)
		r.Opt = &s
	}
	return r
}

// wantRow is the row as formatRows renders it after projection.
func wantRow(i int) string {
	r := makeRow(i)
	ts := time.UnixMilli(r.TsMilli).UTC()
	legacy := ts.Add(123 * time.Microsecond)
	tags := "[" + strings.Join(r.Tags, " ") + "]"
	opt := "NULL"
	if r.Opt != nil {
		opt = *r.Opt
	}
	dec := fmt.Sprintf("%.2f", float64(r.Dec)/100)
	if r.Dec < 0 && r.Dec > -100 {
		dec = "-" + strings.TrimPrefix(dec, "-")
	}
	return strings.Join([]string{
		fmt.Sprint(r.ID),
		trimFraction(ts.Format("2006-01-02 15:04:05.000000000")),
		trimFraction(legacy.Format("2006-01-02 15:04:05.000000000")),
		tags, dec, opt, fmt.Sprint(r.Small), fmt.Sprint(r.Flag), r.Name, "7", "NULL",
	}, "|")
}

func writeTestParquet(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[writtenRow](f, parquet.PageBufferSize(256), parquet.MaxRowsPerRowGroup(700))
	rows := make([]writtenRow, writtenRows)
	for i := range rows {
		rows[i] = makeRow(i)
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestParquetConversions reads a file written with many pages and row
// groups: unit conversions (millis -> micros, INT96 -> micros), promotions
// (int -> long, decimal precision widening), lists, optional values,
// dictionary strings, a missing column's default, and position deletes by
// a hand-built task.
func TestParquetConversions(t *testing.T) {
	path := writeTestParquet(t)
	tbl := &catalog.Table{IO: localIO{}, Metadata: &catalog.TableMetadata{Schemas: []*catalog.Schema{writtenSchema}}}
	df := &catalog.DataFile{Path: path, Format: catalog.FormatParquet, RecordCount: writtenRows}
	ids := allFieldIDs(writtenSchema)
	for _, bs := range []int{1, 97, 8192} {
		for _, general := range []bool{false, true} {
			t.Run(fmt.Sprintf("batch%d/general=%v", bs, general), func(t *testing.T) {
				mem := newChecked(t)
				recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Schema: writtenSchema, FieldIDs: ids,
					Tasks: []catalog.FileScanTask{{File: df}}}, Options{Alloc: mem, BatchSize: bs, generalNested: general})
				if err != nil {
					t.Fatal(err)
				}
				got := formatRowsNested(recs)
				releaseRecs(recs)
				mem.AssertSize(t, 0)
				if len(got) != writtenRows {
					t.Fatalf("rows = %d, want %d", len(got), writtenRows)
				}
				for i := range got {
					if w := wantRow(i); got[i] != w {
						t.Fatalf("row %d:\n got %s\nwant %s", i, got[i], w)
					}
				}
			})
		}
	}
}

// formatRowsNested is formatRows with lists rendered as [a b c].
func formatRowsNested(recs []arrowRecordBatch) []string {
	var out []string
	for _, r := range recs {
		for i := range int(r.NumRows()) {
			vals := make([]string, r.NumCols())
			for c := range vals {
				if l, ok := r.Column(c).(*arrayList); ok && !l.IsNull(i) {
					from, to := l.ValueOffsets(i)
					var parts []string
					for j := from; j < to; j++ {
						parts = append(parts, formatValue(l.ListValues(), int(j)))
					}
					vals[c] = "[" + strings.Join(parts, " ") + "]"
					continue
				}
				vals[c] = formatValue(r.Column(c), i)
			}
			out = append(out, strings.Join(vals, "|"))
		}
	}
	return out
}

// TestParquetPositionDeletesByHand deletes positions across row groups of
// the written file with a Parquet position-delete file written here too.
func TestParquetPositionDeletesByHand(t *testing.T) {
	path := writeTestParquet(t)
	type posDelete struct {
		FilePath string `parquet:"file_path,id(2147483546)"`
		Pos      int64  `parquet:"pos,id(2147483545)"`
	}
	deleted := []int64{0, 1, 699, 700, 701, 1399, 2499}
	var dels []posDelete
	for _, p := range deleted {
		dels = append(dels, posDelete{FilePath: "/other/prefix/../" + strings.TrimPrefix(path, "/"), Pos: p})
	}
	// One row for another data file must not apply.
	dels = append(dels, posDelete{FilePath: "/elsewhere/data.parquet", Pos: 5})
	delPath := filepath.Join(t.TempDir(), "deletes.parquet")
	if err := parquet.WriteFile(delPath, dels); err != nil {
		t.Fatal(err)
	}
	tbl := &catalog.Table{IO: prefixIO{strip: "/other/prefix/.."}, Metadata: &catalog.TableMetadata{}}
	task := catalog.FileScanTask{
		File:    &catalog.DataFile{Path: path, Format: catalog.FormatParquet, RecordCount: writtenRows},
		Deletes: []*catalog.DataFile{{Path: delPath, Format: catalog.FormatParquet, Content: catalog.ContentPositionDelete}},
	}
	mem := newChecked(t)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Schema: writtenSchema, FieldIDs: []int{1},
		Tasks: []catalog.FileScanTask{task, task}}, Options{Alloc: mem, BatchSize: 300, Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := formatRows(recs)
	releaseRecs(recs)
	mem.AssertSize(t, 0)
	var want []string
	for range 2 {
		for i := range writtenRows {
			if !slices.Contains(deleted, int64(i)) {
				want = append(want, fmt.Sprint(i))
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got %d rows, want %d", len(got), len(want))
	}
}

// prefixIO resolves paths by dropping a written prefix, as a table's FileIO
// maps foreign prefixes.
type prefixIO struct{ strip string }

func (p prefixIO) Resolve(s string) (string, error) {
	return filepath.Clean("/" + strings.TrimPrefix(filepath.Clean(s), filepath.Clean(p.strip))), nil
}

func (p prefixIO) Open(ctx context.Context, s string) (catalog.File, error) {
	r, _ := p.Resolve(s)
	return localIO{}.Open(ctx, r)
}

// TestRenameAndReorder reads the written file under a schema that renamed
// and reordered its columns: matching is by field id, names are the read
// schema's.
func TestRenameAndReorder(t *testing.T) {
	path := writeTestParquet(t)
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 9, Name: "label", Type: &catalog.PrimitiveType{ID: catalog.TString}},
		{ID: 1, Name: "row_number", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
	}}
	tbl := &catalog.Table{IO: localIO{}, Metadata: &catalog.TableMetadata{Schemas: []*catalog.Schema{schema}}}
	spec := engine.ScanSpec{Table: tbl, Schema: schema, FieldIDs: []int{9, 1},
		Tasks: []catalog.FileScanTask{{File: &catalog.DataFile{Path: path, Format: catalog.FormatParquet}}}}
	mem := newChecked(t)
	op := New(spec, Options{Alloc: mem})
	if got := op.Schema().Field(0).Name + "," + op.Schema().Field(1).Name; got != "label,row_number" {
		t.Errorf("columns = %s", got)
	}
	op.Close()
	recs, err := scanAll(t, spec, Options{Alloc: mem})
	if err != nil {
		t.Fatal(err)
	}
	got := formatRows(recs)
	releaseRecs(recs)
	mem.AssertSize(t, 0)
	if len(got) != writtenRows {
		t.Fatalf("rows = %d", len(got))
	}
	for i, row := range got {
		if want := fmt.Sprintf("name-%d|%d", i%5, i); row != want {
			t.Fatalf("row %d = %s, want %s", i, row, want)
		}
	}
}
