package write

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestDistributionMode writes shuffled rows into a table partitioned by p
// (three values) in each write.distribution-mode, with and without a sort
// order on x, at a target file size a few batches' worth, and checks the
// files of each partition: how many, whether each is sorted, and whether
// their bounds on x overlap.
func TestDistributionMode(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: prim(catalog.TLong)},
		{ID: 2, Name: "x", Required: true, Type: prim(catalog.TLong)},
		{ID: 3, Name: "p", Required: true, Type: prim(catalog.TInt)},
	}}
	spec := &catalog.PartitionSpec{ID: 0, Fields: []catalog.PartitionField{
		{SourceID: 3, FieldID: 1000, Name: "p", Transform: catalog.Transform{Name: "identity"}}}}
	const batches, perBatch = 6, 4000
	rng := rand.New(rand.NewPCG(3, 4))
	xs := rng.Perm(batches * perBatch) // shuffled, distinct
	var in []arrow.RecordBatch
	for b := range batches {
		var rows []string
		for i := range perBatch {
			id := b*perBatch + i
			rows = append(rows, fmt.Sprintf(`{"id": %d, "x": %d, "p": %d}`, id, xs[id], xs[id]%3))
		}
		in = append(in, recordFromJSON(t, schema, "["+strings.Join(rows, ",\n")+"]"))
	}
	defer func() {
		for _, r := range in {
			r.Release()
		}
	}()
	byX := &catalog.SortOrder{ID: 1, Fields: []catalog.SortField{sortField(2, "identity", 0, "asc", "nulls-first")}}
	tests := []struct {
		mode   string // "" leaves the property unset
		order  *catalog.SortOrder
		sorted bool // files carry the sort order and are in it
		// files per partition: at least min; when fewest, at most one
		// more than the unsorted write in mode none, the first case
		// (the fewest the target size allows; a sorted file's size
		// differs by the encoding of its values)
		min     int
		fewest  bool
		overlap bool // some partition's files overlap on x
	}{
		// Unsorted: the fanout writer keeps one open file per partition
		// in every mode, rolled at the target size.
		{mode: "none", min: 2, fewest: true},
		{mode: "hash", min: 2, fewest: true},
		{mode: "range", min: 2, fewest: true},
		{mode: "", min: 2, fewest: true},
		// Sorted locally: every batch is more than the target size, so
		// each is sorted on its own and every partition gets a file (or
		// more) per batch, with overlapping bounds.
		{mode: "none", order: byX, sorted: true, min: batches, overlap: true},
		// Sorted as one run: files rolled at the target size inside it,
		// one after another on x, as few as the target size allows.
		{mode: "hash", order: byX, sorted: true, min: 2, fewest: true},
		{mode: "range", order: byX, sorted: true, min: 2, fewest: true},
		{mode: "", order: byX, sorted: true, min: 2, fewest: true}, // a sort order: range
	}
	fewest := map[int32]int{} // files per partition of the first case
	for _, tc := range tests {
		name := fmt.Sprintf("mode=%q/sorted=%v", tc.mode, tc.order != nil)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			props := map[string]string{propTargetFileSize: "24000"}
			if tc.mode != "" {
				props[propDistributionMode] = tc.mode
			}
			files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Spec: spec,
				FormatVersion: 2, Properties: props, SortOrder: tc.order}, in...)
			parts := map[int32][]*catalog.DataFile{}
			var total int64
			for _, df := range files {
				total += df.RecordCount
				p := df.Partition[0].(int32)
				parts[p] = append(parts[p], df)
				if tc.sorted != (df.SortOrderID != nil) {
					t.Errorf("%s: sort_order_id = %v, want sorted %v", df.Path, df.SortOrderID, tc.sorted)
				}
				if tc.sorted {
					checkAscending(t, dir, schema, spec, df)
				}
			}
			if total != batches*perBatch {
				t.Fatalf("rows written = %d, want %d", total, batches*perBatch)
			}
			if len(parts) != 3 {
				t.Fatalf("partitions = %d, want 3", len(parts))
			}
			overlap := false
			for p, dfs := range parts {
				if len(dfs) < tc.min {
					t.Errorf("partition %d: %d files, want at least %d", p, len(dfs), tc.min)
				}
				if len(fewest) < 3 {
					fewest[p] = len(dfs)
				}
				if tc.fewest && len(dfs) > fewest[p]+1 {
					t.Errorf("partition %d: %d files, want at most %d", p, len(dfs), fewest[p]+1)
				}
				if boundsOverlap(dfs) {
					overlap = true
				}
			}
			if tc.order != nil && overlap != tc.overlap {
				t.Errorf("files overlap on x: %v, want %v", overlap, tc.overlap)
			}
			t.Logf("%d files", len(files))
		})
	}
}

// checkAscending reads a data file back and checks x ascends in it.
func checkAscending(t *testing.T, dir string, schema *catalog.Schema, spec *catalog.PartitionSpec, df *catalog.DataFile) {
	t.Helper()
	recs := scanRecords(t, tableFor(dir, schema), schema, tasksFor([]*catalog.DataFile{df}, spec))
	defer releaseAll(recs)
	prev := int64(-1)
	for _, r := range recs {
		x := r.Column(1).(*array.Int64)
		for i := range x.Len() {
			if x.Value(i) < prev {
				t.Fatalf("%s: x %d after %d", df.Path, x.Value(i), prev)
			}
			prev = x.Value(i)
		}
	}
}

// boundsOverlap says whether two of the files' [lower, upper] ranges on x
// (field 2) share a value.
func boundsOverlap(dfs []*catalog.DataFile) bool {
	type rng struct{ lo, hi int64 }
	var rs []rng
	for _, df := range dfs {
		rs = append(rs, rng{int64(binary.LittleEndian.Uint64(df.LowerBounds[2])), int64(binary.LittleEndian.Uint64(df.UpperBounds[2]))})
	}
	slices.SortFunc(rs, func(a, b rng) int { return int(a.lo - b.lo) })
	for i := 1; i < len(rs); i++ {
		if rs[i].lo <= rs[i-1].hi {
			return true
		}
	}
	return false
}

func TestDistributionModeInvalid(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "id", Type: prim(catalog.TLong)}}}
	_, err := NewWriter(t.Context(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema, FormatVersion: 2,
		Properties: map[string]string{propDistributionMode: "sideways"}})
	wantCode(t, err, pgerr.InvalidParameterValue)
	if err == nil || !strings.Contains(err.Error(), propDistributionMode) {
		t.Errorf("error %v does not name %s", err, propDistributionMode)
	}
}
