package write

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
)

// TestParquetLayout opens a written file with parquet-go and checks what
// other engines rely on: field ids, the spec's logical types, data page
// v1, dictionary-encoded strings, the page index and the codec.
func TestParquetLayout(t *testing.T) {
	schema := allTypes()
	rec := recordFromJSON(t, schema, allTypesRows)
	defer rec.Release()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema}, rec)
	f, err := os.Open(files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	meta := pf.Metadata()
	byName := map[string]format.SchemaElement{}
	ids := map[int32]bool{}
	for _, e := range meta.Schema[1:] {
		byName[e.Name] = e
		if e.FieldID == 0 && e.Name != "list" && e.Name != "key_value" {
			t.Errorf("schema element %s has no field id", e.Name)
		}
		ids[e.FieldID] = true
	}
	for _, id := range []int32{1, 2, 13, 17, 20, 21, 22, 23, 24, 27, 28} {
		if !ids[id] {
			t.Errorf("no schema element with field id %d", id)
		}
	}
	if meta.Schema[1].Name != "b" || meta.Schema[2].Name != "i" {
		t.Errorf("columns are not in schema order: %s, %s", meta.Schema[1].Name, meta.Schema[2].Name)
	}
	lt := func(name string) format.LogicalTypeValue { return byName[name].LogicalType.Value }
	micros := func(u format.TimeUnit) bool { _, ok := u.Value.(*format.MicroSeconds); return ok }
	if _, ok := lt("u").(*format.UUIDType); !ok || byName["u"].TypeLength.V != 16 {
		t.Errorf("uuid column: %+v", byName["u"])
	}
	if l, ok := lt("tstz").(*format.TimestampType); !ok || !l.IsAdjustedToUTC || !micros(l.Unit) {
		t.Errorf("timestamptz column: %v", lt("tstz"))
	}
	if l, ok := lt("ts").(*format.TimestampType); !ok || l.IsAdjustedToUTC || !micros(l.Unit) {
		t.Errorf("timestamp column: %v", lt("ts"))
	}
	if l, ok := lt("tm").(*format.TimeType); !ok || l.IsAdjustedToUTC || !micros(l.Unit) {
		t.Errorf("time column: %v", lt("tm"))
	}
	if l, ok := lt("tsns").(*format.TimestampType); !ok {
		t.Errorf("timestamp_ns column: %v", lt("tsns"))
	} else if _, ns := l.Unit.Value.(*format.NanoSeconds); !ns {
		t.Errorf("timestamp_ns unit: %v", l)
	}
	if _, ok := lt("s").(*format.StringType); !ok {
		t.Errorf("string column: %v", lt("s"))
	}
	if _, ok := lt("dt").(*format.DateType); !ok {
		t.Errorf("date column: %v", lt("dt"))
	}
	for name, want := range map[string]format.Type{"dec9": format.Int32, "dec18": format.Int64, "dec38": format.FixedLenByteArray} {
		e := byName[name]
		if _, ok := e.LogicalType.Value.(*format.DecimalType); !ok || e.Type.V != want {
			t.Errorf("%s: %+v", name, e)
		}
	}
	if e := byName["dec38"]; e.TypeLength.V != 16 {
		t.Errorf("decimal(38) length %d, want 16", e.TypeLength.V)
	}
	for _, rg := range meta.RowGroups {
		for _, cc := range rg.Columns {
			md := cc.MetaData
			if md.Codec != format.Snappy {
				t.Errorf("%v: codec %v", md.PathInSchema, md.Codec)
			}
			if cc.ColumnIndexOffset == 0 || cc.OffsetIndexOffset == 0 {
				t.Errorf("%v: no page index", md.PathInSchema)
			}
			if len(md.EncodingStats) == 0 {
				t.Errorf("%v: no encoding stats", md.PathInSchema)
			}
			for _, es := range md.EncodingStats {
				if es.PageType == format.DataPageV2 {
					t.Errorf("%v: data page v2", md.PathInSchema)
				}
			}
			if dictColumns[md.PathInSchema[0]] && !slicesContains(md.Encoding, format.RLEDictionary) {
				t.Errorf("%v: encodings %v, want RLE_DICTIONARY", md.PathInSchema, md.Encoding)
			}
		}
	}
}

// dictColumns are the columns of allTypes that are dictionary encoded, as
// Iceberg's writers do by default: strings and every fixed-width number,
// date and time (booleans, binaries and fixed-length values are not).
var dictColumns = map[string]bool{"s": true, "i": true, "l": true, "f": true, "d": true,
	"dec9": true, "dec18": true, "dt": true, "tm": true, "ts": true, "tstz": true, "tsns": true}

