package exec

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestTakeBinary gathers texts of every length around the 32-byte block
// copy, the last values of the source buffer (no room past them), a
// sliced source and NULLs, in any order and repeated, and checks each
// value against the source's.
func TestTakeBinary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		name   string
		maxLen int
		nulls  bool
		slice  bool
		order  string // "asc", "random", "tail" (the last values, again and again)
	}{
		{"short ascending", 8, false, false, "asc"},
		{"around 32, random", 70, false, false, "random"},
		{"tail of the buffer", 40, false, false, "tail"},
		{"sliced with NULLs", 40, true, true, "random"},
		{"empty strings and NULLs", 0, true, false, "asc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(3))
			b := array.NewStringBuilder(mem)
			for i := range 500 {
				if c.nulls && r.Intn(5) == 0 {
					b.AppendNull()
					continue
				}
				l := 0
				if c.maxLen > 0 {
					l = (i*7 + r.Intn(3)) % (c.maxLen + 1)
				}
				b.Append(strings.Repeat(string(rune('a'+i%26)), l))
			}
			src := b.NewStringArray()
			b.Release()
			defer src.Release()
			var a arrow.Array = src
			if c.slice {
				a = array.NewSlice(src, 37, 400)
				defer a.Release()
			}
			n := a.Len()
			var idx []int32
			for i := range 3 * n {
				switch c.order {
				case "asc":
					idx = append(idx, int32(i/3))
				case "random":
					idx = append(idx, int32(r.Intn(n)))
				case "tail":
					idx = append(idx, int32(n-1-i%3))
				}
			}
			got := takeBinary(mem, a, idx)
			defer got.Release()
			s, g := a.(*array.String), got.(*array.String)
			if g.Len() != len(idx) {
				t.Fatalf("%d rows, want %d", g.Len(), len(idx))
			}
			for i, x := range idx {
				if s.IsNull(int(x)) != g.IsNull(i) || s.Value(int(x)) != g.Value(i) {
					t.Fatalf("row %d (source %d): %q (null %v), want %q (null %v)",
						i, x, g.Value(i), g.IsNull(i), s.Value(int(x)), s.IsNull(int(x)))
				}
			}
		})
	}
}
