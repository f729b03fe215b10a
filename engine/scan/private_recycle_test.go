package scan

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// TestExactScanBuffersStayPrivate reads a table through a scan that
// applies exact conjuncts, and so decodes into buffers it recycles, as a
// consumer that keeps views of the values past the batch's release would
// (a writer buffering byte slices): each batch's k and s are viewed
// without a reference, the scan moves on, and the views must still hold
// the rows' values at the end. Conjuncts that keep every row of a batch
// (the scan hands on the batch it decoded) and some of its rows (it
// copies them out) are both read, with and without the column cache.
// The scan reads the file as many times as makes it large enough to
// recycle.
func TestExactScanBuffersStayPrivate(t *testing.T) {
	const n = 4000
	tbl, df := writeLateTable(t, n)
	schema := tbl.Metadata.CurrentSchema()
	spec := engine.ScanSpec{Table: tbl, Tasks: []catalog.FileScanTask{{File: df}}, Schema: schema, FieldIDs: []int{1, 3}}
	copies := maxCachedGroupRows/n + 1
	for range copies - 1 {
		spec.Tasks = append(spec.Tasks, catalog.FileScanTask{File: df})
	}
	out := New(spec, Options{}).Schema()
	k := &expr.Col{Idx: 0, Name: out.Field(0).Name, T: out.Field(0).Type}
	i8 := func(v int64) expr.Expr { return &expr.Lit{V: v, T: expr.Int8} }
	cases := map[string]struct {
		pred expr.Expr
		keep func(i int64) bool
	}{
		"every row": {exactCall(">=", k, i8(0)), func(int64) bool { return true }},
		"even rows": {exactCall("=", exactCall("%", k, i8(2)), i8(0)), func(i int64) bool { return i%2 == 0 }},
		"a range":   {exactCall(">=", k, i8(1234)), func(i int64) bool { return i >= 1234 }},
	}
	for name, c := range cases {
		if c.pred == nil {
			t.Fatalf("%s: the predicate does not resolve", name)
		}
		for _, cached := range []bool{false, true} {
			spec := spec
			spec.Exact = []expr.Expr{c.pred}
			opts := Options{Parallelism: 1, BatchSize: 100}
			if cached {
				opts.Columns = NewColumnCache(64 << 20)
			}
			op := New(spec, opts)
			if !privateRecycling(spec) {
				t.Fatal("a large scan with exact conjuncts does not recycle its buffers")
			}
			if small := (engine.ScanSpec{Tasks: spec.Tasks[:1], Exact: spec.Exact}); privateRecycling(small) {
				t.Fatal("a scan of one small file recycles its buffers")
			}
			ctx := context.Background()
			if err := op.Open(ctx); err != nil {
				t.Fatal(err)
			}
			var keys []int64   // views of k's values, held past each batch
			var texts []string // views of s's bytes
			var nulls []bool
			for {
				rec, err := op.Next() // releases the batch before
				if err != nil {
					t.Fatal(err)
				}
				if rec == nil {
					break
				}
				keys = append(keys, rec.Column(0).(*array.Int64).Int64Values()...)
				s := rec.Column(1).(*array.String)
				for i := range s.Len() {
					texts = append(texts, s.Value(i)) // shares s's buffer
					nulls = append(nulls, s.IsNull(i))
				}
			}
			op.Close()
			var want []int64
			for range copies {
				for i := range int64(n) {
					if c.keep(i) {
						want = append(want, i)
					}
				}
			}
			if len(keys) != len(want) {
				t.Fatalf("%s, cached %v: %d rows, want %d", name, cached, len(keys), len(want))
			}
			bad := 0
			for j, i := range want {
				if keys[j] != i || nulls[j] != (i%13 == 0) || (!nulls[j] && texts[j] != lateText(i)) {
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%s, cached %v: %d of %d rows changed after their batch was released", name, cached, bad, len(want))
			}
		}
	}
}

// lateText is column s of writeLateTable's row i when it is not NULL.
func lateText(i int64) string {
	if i < 1500 {
		return fmt.Sprintf("v%d", i%5)
	}
	return fmt.Sprintf("u%d", i)
}