func slicesContains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestPqarrowSeesFieldIDs reads a written file with arrow-go's Parquet
// reader: a second, independent reader must see every field id and row.
func TestPqarrowSeesFieldIDs(t *testing.T) {
	schema := allTypes()
	rec := recordFromJSON(t, schema, allTypesRows)
	defer rec.Release()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema,
		Properties: map[string]string{propCodec: "gzip", propCodecLevel: "9"}}, rec, rec)
	rdr, err := file.OpenParquetFile(files[0].Path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if tbl.NumRows() != 8 {
		t.Errorf("pqarrow rows = %d, want 8", tbl.NumRows())
	}
	seen := map[int]bool{}
	var walk func(f arrow.Field)
	walk = func(f arrow.Field) {
		if v, ok := f.Metadata.GetValue("PARQUET:field_id"); ok {
			id, _ := strconv.Atoi(v)
			seen[id] = true
		}
		switch dt := f.Type.(type) {
		case *arrow.StructType:
			for _, c := range dt.Fields() {
				walk(c)
			}
		case *arrow.MapType:
			walk(dt.KeyField())
			walk(dt.ItemField())
		case *arrow.ListType:
			walk(dt.ElemField())
		}
	}
	for _, f := range tbl.Schema().Fields() {
		walk(f)
	}
	var want []int
	var collect func(fs []catalog.NestedField)
	collect = func(fs []catalog.NestedField) {
		for _, f := range fs {
			want = append(want, f.ID)
			switch t := f.Type.(type) {
			case *catalog.StructType:
				collect(t.Fields)
			case *catalog.ListType:
				want = append(want, t.ElementID)
				if st, ok := t.Element.(*catalog.StructType); ok {
					collect(st.Fields)
				}
			case *catalog.MapType:
				want = append(want, t.KeyID, t.ValueID)
			}
		}
	}
	collect(schema.Fields)
	for _, id := range want {
		if !seen[id] {
			t.Errorf("pqarrow does not see field id %d", id)
		}
	}
}

// TestDictionaryFallback: past write.parquet.dict-size-bytes a column's
// later pages are PLAIN, and the file still reads back.
func TestDictionaryFallback(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  *catalog.PrimitiveType
		val  func(i int) string // the JSON value of row i
	}{
		{"string", prim(catalog.TString), func(i int) string { return fmt.Sprintf(`"distinct value number %d"`, i) }},
		{"long", prim(catalog.TLong), func(i int) string { return strconv.Itoa(i * 7919) }},
		{"decimal", &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 15, Scale: 2},
			func(i int) string { return fmt.Sprintf(`"%d.%02d"`, i, i%100) }},
		{"date", prim(catalog.TDate), func(i int) string {
			return `"` + time.Date(1990, 1, 1+i, 0, 0, 0, 0, time.UTC).Format(time.DateOnly) + `"`
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "s", Type: tc.typ}}}
			var b strings.Builder
			b.WriteString("[")
			for i := range 5000 {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"s": %s}`, tc.val(i))
			}
			b.WriteString("]")
			rec := recordFromJSON(t, schema, b.String())
			defer rec.Release()
			dir := t.TempDir()
			files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema,
				Properties: map[string]string{propDictBytes: "4096", propPageBytes: "4096",
					propDictColumnEnabled + "s": "true"}}, rec)
			f, err := os.Open(files[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, _ := f.Stat()
			pf, err := parquet.OpenFile(f, st.Size())
			if err != nil {
				t.Fatal(err)
			}
			var dict, plain bool
			for _, es := range pf.Metadata().RowGroups[0].Columns[0].MetaData.EncodingStats {
				if es.PageType == format.DataPage && es.Encoding == format.RLEDictionary {
					dict = true
				}
				if es.PageType == format.DataPage && es.Encoding == format.Plain {
					plain = true
				}
			}
			if !dict || !plain {
				t.Errorf("dictionary pages %v, plain pages %v: want both", dict, plain)
			}
			got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
			defer releaseAll(got)
			if !slices.Equal(rowStrings(got...), rowStrings(rec)) {
				t.Errorf("rows read back differ")
			}
		})
	}
}

// TestDictionaryRowGroups: dictionary-encoded columns of several row
// groups, each with a dictionary of its own values (NULLs among them),
// read back as written.
func TestDictionaryRowGroups(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "dec", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 15, Scale: 2}},
		{ID: 2, Name: "l", Required: true, Type: prim(catalog.TLong)},
		{ID: 3, Name: "dt", Type: prim(catalog.TDate)},
		{ID: 4, Name: "d", Type: prim(catalog.TDouble)},
	}}
	const rows = 60000
	var b strings.Builder
	b.WriteString("[")
	for i := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		g := i / 20000 // the values change with the row group
		dec, dt, d := fmt.Sprintf(`"%d.%02d"`, g*1000+i%37, i%100), fmt.Sprintf(`"%d-01-%02d"`, 2000+g, 1+i%28), fmt.Sprintf("%d.5", g*100+i%11)
		if i%13 == 0 {
			dec, dt, d = "null", "null", "null"
		}
		fmt.Fprintf(&b, `{"dec": %s, "l": %d, "dt": %s, "d": %s}`, dec, g*1_000_000+i%50, dt, d)
	}
	b.WriteString("]")
	rec := recordFromJSON(t, schema, b.String())
	defer rec.Release()
	dir := t.TempDir()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema,
		Properties: map[string]string{propRowGroupBytes: "100000"}}, rec)
	groups := 0
	for _, df := range files {
		f, err := os.Open(df.Path)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := parquet.OpenFile(f, df.FileSizeInBytes)
		if err != nil {
			f.Close()
			t.Fatal(err)
		}
		for _, rg := range pf.Metadata().RowGroups {
			groups++
			for _, cc := range rg.Columns {
				if !slicesContains(cc.MetaData.Encoding, format.RLEDictionary) {
					t.Errorf("%v: encodings %v, want RLE_DICTIONARY", cc.MetaData.PathInSchema, cc.MetaData.Encoding)
				}
			}
		}
		f.Close()
	}
	if groups < 3 {
		t.Fatalf("%d row groups, want several", groups)
	}
	got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
	defer releaseAll(got)
	if g, w := rowStrings(got...), rowStrings(rec); !slices.Equal(g, w) {
		t.Errorf("rows read back differ: %d rows, want %d", len(g), len(w))
	}
}
