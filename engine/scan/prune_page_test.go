package scan

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/write"
)

// pageRows is the page row limit of the page-skipping tests' files.
const pageRows = 100

// writePageTable writes one data file of n rows with icegate's writer into
// a new format 2 table: k = i (ascending, so each page covers one range of
// keys), grp = i % 7, s = "s<i>". Pages end every 100 rows, a row group
// every 1000 (the bloom filter of k, at most 2752 bytes at 22 bits a value
// for its fpp of 0.0001, ends them); k and s have bloom filters.
func writePageTable(t *testing.T, n int) (*catalog.Table, *catalog.DataFile) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("wh", filepath.Join(t.TempDir(), "wh"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "k", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: 2, Name: "grp", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: 3, Name: "s", Type: &catalog.PrimitiveType{ID: catalog.TString}},
	}}
	props := map[string]string{
		"write.parquet.page-row-limit":                "100",
		"write.parquet.bloom-filter-enabled.column.k": "true",
		"write.parquet.bloom-filter-enabled.column.s": "true",
		"write.parquet.bloom-filter-fpp.column.k":     "0.0001",
		"write.parquet.bloom-filter-fpp.column.s":     "0.0001",
		"write.parquet.bloom-filter-max-bytes":        "2760",
	}
	id := catalog.Identifier{Namespace: []string{"db"}, Name: "pages"}
	tbl, err := cat.CreateTable(ctx, id, catalog.TableSpec{FormatVersion: 2, Schema: schema, Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{
		engine.ArrowField(schema.Fields[0]), engine.ArrowField(schema.Fields[1]), engine.ArrowField(schema.Fields[2])}, nil))
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.Int32Builder).Append(int32(i % 7))
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("s%d", i))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	w, err := write.NewWriter(ctx, write.WriterSpec{IO: write.LocalFiles{}, DataDir: write.DataDir(tbl.Metadata),
		Schema: schema, Properties: props, FormatVersion: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	files, err := w.Close()
	if err != nil || len(files) != 1 {
		t.Fatalf("write: %d files, %v", len(files), err)
	}
	if tbl, err = catalog.Append(ctx, cat, id, files, nil); err != nil {
		t.Fatal(err)
	}
	return tbl, files[0]
}

// pageScan scans tasks with the filter and returns the k values and _pos
// of the rows, and the scan's stats.
func pageScan(t *testing.T, tbl *catalog.Table, tasks []catalog.FileScanTask, preds []catalog.Predicate, shards int) (keys, pos []int64, st ScanStats) {
	t.Helper()
	for shard := range max(shards, 1) {
		op := New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: tbl.Metadata.CurrentSchema(),
			FieldIDs: []int{1, 3, FieldIDPos}, Filters: preds}, Options{BatchSize: 37, Shard: shard, Shards: shards}).(*Scan)
		if err := op.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		for {
			rec, err := op.Next()
			if err != nil {
				t.Fatal(err)
			}
			if rec == nil {
				break
			}
			k := rec.Column(0).(*array.Int64)
			s := rec.Column(1).(*array.String)
			p := rec.Column(2).(*array.Int64)
			for i := range int(rec.NumRows()) {
				if s.Value(i) != fmt.Sprintf("s%d", k.Value(i)) || p.Value(i) != k.Value(i) {
					t.Fatalf("row k=%d s=%q _pos=%d: columns out of step", k.Value(i), s.Value(i), p.Value(i))
				}
				keys = append(keys, k.Value(i))
				pos = append(pos, p.Value(i))
			}
		}
		s := op.Stats()
		op.Close()
		st.RowGroups += s.RowGroups
		st.RowGroupsSkipped += s.RowGroupsSkipped
		st.BloomSkipped += s.BloomSkipped
		st.Pages += s.Pages
		st.PagesSkipped += s.PagesSkipped
		st.Rows += s.Rows
	}
	slices.Sort(keys)
	return keys, pos, st
}

