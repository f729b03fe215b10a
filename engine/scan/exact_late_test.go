package scan

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
)

// writeLateTable writes n rows with icegate's writer: k = i; g = i % 7,
// NULL when i % 11 = 0; s = "v<i%5>" for the first 1500 rows and unique
// "u<i>" after, NULL when i % 13 = 0, dictionary-encoded until its
// dictionary passes 1 KiB, PLAIN after (one column chunk holds both);
// d = i/100 as decimal(12,2) (INT64 widened), NULL when i % 17 = 0.
// Pages end every 100 rows.
func writeLateTable(t *testing.T, n int) (*catalog.Table, *catalog.DataFile) {
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
		{ID: 2, Name: "g", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: 3, Name: "s", Type: &catalog.PrimitiveType{ID: catalog.TString}},
		{ID: 4, Name: "d", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 12, Scale: 2}},
	}}
	props := map[string]string{
		"write.parquet.page-row-limit":                 "100",
		"write.parquet.dict-size-bytes":                "1024",
		"write.parquet.dict-encoding-enabled.column.s": "true",
		"write.parquet.dict-encoding-enabled.column.g": "true",
	}
	id := catalog.Identifier{Namespace: []string{"db"}, Name: "late"}
	tbl, err := cat.CreateTable(ctx, id, catalog.TableSpec{FormatVersion: 2, Schema: schema, Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	fields := make([]arrow.Field, len(schema.Fields))
	for i, f := range schema.Fields {
		fields[i] = engine.ArrowField(f)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%11 == 0 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.Int32Builder).Append(int32(i % 7))
		}
		switch {
		case i%13 == 0:
			b.Field(2).AppendNull()
		case i < 1500:
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("v%d", i%5))
		default:
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("u%d", i))
		}
		if i%17 == 0 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i)))
		}
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

// pageEncodings reports whether column leaf of the file's first row
// group has dictionary-encoded and PLAIN data pages.
func pageEncodings(t *testing.T, path string, leaf int) (dict, plain bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	for _, es := range pf.Metadata().RowGroups[0].Columns[leaf].MetaData.EncodingStats {
		if es.PageType == format.DataPage && es.Encoding == format.RLEDictionary {
			dict = true
		}
		if es.PageType == format.DataPage && es.Encoding == format.Plain {
			plain = true
		}
	}
	return dict, plain
}

