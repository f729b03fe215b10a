package write

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
)

func sortField(src int, transform string, param int, dir, nulls string) catalog.SortField {
	return catalog.SortField{SourceID: src, Transform: catalog.Transform{Name: transform, Param: param},
		Direction: dir, NullOrder: nulls}
}

// TestSortedWriteOrder writes partRows under sort orders of each kind and
// checks the order of the ids in the one file written.
func TestSortedWriteOrder(t *testing.T) {
	schema := partSchema()
	tests := []struct {
		name   string
		fields []catalog.SortField
		want   []int64
	}{
		{"string desc nulls last, id", []catalog.SortField{sortField(3, "identity", 0, "desc", "nulls-last"),
			sortField(1, "identity", 0, "asc", "nulls-first")}, []int64{6, 5, 2, 1, 3, 4}},
		{"day asc nulls first, id desc", []catalog.SortField{sortField(2, "day", 0, "asc", "nulls-first"),
			sortField(1, "identity", 0, "desc", "nulls-last")}, []int64{4, 3, 2, 1, 6, 5}},
		{"truncate(2) asc nulls last, id desc", []catalog.SortField{sortField(3, "truncate", 2, "asc", "nulls-last"),
			sortField(1, "identity", 0, "desc", "nulls-last")}, []int64{3, 2, 1, 5, 6, 4}},
		{"nested struct field", []catalog.SortField{sortField(7, "identity", 0, "asc", "nulls-first"),
			sortField(1, "identity", 0, "asc", "nulls-first")}, []int64{3, 4, 1, 5, 2, 6}},
		{"decimal desc nulls last", []catalog.SortField{sortField(5, "identity", 0, "desc", "nulls-last")}, []int64{5, 6, 1, 3, 2, 4}},
		{"year desc nulls first, month asc", []catalog.SortField{sortField(4, "year", 0, "desc", "nulls-first"),
			sortField(4, "month", 0, "asc", "nulls-last"), sortField(1, "identity", 0, "asc", "nulls-last")}, []int64{4, 5, 1, 2, 6, 3}},
		{"hour", []catalog.SortField{sortField(2, "hour", 0, "asc", "nulls-last"), sortField(1, "identity", 0, "desc", "nulls-last")},
			[]int64{3, 1, 2, 6, 5, 4}},
	}
	for _, format := range []string{"parquet", "avro"} {
		for _, tc := range tests {
			t.Run(format+"/"+tc.name, func(t *testing.T) {
				// two batches: the sort spans them
				rows := strings.Split(strings.Trim(partRows, "[]\n"), "\n")
				first := recordFromJSON(t, schema, "["+strings.TrimSuffix(strings.Join(rows[:3], "\n"), ",")+"]")
				second := recordFromJSON(t, schema, "["+strings.Join(rows[3:], "\n")+"]")
				defer first.Release()
				defer second.Release()
				dir := t.TempDir()
				order := &catalog.SortOrder{ID: 3, Fields: tc.fields}
				files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, FormatVersion: 2,
					Format: format, SortOrder: order}, first, second)
				if len(files) != 1 {
					t.Fatalf("files = %d, want 1", len(files))
				}
				if files[0].SortOrderID == nil || *files[0].SortOrderID != 3 {
					t.Errorf("sort_order_id = %v, want 3", files[0].SortOrderID)
				}
				if got := fileIDs(t, dir, schema, files[0]); !slices.Equal(got, tc.want) {
					t.Errorf("ids in file order = %v, want %v", got, tc.want)
				}
			})
		}
	}
}

// fileIDs reads one data file back and returns its column "id" in file
// order.
func fileIDs(t *testing.T, dir string, schema *catalog.Schema, df *catalog.DataFile) []int64 {
	t.Helper()
	recs := scanRecords(t, tableFor(dir, schema), schema, tasksFor([]*catalog.DataFile{df}, nil))
	defer releaseAll(recs)
	var ids []int64
	for _, r := range recs {
		ids = append(ids, r.Column(0).(*array.Int64).Int64Values()...)
	}
	return ids
}

