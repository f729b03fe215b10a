package write

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	apq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// keyedSchema is a table of a long key, a string and a nested struct.
func keyedSchema() *catalog.Schema {
	return &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "k", Required: true, Type: prim(catalog.TLong)},
		{ID: 2, Name: "s", Type: prim(catalog.TString)},
		{ID: 3, Name: "st", Type: &catalog.StructType{Fields: []catalog.NestedField{
			{ID: 4, Name: "x", Type: prim(catalog.TInt)},
		}}},
	}}
}

// keyedRows is n rows: k = 0..n-1 times step, s = "v<k>", st.x = k%97.
func keyedRows(s *catalog.Schema, n int, step int64) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrowSchema(s))
	defer b.Release()
	kb := b.Field(0).(*array.Int64Builder)
	sb := b.Field(1).(*array.StringBuilder)
	st := b.Field(2).(*array.StructBuilder)
	xb := st.FieldBuilder(0).(*array.Int32Builder)
	for i := range n {
		k := int64(i) * step
		kb.Append(k)
		sb.Append(fmt.Sprintf("v%d", k))
		st.Append(true)
		xb.Append(int32(k % 97))
	}
	return b.NewRecordBatch()
}

// arrowFile opens a written file with arrow-go's Parquet reader, an
// implementation other than the writer's.
func arrowFile(t *testing.T, path string) *file.Reader {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("arrow-go open %s: %v", path, err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestParquetPageLayout checks the page row limit, the row group size and
// the page index of every column as arrow-go's reader sees them.
func TestParquetPageLayout(t *testing.T) {
	schema := keyedSchema()
	const rows = 50000
	rec := keyedRows(schema, rows, 1)
	defer rec.Release()
	for _, tc := range []struct {
		name       string
		props      map[string]string
		maxPage    int64 // rows a page may hold
		multiGroup bool  // more than one row group expected
	}{
		{"defaults", nil, 20000, false},
		{"page-row-limit", map[string]string{propPageRowLimit: "1000"}, 1000, false},
		{"row-group-size", map[string]string{propRowGroupBytes: "65536"}, 20000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema, Properties: tc.props}, rec)
			if len(files) != 1 || files[0].RecordCount != rows {
				t.Fatalf("files = %d, rows %d", len(files), files[0].RecordCount)
			}
			r := arrowFile(t, files[0].Path)
			if got := r.NumRowGroups(); (got > 1) != tc.multiGroup {
				t.Fatalf("row groups = %d, want more than one: %v", got, tc.multiGroup)
			}
			if tc.multiGroup {
				for g := range r.NumRowGroups() {
					if sz := r.MetaData().RowGroup(g).TotalByteSize(); sz > 4*65536 {
						t.Errorf("row group %d: %d bytes uncompressed for a 64 KiB limit", g, sz)
					}
				}
			}
			pir := r.GetPageIndexReader()
			total := int64(0)
			for g := range r.NumRowGroups() {
				rg, err := pir.RowGroup(g)
				if err != nil {
					t.Fatal(err)
				}
				n := r.MetaData().RowGroup(g).NumRows()
				total += n
				for c := range r.MetaData().Schema.NumColumns() {
					oi, err := rg.GetOffsetIndex(c)
					if err != nil || oi == nil {
						t.Fatalf("row group %d column %d: no offset index (%v)", g, c, err)
					}
					ci, err := rg.GetColumnIndex(c)
					if err != nil || ci == nil {
						t.Fatalf("row group %d column %d: no column index (%v)", g, c, err)
					}
					locs := oi.GetPageLocations()
					if len(ci.GetNullPages()) != len(locs) {
						t.Errorf("row group %d column %d: %d column index entries for %d pages", g, c, len(ci.GetNullPages()), len(locs))
					}
					for p, loc := range locs {
						end := n
						if p+1 < len(locs) {
							end = locs[p+1].FirstRowIndex
						}
						if end-loc.FirstRowIndex > tc.maxPage {
							t.Errorf("row group %d column %d page %d: %d rows, limit %d", g, c, p, end-loc.FirstRowIndex, tc.maxPage)
						}
					}
				}
			}
			if total != rows {
				t.Errorf("rows in row groups = %d, want %d", total, rows)
			}
		})
	}
}

