package exec

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// stringBatch is a text array of n values of width bytes, the i-th made
// of the letter 'a'+(first+i)%26, and a delimiter array of ",".
func stringBatch(first, n, width int) (arrow.Array, arrow.Array) {
	vb := array.NewStringBuilder(memory.DefaultAllocator)
	db := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range n {
		vb.Append(strings.Repeat(string(rune('a'+(first+i)%26)), width))
		db.Append(",")
	}
	return vb.NewArray(), db.NewArray()
}

// TestStringAggGrowsWithoutCopies aggregates 64 MiB of text into one group
// and into three, and checks the answers and what growing the values
// allocated. A value that grows by reallocation leaves every smaller copy
// behind as garbage; before the collector reclaims it, the process holds
// several times the value, while statement_mem charges only the last copy.
// Long values grow by chunks instead, joined once for the result.
func TestStringAggGrowsWithoutCopies(t *testing.T) {
	const width, batch, batches = 1023, 1024, 64 // 64 MiB with the delimiters
	vals := make([]arrow.Array, batches)
	delims := make([]arrow.Array, batches)
	for b := range batches {
		vals[b], delims[b] = stringBatch(b*batch, batch, width)
	}
	for _, groups := range []int{1, 3} {
		t.Run(fmt.Sprintf("groups=%d", groups), func(t *testing.T) {
			g := make([]int32, batch)
			for i := range g {
				g[i] = int32(i % groups)
			}
			s := &stringAggState{}
			s.grow(groups)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for b := range batches {
				if err := s.updateExtra(g, vals[b], []arrow.Array{delims[b]}); err != nil {
					t.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			const total = batches * batch * (width + 1)
			grew := after.TotalAlloc - before.TotalAlloc
			if grew > total+total/4 {
				t.Errorf("growing %d MiB of string_agg values allocated %d MiB; want at most 1.25 times the values", total>>20, grew>>20)
			}
			if held := s.held(); held < total-int64(groups) || held > total+total/4 {
				t.Errorf("held %d bytes for %d bytes of values", held, total)
			}

			res, err := s.result(memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Release()
			got := res.(*array.String)
			if got.Len() != groups {
				t.Fatalf("%d results for %d groups", got.Len(), groups)
			}
			for k := range groups {
				var want bytes.Buffer
				for b := range batches {
					for i := k; i < batch; i += groups {
						if want.Len() > 0 {
							want.WriteByte(',')
						}
						want.WriteString(vals[b].(*array.String).Value(i))
					}
				}
				if got.Value(k) != want.String() {
					t.Errorf("group %d: %d bytes, want %d bytes equal to the values joined", k, len(got.Value(k)), want.Len())
				}
			}
		})
	}
}

// TestStringAggShortValues checks NULL groups, NULL values and delimiters,
// and empty values, which keep no chunks.
func TestStringAggShortValues(t *testing.T) {
	vb := array.NewStringBuilder(memory.DefaultAllocator)
	vb.AppendValues([]string{"a", "", "b", "c", "d"}, []bool{true, true, true, false, true})
	db := array.NewStringBuilder(memory.DefaultAllocator)
	db.AppendValues([]string{"-", "+", "*", "/", ""}, []bool{true, true, false, true, true})
	vals, delims := vb.NewArray(), db.NewArray()
	s := &stringAggState{}
	s.grow(4)
	// Group 3 gets no rows; group 2 only a NULL value.
	if err := s.updateExtra([]int32{0, 0, 0, 2, 1}, vals, []arrow.Array{delims}); err != nil {
		t.Fatal(err)
	}
	res, err := s.result(memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	got := res.(*array.String)
	want := []struct {
		v    string
		null bool
	}{{"a+b", false}, {"d", false}, {"", true}, {"", true}}
	for k, w := range want {
		if got.IsNull(k) != w.null || (!w.null && got.Value(k) != w.v) {
			t.Errorf("group %d: %q null=%v; want %q null=%v", k, got.Value(k), got.IsNull(k), w.v, w.null)
		}
	}
}