// TestSortedWriteManyFiles writes more rows than the sort buffer holds into
// a partitioned table: every file is in order, every row is written once,
// and an unsorted table's files carry no sort order id.
func TestSortedWriteManyFiles(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: prim(catalog.TLong)},
		{ID: 2, Name: "x", Type: prim(catalog.TDouble)},
		{ID: 3, Name: "p", Type: prim(catalog.TInt)},
	}}
	spec := &catalog.PartitionSpec{ID: 0, Fields: []catalog.PartitionField{
		{SourceID: 3, FieldID: 1000, Name: "p", Transform: catalog.Transform{Name: "identity"}}}}
	rng := rand.New(rand.NewPCG(1, 2))
	var batches []string
	for b := 0; b < 4; b++ {
		var rows []string
		for i := 0; i < 3000; i++ {
			x := fmt.Sprint(rng.NormFloat64())
			switch rng.IntN(50) {
			case 0:
				x = `"NaN"`
			case 1:
				x = "null"
			}
			rows = append(rows, fmt.Sprintf(`{"id": %d, "x": %s, "p": %d}`, b*3000+i, x, rng.IntN(3)))
		}
		batches = append(batches, "["+strings.Join(rows, ",\n")+"]")
	}
	for _, format := range []string{"parquet", "avro"} {
		for _, sorted := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/sorted=%v", format, sorted), func(t *testing.T) {
				dir := t.TempDir()
				ws := WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Spec: spec, FormatVersion: 2, Format: format,
					// about 2.5 batches of Arrow bytes: the buffer is sorted and flushed twice
					// distribution mode none: each buffer is sorted on its own
					Properties: map[string]string{propTargetFileSize: "180000", propDistributionMode: "none"}}
				if sorted {
					ws.SortOrder = &catalog.SortOrder{ID: 1, Fields: []catalog.SortField{sortField(2, "identity", 0, "desc", "nulls-first")}}
				}
				var in []interface{ Release() }
				var files []*catalog.DataFile
				{
					w, err := NewWriter(t.Context(), ws)
					if err != nil {
						t.Fatal(err)
					}
					for _, b := range batches {
						r := recordFromJSON(t, schema, b)
						in = append(in, r)
						if err := w.Write(r); err != nil {
							t.Fatal(err)
						}
					}
					if files, err = w.Close(); err != nil {
						t.Fatal(err)
					}
				}
				for _, r := range in {
					r.Release()
				}
				total := int64(0)
				for _, df := range files {
					total += df.RecordCount
					if sorted != (df.SortOrderID != nil) {
						t.Errorf("%s: sort_order_id = %v, sorted %v", df.Path, df.SortOrderID, sorted)
					}
					if !sorted {
						continue
					}
					recs := scanRecords(t, tableFor(dir, schema), schema, tasksFor([]*catalog.DataFile{df}, spec))
					var prev *float64
					for _, r := range recs {
						xs := r.Column(1).(*array.Float64)
						for i := 0; i < xs.Len(); i++ {
							if xs.IsNull(i) {
								if prev != nil {
									t.Fatalf("%s: NULL after %v (nulls first)", df.Path, *prev)
								}
								continue
							}
							x := xs.Value(i)
							if prev != nil && descBefore(x, *prev) {
								t.Fatalf("%s: %v after %v (descending)", df.Path, x, *prev)
							}
							prev = &x
						}
					}
					releaseAll(recs)
				}
				if total != 12000 {
					t.Errorf("rows written = %d, want 12000", total)
				}
				if sorted && len(files) < 6 {
					t.Errorf("files = %d, want one per partition per buffer flush (at least 6)", len(files))
				}
			})
		}
	}
}

// descBefore says x must not follow prev in descending order with NaN
// the greatest value.
func descBefore(x, prev float64) bool {
	switch {
	case math.IsNaN(x):
		return !math.IsNaN(prev)
	case math.IsNaN(prev):
		return false
	}
	return x > prev
}

func TestSortOrderErrors(t *testing.T) {
	schema := partSchema()
	_, err := NewWriter(t.Context(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema, FormatVersion: 2,
		SortOrder: &catalog.SortOrder{ID: 1, Fields: []catalog.SortField{sortField(99, "identity", 0, "asc", "nulls-first")}}})
	wantCode(t, err, "42703")
	_, err = NewWriter(t.Context(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema, FormatVersion: 2,
		SortOrder: &catalog.SortOrder{ID: 1, Fields: []catalog.SortField{sortField(3, "day", 0, "asc", "nulls-first")}}})
	wantCode(t, err, "0A000")
}