// TestLateMaterialization: what a scan with exact conjuncts returns is
// what a Filter over a plain scan keeps (or its error), for conjuncts on
// dictionary and PLAIN pages of one column chunk, with NULLs, position
// deletes, no match and every row matching, at several batch sizes,
// projections, recycled buffers, shards and the builder path, and with
// _pos projected.
func TestExactConjunctsOnPages(t *testing.T) {
	const n = 4000
	tbl, df := writeLateTable(t, n)
	if dict, plain := pageEncodings(t, df.Path, 2); !dict || !plain {
		t.Fatalf("column s: dictionary pages %v, plain pages %v: want both", dict, plain)
	}
	var deleted []int64
	for i := int64(1); i < n; i += 4 {
		deleted = append(deleted, i)
	}
	dels, err := write.WriteDeletes(context.Background(), write.DeleteSpec{IO: write.LocalFiles{}, DataDir: write.DataDir(tbl.Metadata),
		Metadata: tbl.Metadata}, []write.FileDeletes{{File: df, Positions: deleted}})
	if err != nil {
		t.Fatal(err)
	}
	schema := tbl.Metadata.CurrentSchema()
	for _, tasks := range [][]catalog.FileScanTask{{{File: df}}, {{File: df, Deletes: dels}}} {
		for _, ids := range [][]int{{1, 2, 3, 4}, {3, 4, 1}, {4, 2}, {2, 3, FieldIDPos}} {
			spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids}
			plain, err := scanAll(t, spec, Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := New(spec, Options{}).Schema()
			col := func(id int) expr.Expr {
				for i, x := range ids {
					if x == id {
						return &expr.Col{Idx: i, Name: out.Field(i).Name, T: out.Field(i).Type}
					}
				}
				return nil
			}
			str := func(s string) expr.Expr { return &expr.Lit{V: s, T: arrow.BinaryTypes.String} }
			i8 := func(v int64) expr.Expr { return &expr.Lit{V: v, T: expr.Int8} }
			cases := map[string][]expr.Expr{}
			addCase := func(name string, es ...expr.Expr) {
				for _, e := range es {
					if e == nil {
						// The columns are there: a case that does not
						// resolve would never run.
						t.Fatalf("case %q does not resolve", name)
					}
				}
				cases[name] = es
			}
			if s := col(3); s != nil {
				addCase("s = v2 (dictionary pages)", exactCall("=", s, str("v2")))
				addCase("s >= u3900 (plain pages)", exactCall(">=", s, str("u3900")))
				addCase("s like %7 (both)", exactCall("like", s, str("%7")))
				addCase("s is null", exactCall("isnull", s))
			}
			if g := col(2); g != nil {
				addCase("g = 3", exactCall("=", g, i8(3)))
				addCase("g >= 0 (every non-NULL row)", exactCall(">=", g, i8(0)))
				addCase("g < 0 (none)", exactCall("<", g, i8(0)))
				addCase("1/(g-3) > -5 (fails)", exactCall(">", exactCall("/", i8(1), exactCall("-", g, i8(3))), i8(-5)))
				addCase("g <> 3 and 1/(g-3) > -5", exactCall("<>", g, i8(3)),
					exactCall(">", exactCall("/", i8(1), exactCall("-", g, i8(3))), i8(-5)))
			}
			if d := col(4); d != nil {
				addCase("d < 5 or d > 39.9", exactCall("or", exactCall("<", d, i8(5)), exactCall(">", d, i8(39))))
			}
			if g, s := col(2), col(3); g != nil && s != nil {
				addCase("g = 1 and s like v%", exactCall("=", g, i8(1)), exactCall("like", s, str("v%")))
			}
			for name, conj := range cases {
				want, wantErr := filterAbove(t, out, plain, conj)
				for _, o := range []struct {
					name string
					opts Options
				}{
					{"batches of 37", Options{BatchSize: 37}},
					{"default", Options{}},
					{"recycled, 2 shards", Options{RecycleBuffers: true, Shards: 2}},
					{"recycled, batches of 37 released as read", Options{RecycleBuffers: true, BatchSize: 37}},
					{"builders", Options{builders: true}},
				} {
					what := fmt.Sprintf("%v deletes %v %s (%s)", ids, len(tasks[0].Deletes) > 0, name, o.name)
					var got []string
					var gotErr error
					for shard := range max(o.opts.Shards, 1) {
						opts := o.opts
						opts.Shard = shard
						mem := newChecked(t)
						opts.Alloc = mem
						exact := spec
						exact.Exact = conj
						if opts.RecycleBuffers && opts.BatchSize > 0 {
							rows, err := scanRendered(t, exact, opts)
							if err != nil {
								gotErr = err
							}
							got = append(got, rows...)
							mem.AssertSize(t, 0)
							continue
						}
						recs, err := scanAll(t, exact, opts)
						if err != nil {
							gotErr = err
						}
						got = append(got, renderRows(recs)...)
						releaseRecs(recs)
						mem.AssertSize(t, 0)
					}
					if wantErr != nil || gotErr != nil {
						if pgerr.Code(gotErr) != pgerr.Code(wantErr) {
							t.Fatalf("%s: error %v, the filter's %v", what, gotErr, wantErr)
						}
						continue
					}
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("%s: %d rows\n%q\nthe filter keeps %d\n%q", what, len(got), head(got, 5), len(want), head(want, 5))
					}
				}
			}
			releaseRecs(plain)
		}
	}
}