// TestParquetBloomFilters writes bloom filters where the table asks for
// them and checks them with parquet-go's reader and arrow-go's (hashing
// and layout as the Parquet spec defines them): every value written is
// found, few values not written are, and the byte limit holds.
func TestParquetBloomFilters(t *testing.T) {
	schema := keyedSchema()
	const rows = 30000
	rec := keyedRows(schema, rows, 2) // even keys only
	defer rec.Release()
	for _, tc := range []struct {
		name      string
		props     map[string]string
		filtered  map[string]int // column name -> leaf index
		maxGroupB int64          // largest filter allowed (0: no check)
	}{
		{"none", nil, nil, 0},
		{"one column", map[string]string{propBloomEnabled + "k": "true"}, map[string]int{"k": 0}, defaultBloomMaxBytes},
		{"string and nested, fpp", map[string]string{
			propBloomEnabled + "s": "TRUE", propBloomEnabled + "st.x": "true", propBloomEnabled + "k": "false",
			propBloomFPP + "s": "0.001",
		}, map[string]int{"s": 1, "st.x": 2}, defaultBloomMaxBytes},
		{"max bytes ends row groups", map[string]string{propBloomEnabled + "k": "true", propBloomMaxBytes: "4100"},
			map[string]int{"k": 0}, 4100},
		{"unknown column ignored", map[string]string{propBloomEnabled + "nope": "true"}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema, Properties: tc.props}, rec)
			path := files[0].Path
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
			ar := arrowFile(t, path)
			bfr := ar.GetBloomFilterReader()
			start := int64(0)
			for g, rg := range pf.RowGroups() {
				n := rg.NumRows()
				chunks := rg.ColumnChunks()
				abf, err := bfr.RowGroup(g)
				if err != nil {
					t.Fatal(err)
				}
				for c := range chunks {
					want := false
					for _, leaf := range tc.filtered {
						want = want || leaf == c
					}
					bf := chunks[c].(*parquet.FileColumnChunk).BloomFilter()
					if (bf != nil) != want {
						t.Fatalf("row group %d column %d: bloom filter %v, want %v", g, c, bf != nil, want)
					}
					if !want {
						continue
					}
					if tc.maxGroupB > 0 && bf.Size() > tc.maxGroupB {
						t.Errorf("row group %d column %d: filter of %d bytes, limit %d", g, c, bf.Size(), tc.maxGroupB)
					}
					af, err := abf.GetColumnBloomFilter(c)
					if err != nil || af == nil {
						t.Fatalf("arrow-go: row group %d column %d: no bloom filter (%v)", g, c, err)
					}
					falsePos := 0
					for i := start; i < start+n; i++ {
						k := i * 2
						var in, out parquet.Value
						var ain, aout uint64
						switch c {
						case 0:
							in, out = parquet.Int64Value(k), parquet.Int64Value(k+1)
							ain, aout = metadata.GetHash(af.Hasher(), k), metadata.GetHash(af.Hasher(), k+1)
						case 1:
							sin, sout := fmt.Sprintf("v%d", k), fmt.Sprintf("v%d", k+1)
							in, out = parquet.ByteArrayValue([]byte(sin)), parquet.ByteArrayValue([]byte(sout))
							ain = metadata.GetHash(af.Hasher(), parquetByteArray(sin))
							aout = metadata.GetHash(af.Hasher(), parquetByteArray(sout))
						case 2:
							in, out = parquet.Int32Value(int32(k%97)), parquet.Int32Value(int32(1000+k))
							ain, aout = metadata.GetHash(af.Hasher(), int32(k%97)), metadata.GetHash(af.Hasher(), int32(1000+k))
						}
						if ok, err := bf.Check(in); err != nil || !ok {
							t.Fatalf("row group %d column %d: value of row %d not in parquet-go's filter (%v)", g, c, i, err)
						}
						if !af.CheckHash(ain) {
							t.Fatalf("row group %d column %d: value of row %d not in arrow-go's filter", g, c, i)
						}
						if ok, _ := bf.Check(out); ok {
							falsePos++
						}
						if af.CheckHash(aout) {
							falsePos++
						}
					}
					if rate := float64(falsePos) / float64(2*n); rate > 0.05 {
						t.Errorf("row group %d column %d: false positive rate %.3f", g, c, rate)
					}
				}
				start += n
			}
			if tc.maxGroupB == 4100 && len(pf.RowGroups()) < 2 {
				t.Errorf("row groups = %d, want the filter limit to end row groups", len(pf.RowGroups()))
			}
		})
	}
}

func parquetByteArray(s string) apq.ByteArray { return apq.ByteArray(s) }

// TestParquetPropertiesInvalid: a value the writer cannot use is 22023
// naming the property.
func TestParquetPropertiesInvalid(t *testing.T) {
	for _, tc := range []struct{ key, value string }{
		{propPageRowLimit, "0"},
		{propPageRowLimit, "many"},
		{propRowGroupBytes, "-1"},
		{propPageBytes, "1.5"},
		{propDictBytes, "x"},
		{propBloomMaxBytes, "0"},
		{propBloomEnabled + "k", "yes please"},
		{propBloomFPP + "k", "1"},
		{propBloomFPP + "k", "0"},
		{propBloomFPP + "k", "abc"},
	} {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			_, err := NewWriter(context.Background(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: keyedSchema(),
				Properties: map[string]string{tc.key: tc.value}})
			wantCode(t, err, pgerr.InvalidParameterValue)
			if pe := pgerr.As(err); pe != nil && !containsAll(pe.Message, tc.key, tc.value) {
				t.Errorf("message %q does not name %q and %q", pe.Message, tc.key, tc.value)
			}
		})
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestParquetDefaults: without properties a file gets the codec and sizes
// chosen by measurement (bench/README.md, "Layout"): zstd, row groups of
// 32 MiB, pages of at most 1 MiB and 20000 rows, no bloom filters.
func TestParquetDefaults(t *testing.T) {
	o, err := parseFileOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"row group bytes", o.rowGroupBytes, 32 << 20},
		{"page bytes", int64(o.pageBytes), 1 << 20},
		{"page rows", o.pageRowLimit, 20000},
		{"dictionary bytes", o.dictBytes, 2 << 20},
		{"bloom filter bytes", o.bloomMaxBytes, 1 << 20},
		{"bloom filter columns", int64(len(o.bloom)), 0},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if name := o.codec.String(); name != "SNAPPY" {
		t.Errorf("codec = %s, want SNAPPY", name)
	}
}
