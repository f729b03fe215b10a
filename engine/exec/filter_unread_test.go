package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRowFilterUnread: a RowFilter told some columns are unread returns
// the same rows as one that is not, the other columns equal and the
// unread ones all NULL of their type (numeric, text and boolean
// among them), through Apply and ApplyDropped.
func TestRowFilterUnread(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	rows := tableRows(t)
	unreads := map[string][]int{
		"text":                {tS},
		"text, numeric, bool": {tS, tD, tB},
		"all but id":          {tG, tS, tV, tX, tD, tB},
	}
	for _, size := range []int{300, 65} {
		batches := makeBatches(t, mem, rows, []int{size})
		for _, c := range filterCases {
			if strings.HasPrefix(c.want, "ERROR") {
				continue
			}
			for name, cols := range unreads {
				what := c.sql + "/" + name
				unread := make([]bool, tableSchema.NumFields())
				for _, j := range cols {
					unread[j] = true
				}
				plain, err := NewRowFilter(tableSchema, c.pred)
				if err != nil {
					t.Fatal(err)
				}
				ru, err := NewRowFilter(tableSchema, c.pred)
				if err != nil {
					t.Fatal(err)
				}
				ru.SetUnread(tableSchema, unread)
				for _, b := range batches {
					n := int(b.NumRows())
					drop := make([]uint64, (n+63)/64)
					for i := 0; i < n; i += 3 {
						drop[i>>6] |= 1 << (uint(i) & 63)
					}
					for _, dropped := range []bool{false, true} {
						var want, got arrow.RecordBatch
						if dropped {
							want, err = plain.ApplyDropped(ctx, b, drop)
						} else {
							want, err = plain.Apply(ctx, b)
						}
						if err != nil {
							t.Fatalf("%s: %v", what, err)
						}
						if dropped {
							got, err = ru.ApplyDropped(ctx, b, drop)
						} else {
							got, err = ru.Apply(ctx, b)
						}
						if err != nil {
							t.Fatalf("%s: %v", what, err)
						}
						if (want == nil) != (got == nil) {
							t.Fatalf("%s: kept %v, want %v", what, got, want)
						}
						if want == nil {
							continue
						}
						if got.NumRows() != want.NumRows() || !got.Schema().Equal(tableSchema) {
							t.Fatalf("%s: %d rows of %s, want %d", what, got.NumRows(), got.Schema(), want.NumRows())
						}
						for j := range tableSchema.NumFields() {
							g := got.Column(j)
							if unread[j] {
								if g.NullN() != g.Len() || !arrow.TypeEqual(g.DataType(), tableSchema.Field(j).Type) {
									t.Errorf("%s: unread column %d: %d nulls of %d, type %s", what, j, g.NullN(), g.Len(), g.DataType())
								}
							} else if !sameValues(g, want.Column(j)) {
								t.Errorf("%s: column %d differs", what, j)
							}
						}
						if got != b {
							got.Release()
						}
						if want != b {
							want.Release()
						}
					}
				}
			}
		}
		for _, b := range batches {
			b.Release()
		}
	}
}

// sameValues reports whether a and b hold the same values as text (NaN
// equal to NaN, which array.Equal does not take).
func sameValues(a, b arrow.Array) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := range a.Len() {
		if a.IsNull(i) != b.IsNull(i) || a.ValueStr(i) != b.ValueStr(i) {
			return false
		}
	}
	return true
}
