package scan

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestKeepRowsScattered: rows kept here and there (more runs than
// maxKeptRuns, gathered by index) and in a few runs (sliced) come out the
// same, for fixed-width, text, boolean and nested columns with NULLs.
func TestKeepRowsScattered(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	const n = 100
	valid := make([]bool, n) // of row i, and of i+n
	for i := range valid {
		valid[i] = i%7 != 3
	}
	ib := array.NewInt64Builder(mem)
	db := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 15, Scale: 2})
	sb := array.NewStringBuilder(mem)
	bb := array.NewBooleanBuilder(mem)
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
	for i := range n + 10 {
		if !valid[i%n] {
			ib.AppendNull()
			db.AppendNull()
			sb.AppendNull()
			bb.AppendNull()
			lb.AppendNull()
			continue
		}
		ib.Append(int64(i) * 1000)
		db.Append(decimal128.FromI64(int64(i) - 50))
		sb.Append(string(rune('a'+i%26)) + "xyz"[:i%4])
		bb.Append(i%2 == 0)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int32Builder).Append(int32(i))
	}
	whole := []arrow.Array{ib.NewArray(), db.NewArray(), sb.NewArray(), bb.NewArray(), lb.NewArray()}
	for _, b := range []array.Builder{ib, db, sb, bb, lb} {
		b.Release()
	}
	defer releaseAll(whole)
	// Slices, as batches of a cached column are.
	cols := make([]arrow.Array, len(whole))
	for i, a := range whole {
		cols[i] = array.NewSlice(a, 5, 5+n)
	}
	defer releaseAll(cols)
	cases := []struct {
		name string
		del  func(i int) bool
	}{
		{"scattered", func(i int) bool { return i%3 != 0 }},
		{"few runs", func(i int) bool { return i >= 10 && i < 90 }},
		{"one kept", func(i int) bool { return i != n-1 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			del := make([]bool, n)
			var want []int
			for i := range del {
				del[i] = c.del(i)
				if !del[i] {
					want = append(want, i)
				}
			}
			got, err := keepRows(mem, cols, del)
			if err != nil {
				t.Fatal(err)
			}
			defer releaseAll(got)
			for j, g := range got {
				if g.Len() != len(want) {
					t.Fatalf("column %d: %d rows, want %d", j, g.Len(), len(want))
				}
				for k, r := range want {
					if g.IsNull(k) != cols[j].IsNull(r) || g.IsValid(k) && g.ValueStr(k) != cols[j].ValueStr(r) {
						t.Errorf("column %d row %d: %s, want row %d's %s", j, k, g.ValueStr(k), r, cols[j].ValueStr(r))
					}
				}
			}
		})
	}
}
