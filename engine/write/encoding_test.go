package write

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
)

// dataPageEncodings returns, per column of the file's first row group, the
// encodings of its data pages.
func dataPageEncodings(t *testing.T, path string) [][]format.Encoding {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var out [][]format.Encoding
	for _, c := range pf.Metadata().RowGroups[0].Columns {
		var encs []format.Encoding
		for _, es := range c.MetaData.EncodingStats {
			if es.PageType == format.DataPage && !slices.Contains(encs, es.Encoding) {
				encs = append(encs, es.Encoding)
			}
		}
		out = append(out, encs)
	}
	return out
}

// TestEncodingChoice: each data file's columns are encoded as their first
// rows favour (dictionary when it is clearly smaller, DELTA_BINARY_PACKED
// for integers written in order, PLAIN otherwise) unless a property pins
// the choice, and the file reads back as written.
func TestEncodingChoice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	perm := rng.Perm(1 << 20)
	day := func(d int) string {
		return `"` + time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d).Format(time.DateOnly) + `"`
	}
	for _, tc := range []struct {
		name  string
		typ   *catalog.PrimitiveType
		rows  int
		props map[string]string
		val   func(i int) string // the JSON value of row i
		want  format.Encoding
		batch int // rows per batch written (0: one batch)
	}{
		{"sorted key, runs of 4", prim(catalog.TLong), 20000, nil,
			func(i int) string { return fmt.Sprint(1000 + i/4*3) }, format.DeltaBinaryPacked, 0},
		{"sorted int", prim(catalog.TInt), 20000, nil,
			func(i int) string { return fmt.Sprint(i) }, format.DeltaBinaryPacked, 0},
		{"sorted decimal", &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 12, Scale: 2}, 20000, nil,
			func(i int) string { return fmt.Sprintf(`"%d.%02d"`, i, i%100) }, format.DeltaBinaryPacked, 0},
		{"sorted date in long runs", prim(catalog.TDate), 20000, nil,
			func(i int) string { return day(i / 1000) }, format.RLEDictionary, 0},
		{"distinct longs", prim(catalog.TLong), 20000, nil,
			func(i int) string { return fmt.Sprint(perm[i]) }, format.Plain, 0},
		{"longs of 200,000 values", prim(catalog.TLong), 20000, nil,
			func(i int) string { return fmt.Sprint(perm[i] % 200000) }, format.RLEDictionary, 0},
		{"decimals of 50 values", &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 15, Scale: 2}, 20000, nil,
			func(i int) string { return fmt.Sprintf(`"%d.00"`, perm[i]%50) }, format.RLEDictionary, 0},
		{"dates in random order", prim(catalog.TDate), 20000, nil,
			func(i int) string { return day(perm[i] % 2500) }, format.RLEDictionary, 0},
		{"distinct doubles", prim(catalog.TDouble), 20000, nil,
			func(i int) string { return fmt.Sprintf("%d.5", perm[i]) }, format.Plain, 0},
		{"distinct strings", prim(catalog.TString), 20000, nil,
			func(i int) string { return fmt.Sprintf(`"comment number %d"`, perm[i]) }, format.Plain, 0},
		{"strings of 7 values", prim(catalog.TString), 20000, nil,
			func(i int) string { return fmt.Sprintf(`"MODE %d"`, perm[i]%7) }, format.RLEDictionary, 0},
		{"strings of 7 values and nulls", prim(catalog.TString), 20000, nil,
			func(i int) string {
				if i%3 == 0 {
					return "null"
				}
				return fmt.Sprintf(`"MODE %d"`, perm[i]%7)
			}, format.RLEDictionary, 0},
		{"distinct longs in batches of 1000", prim(catalog.TLong), 20000, nil,
			func(i int) string { return fmt.Sprint(perm[i]) }, format.Plain, 1000},
		{"sorted key in batches of 1000", prim(catalog.TLong), 20000, nil,
			func(i int) string { return fmt.Sprint(i / 3) }, format.DeltaBinaryPacked, 1000},
		{"too few rows to judge", prim(catalog.TLong), 500, nil,
			func(i int) string { return fmt.Sprint(perm[i]) }, format.RLEDictionary, 0},
		{"dictionary disabled for the column", prim(catalog.TString), 20000,
			map[string]string{propDictColumnEnabled + "c": "false"},
			func(i int) string { return fmt.Sprintf(`"MODE %d"`, perm[i]%7) }, format.Plain, 0},
		{"dictionary enabled for the column", prim(catalog.TLong), 20000,
			map[string]string{propDictColumnEnabled + "c": "true"},
			func(i int) string { return fmt.Sprint(i) }, format.RLEDictionary, 0},
		{"dictionary disabled for the table", prim(catalog.TString), 20000,
			map[string]string{propDictEnabled: "false"},
			func(i int) string { return fmt.Sprintf(`"MODE %d"`, perm[i]%7) }, format.Plain, 0},
		{"the column wins over the table", prim(catalog.TString), 20000,
			map[string]string{propDictEnabled: "false", propDictColumnEnabled + "c": "true"},
			func(i int) string { return fmt.Sprintf(`"MODE %d"`, perm[i]%7) }, format.RLEDictionary, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := &catalog.Schema{Fields: []catalog.NestedField{
				{ID: 1, Name: "id", Required: true, Type: prim(catalog.TInt)},
				{ID: 2, Name: "c", Type: tc.typ},
			}}
			var b strings.Builder
			b.WriteString("[")
			for i := range tc.rows {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"id": %d, "c": %s}`, i%3, tc.val(i))
			}
			b.WriteString("]")
			rec := recordFromJSON(t, schema, b.String())
			defer rec.Release()
			dir := t.TempDir()
			batches := []arrow.RecordBatch{rec}
			if tc.batch > 0 {
				batches = nil
				for i := 0; i < tc.rows; i += tc.batch {
					b := rec.NewSlice(int64(i), int64(min(i+tc.batch, tc.rows)))
					defer b.Release()
					batches = append(batches, b)
				}
			}
			files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Properties: tc.props}, batches...)
			encs := dataPageEncodings(t, files[0].Path)
			if got := encs[1]; !slices.Equal(got, []format.Encoding{tc.want}) {
				t.Errorf("data pages of c are %v, want %v", got, tc.want)
			}
			got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
			defer releaseAll(got)
			if !slices.Equal(rowStrings(got...), rowStrings(rec)) {
				t.Errorf("rows read back differ")
			}
		})
	}
}

// TestEncodingPropertyInvalid: a dictionary property that is not a boolean
// fails with 22023.
func TestEncodingPropertyInvalid(t *testing.T) {
	for _, props := range []map[string]string{
		{propDictEnabled: "sometimes"},
		{propDictColumnEnabled + "c": "yes please"},
	} {
		_, err := parseFileOptions(props)
		wantCode(t, err, "22023")
	}
}

// TestChunkDistinct: the distinct values a row group will hold, estimated
// from a sample of its first rows, within a quarter of the true count for
// values drawn at random and for values in order.
func TestChunkDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name string
		ndv  int // values are drawn from this many
		rows int // rows of the chunk
		draw func(i, ndv int) int64
	}{
		{"random of 200,000 in 1M rows", 200000, 1 << 20, func(i, ndv int) int64 { return rng.Int64N(int64(ndv)) }},
		{"random of 5M in 1M rows", 5000000, 1 << 20, func(i, ndv int) int64 { return rng.Int64N(int64(ndv)) }},
		{"random of 1,000 in 1M rows", 1000, 1 << 20, func(i, ndv int) int64 { return rng.Int64N(int64(ndv)) }},
		{"in order, runs of 4", 0, 1 << 20, func(i, ndv int) int64 { return int64(i / 4) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals := make([]parquet.Value, tc.rows)
			distinct := map[int64]bool{}
			for i := range vals {
				v := tc.draw(i, tc.ndv)
				vals[i] = parquet.Int64Value(v)
				distinct[v] = true
			}
			s := sampleValues(vals[:encodingSampleRows], maphash.MakeSeed())
			got, want := s.chunkDistinct(float64(tc.rows)), float64(len(distinct))
			if got < 0.75*want || got > 1.25*want {
				t.Errorf("estimated %.0f distinct values, there are %.0f", got, want)
			}
		})
	}
}