// TestPageSkipping: the column index rules out pages, the offset index
// reads only the rows of the pages left in every column, bloom filters
// rule out row groups for = and IN, and every row matching the filter
// comes back with its position, with and without position deletes and
// when the file is split among shards.
func TestPageSkipping(t *testing.T) {
	const n = 5000
	tbl, df := writePageTable(t, n)
	plain := []catalog.FileScanTask{{File: df}}

	// Delete every row whose k is a multiple of 3.
	var deleted []int64
	for i := int64(0); i < n; i += 3 {
		deleted = append(deleted, i)
	}
	dels, err := write.WriteDeletes(context.Background(), write.DeleteSpec{IO: write.LocalFiles{}, DataDir: write.DataDir(tbl.Metadata),
		Metadata: tbl.Metadata}, []write.FileDeletes{{File: df, Positions: deleted}})
	if err != nil {
		t.Fatal(err)
	}
	withDeletes := []catalog.FileScanTask{{File: df, Deletes: dels}}

	eq := func(id int, v any) catalog.Predicate {
		return catalog.Predicate{FieldID: id, Op: catalog.OpEq, Values: []any{v}}
	}
	// matches evaluates the predicates exactly (k's, or s's for field 3).
	matches := func(preds []catalog.Predicate, k int64) bool {
		for _, p := range preds {
			cmp := func(v any) int {
				if p.FieldID == 3 {
					return strings.Compare(fmt.Sprintf("s%d", k), v.(string))
				}
				return cmpInt(k, v.(int64))
			}
			ok := false
			switch p.Op {
			case catalog.OpEq, catalog.OpIn:
				for _, v := range p.Values {
					ok = ok || cmp(v) == 0
				}
			case catalog.OpLt:
				ok = cmp(p.Values[0]) < 0
			case catalog.OpGtEq:
				ok = cmp(p.Values[0]) >= 0
			default:
				t.Fatalf("op %s", p.Op)
			}
			if !ok {
				return false
			}
		}
		return true
	}
	for _, tc := range []struct {
		name      string
		preds     []catalog.Predicate
		wantRows  int64 // rows decoded (before deletes)
		wantPages int   // pages of k ruled out by the column index
		wantBloom int   // row groups ruled out by bloom filters
	}{
		{"no filter", nil, n, 0, 0},
		{"point", []catalog.Predicate{eq(1, int64(2345))}, pageRows, 9, 0},
		{"range over a page boundary", []catalog.Predicate{
			{FieldID: 1, Op: catalog.OpGtEq, Values: []any{int64(2390)}},
			{FieldID: 1, Op: catalog.OpLt, Values: []any{int64(2420)}}}, 2 * pageRows, 8, 0},
		{"in, two groups", []catalog.Predicate{{FieldID: 1, Op: catalog.OpIn, Values: []any{int64(10), int64(4999)}}}, 2 * pageRows, 18, 0},
		{"in, one value present", []catalog.Predicate{{FieldID: 1, Op: catalog.OpIn, Values: []any{int64(1000), int64(-5)}}}, pageRows, 9, 0},
		// "s4321x" lies within the string bounds of groups 0 and 4.
		{"string absent: bloom rules groups out", []catalog.Predicate{eq(3, "s4321x")}, 0, 0, 2},
		// Pages of group 0 in string order: "s0".."s99" and "s700".."s799" may hold "s777".
		{"string point", []catalog.Predicate{eq(3, "s777")}, 2 * pageRows, 8, 0},
		// k keeps rows 100-199 of group 0, s (in string order) rows 0-99.
		{"columns' pages disjoint", []catalog.Predicate{eq(1, int64(150)), eq(3, "s9")}, 0, 18, 0},
		{"nothing matches the stats", []catalog.Predicate{eq(1, int64(99999))}, 0, 0, 0},
	} {
		for _, del := range []bool{false, true} {
			for _, shards := range []int{1, 3} {
				t.Run(fmt.Sprintf("%s/deletes=%v/shards=%d", tc.name, del, shards), func(t *testing.T) {
					tasks := plain
					if del {
						tasks = withDeletes
					}
					keys, _, st := pageScan(t, tbl, tasks, tc.preds, shards)
					// Every row that matches and is not deleted is read.
					var want []int64
					for k := int64(0); k < n; k++ {
						if matches(tc.preds, k) && !(del && k%3 == 0) {
							want = append(want, k)
						}
					}
					got := slices.DeleteFunc(slices.Clone(keys), func(k int64) bool { return !matches(tc.preds, k) })
					if !slices.Equal(got, want) {
						t.Fatalf("matching rows = %v, want %v", got, want)
					}
					for _, k := range keys {
						if del && k%3 == 0 {
							t.Fatalf("deleted row k=%d returned", k)
						}
					}
					if shards == 1 {
						if tc.wantRows >= 0 && st.Rows != tc.wantRows {
							t.Errorf("rows decoded = %d, want %d (%+v)", st.Rows, tc.wantRows, st)
						}
						if tc.wantPages >= 0 && st.PagesSkipped != tc.wantPages {
							t.Errorf("pages skipped = %d, want %d (%+v)", st.PagesSkipped, tc.wantPages, st)
						}
						if st.BloomSkipped < tc.wantBloom {
							t.Errorf("row groups skipped by bloom filters = %d, want at least %d (%+v)", st.BloomSkipped, tc.wantBloom, st)
						}
					}
				})
			}
		}
	}
}

// TestSpans covers the span arithmetic page skipping uses.
func TestSpans(t *testing.T) {
	var a []rowSpan
	for _, s := range []rowSpan{{0, 10}, {10, 20}, {30, 40}, {35, 50}, {60, 60}} {
		a = appendSpan(a, s)
	}
	if want := []rowSpan{{0, 20}, {30, 50}}; !slices.Equal(a, want) {
		t.Fatalf("appendSpan: %v, want %v", a, want)
	}
	for _, tc := range []struct{ a, b, want []rowSpan }{
		{[]rowSpan{{0, 100}}, []rowSpan{{10, 20}, {50, 60}}, []rowSpan{{10, 20}, {50, 60}}},
		{[]rowSpan{{0, 20}, {30, 50}}, []rowSpan{{15, 35}, {45, 100}}, []rowSpan{{15, 20}, {30, 35}, {45, 50}}},
		{[]rowSpan{{0, 10}}, []rowSpan{{10, 20}}, nil},
		{nil, []rowSpan{{0, 1}}, nil},
	} {
		if got := intersectSpans(tc.a, tc.b); !slices.Equal(got, tc.want) {
			t.Errorf("intersect(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
