package exec

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRowFilterApplyDropped checks that the rows ApplyDropped keeps are
// those PostgreSQL keeps (filterCases) but for the rows whose drop bit is
// set, and the same as ApplySkip given the bits as flags, over batches
// whose length is and is not a multiple of 64.
func TestRowFilterApplyDropped(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	rows := tableRows(t)
	patterns := map[string]func(i int) bool{
		"none":      func(int) bool { return false },
		"all":       func(int) bool { return true },
		"every 3rd": func(i int) bool { return i%3 == 0 },
		"first 64":  func(i int) bool { return i < 64 },
		"not 63":    func(i int) bool { return i%64 != 63 },
	}
	for _, size := range []int{300, 64, 65} {
		batches := makeBatches(t, mem, rows, []int{size})
		for _, c := range filterCases {
			if strings.HasPrefix(c.want, "ERROR") {
				continue
			}
			want := map[string]bool{}
			for _, id := range strings.Split(c.want, ",") {
				want[id] = true
			}
			for name, skipOf := range patterns {
				what := c.sql + "/" + name + "/" + strconv.Itoa(size)
				rf, err := NewRowFilter(tableSchema, c.pred)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				var got, gotSkip, exp []string
				row := 0
				for _, b := range batches {
					n := int(b.NumRows())
					skip := make([]bool, n)
					// bits past the batch's rows clear: they must not count
					drop := make([]uint64, (n+63)/64)
					ids := b.Column(tID).(*array.Int32)
					for i := range n {
						skip[i] = skipOf(row + i)
						if skip[i] {
							drop[i>>6] |= 1 << (uint(i) & 63)
						} else {
							if ids.IsValid(i) && want[strconv.Itoa(int(ids.Value(i)))] {
								exp = append(exp, strconv.Itoa(int(ids.Value(i))))
							}
						}
					}
					row += n
					kept, err := rf.ApplyDropped(ctx, b, drop)
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					got = appendIDs(got, kept, b)
					kept, err = rf.ApplySkip(ctx, b, skip)
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					gotSkip = appendIDs(gotSkip, kept, b)
				}
				if !slices.Equal(got, exp) || !slices.Equal(gotSkip, exp) {
					t.Errorf("%s: ApplyDropped kept %v, ApplySkip %v, want %v", what, got, gotSkip, exp)
				}
			}
		}
		for _, b := range batches {
			b.Release()
		}
	}
}

// appendIDs appends the ids of kept (a batch from a filter of b) and
// releases it unless it is b.
func appendIDs(dst []string, kept, b arrow.RecordBatch) []string {
	if kept == nil {
		return dst
	}
	ids := kept.Column(tID).(*array.Int32)
	for i := range ids.Len() {
		if ids.IsValid(i) {
			dst = append(dst, strconv.Itoa(int(ids.Value(i))))
		}
	}
	if kept != b {
		kept.Release()
	}
	return dst
}
