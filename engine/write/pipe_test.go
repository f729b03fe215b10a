package write

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
)

// TestWriteBehindCaller: the caller may release a batch as soon as Write
// returns (the Writer keeps its columns until they are written); the rows
// land in the files in the order written, across rolled files, and every
// buffer is freed by Close, or by Abort after an error.
func TestWriteBehindCaller(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: prim(catalog.TLong)},
		{ID: 2, Name: "s", Type: prim(catalog.TString)},
	}}
	batch := func(mem memory.Allocator, from, n int, nullID bool) arrow.RecordBatch {
		var b strings.Builder
		b.WriteString("[")
		for i := from; i < from+n; i++ {
			if i > from {
				b.WriteString(",")
			}
			id := fmt.Sprint(i)
			if nullID && i == from+n-1 {
				id = "null"
			}
			fmt.Fprintf(&b, `{"id": %s, "s": "row %d"}`, id, i)
		}
		b.WriteString("]")
		rec, _, err := array.RecordFromJSON(mem, arrowSchema(schema), strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	for _, tc := range []struct {
		name    string
		batches int
		failAt  int // batch with a NULL id (-1: none)
	}{
		{"all written", 40, -1},
		{"one batch", 1, -1},
		{"failure midway", 40, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			dir := t.TempDir()
			w, err := NewWriter(context.Background(), WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema,
				Properties: map[string]string{propTargetFileSize: "30000", propCodec: "snappy"}})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			var werr error
			for k := range tc.batches {
				rec := batch(mem, k*500, 500, k == tc.failAt)
				if k != tc.failAt {
					want = append(want, rowStrings(rec)...)
				}
				werr = w.Write(rec)
				rec.Release()
				if werr != nil {
					break
				}
			}
			files, err := w.Close()
			if tc.failAt >= 0 {
				if werr == nil && err == nil {
					t.Fatal("a NULL in a required column was written")
				}
				if left := listFiles(t, dir); len(left) != 0 {
					t.Errorf("files left after the failure: %v", left)
				}
				mem.AssertSize(t, 0)
				return
			}
			if werr != nil || err != nil {
				t.Fatalf("write: %v, close: %v", werr, err)
			}
			mem.AssertSize(t, 0)
			if tc.batches > 1 && len(files) < 2 {
				t.Errorf("%d files, want the write rolled", len(files))
			}
			got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
			defer releaseAll(got)
			if !slices.Equal(rowStrings(got...), want) {
				t.Error("rows read back differ from the rows written, in order")
			}
		})
	}
}
