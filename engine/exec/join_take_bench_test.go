package exec

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkTakeBinary gathers texts as a join emits its build side's:
// 120k rows of a 60k-row side in ascending runs (q10's customer columns
// by lineitem), values of 8 to 24 bytes (names, phones) or 30 to 120
// (addresses, comments).
func BenchmarkTakeBinary(b *testing.B) {
	for _, c := range []struct {
		name   string
		lo, hi int
	}{{"short", 8, 24}, {"long", 30, 120}} {
		r := rand.New(rand.NewSource(1))
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		buf := make([]byte, c.hi)
		for range 60_000 {
			l := c.lo + r.Intn(c.hi-c.lo+1)
			for i := range buf[:l] {
				buf[i] = byte('a' + r.Intn(26))
			}
			sb.Append(string(buf[:l]))
		}
		src := sb.NewArray()
		sb.Release()
		idx := make([]int32, 0, 120_000)
		for x := int32(0); len(idx) < cap(idx); x = (x + int32(r.Intn(3))) % 60_000 {
			idx = append(idx, x)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				takeBinary(memory.DefaultAllocator, src, idx).Release()
			}
		})
		src.Release()
	}
}
