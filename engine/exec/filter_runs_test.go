package exec

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGatherByRuns wants the run copies to gather exactly what the
// row-by-row gathers do: int32, decimal and text columns, with and
// without NULLs, sliced (an offset) or not, for selections of long runs,
// short runs, one row, and rows out of order.
func TestGatherByRuns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 3000
	build := func(nulls bool) []arrow.Array {
		ib := array.NewInt32Builder(mem)
		db := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 15, Scale: 2})
		sb := array.NewStringBuilder(mem)
		defer ib.Release()
		defer db.Release()
		defer sb.Release()
		for i := range n {
			if nulls && i%13 == 5 {
				ib.AppendNull()
				db.AppendNull()
				sb.AppendNull()
				continue
			}
			ib.Append(int32(rng.IntN(1 << 30)))
			db.Append(decimal128.FromI64(rng.Int64N(1 << 40)))
			sb.Append(fmt.Sprintf("s%d", rng.IntN(1<<uint(rng.IntN(20)))))
		}
		return []arrow.Array{ib.NewArray(), db.NewArray(), sb.NewArray()}
	}
	// keep returns the rows of [0, m) that survive dropping each with
	// probability 1/every (every 0: none dropped).
	keep := func(m, every int) []int32 {
		var idx []int32
		for i := range m {
			if every == 0 || rng.IntN(every) != 0 {
				idx = append(idx, int32(i))
			}
		}
		return idx
	}
	for _, nulls := range []bool{false, true} {
		cols := build(nulls)
		for _, off := range []int{0, 7} {
			for _, sel := range []struct {
				name string
				idx  func(m int) []int32
			}{
				{"all", func(m int) []int32 { return keep(m, 0) }},
				{"long runs", func(m int) []int32 { return keep(m, 60) }},
				{"short runs", func(m int) []int32 { return keep(m, 5) }},
				{"reversed blocks", func(m int) []int32 {
					var idx []int32
					for s := m - 100; s >= 0; s -= 100 {
						for i := range 100 {
							idx = append(idx, int32(s+i))
						}
					}
					return idx
				}},
			} {
				name := fmt.Sprintf("nulls=%v/off=%d/%s", nulls, off, sel.name)
				t.Run(name, func(t *testing.T) {
					idx := sel.idx(n - off)
					runs := runsOf(idx)
					if runs == nil {
						if sel.name != "short runs" {
							t.Fatalf("no runs for %d rows", len(idx))
						}
						return
					}
					for _, whole := range cols {
						a := array.NewSlice(whole, int64(off), int64(n))
						var want, got arrow.Array
						if want = takeFixed(mem, a, idx); want != nil {
							got = takeFixedRuns(mem, a, runs, idx)
						} else {
							want = takeBinary(mem, a, idx)
							got = takeBinaryRuns(mem, a, runs, idx)
						}
						if !array.Equal(want, got) {
							t.Errorf("%v: runs gather differs", a.DataType())
						}
						want.Release()
						got.Release()
						a.Release()
					}
				})
			}
		}
		for _, c := range cols {
			c.Release()
		}
	}
}
