package engine

import (
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestKeySet(t *testing.T) {
	wide := []int64{-5, 1 << 40, 7, 7, -(1 << 40)}
	cases := []struct {
		name  string
		keys  []int64
		in    []int64
		out   []int64
		small bool
	}{
		{"narrow range as bits", []int64{10, 12, 12, 64, 65, 200}, []int64{10, 12, 64, 65, 200}, []int64{9, 11, 13, 63, 66, 199, 201, -1}, true},
		{"wide range sorted", wide, []int64{-5, 7, 1 << 40, -(1 << 40)}, []int64{0, 6, 8, 1<<40 - 1, 1<<40 + 1}, true},
		{"many keys", seq(0, 3000, 3), []int64{0, 3, 2997}, []int64{1, 2, 2998, 3000}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewKeySet(slices.Clone(c.keys))
			for _, v := range c.in {
				if !s.Contains(v) {
					t.Errorf("Contains(%d) = false", v)
				}
			}
			for _, v := range c.out {
				if s.Contains(v) {
					t.Errorf("Contains(%d) = true", v)
				}
			}
			if got := s.Small() != nil; got != c.small {
				t.Errorf("Small() listed: %v, want %v", got, c.small)
			}
			if small := s.Small(); small != nil && !slices.IsSorted(small) {
				t.Errorf("Small() not sorted: %v", small)
			}
		})
	}
	if NewKeySet(nil) != nil {
		t.Error("an empty build side made a key set")
	}
}

func seq(from, to, step int64) []int64 {
	var out []int64
	for v := from; v < to; v += step {
		out = append(out, v)
	}
	return out
}

// TestKeySetDropMissing: rows whose key is NULL or absent are marked, rows
// already marked are left (and not counted), other types are refused.
func TestKeySetDropMissing(t *testing.T) {
	s := NewKeySet([]int64{2, 4})
	b := array.NewInt32Builder(memory.DefaultAllocator)
	b.AppendValues([]int32{1, 2, 3, 4, 0, 4}, []bool{true, true, true, true, false, true})
	a := b.NewArray()
	defer a.Release()
	drop := []bool{false, false, false, false, false, true}
	n, ok := s.DropMissing(a, drop)
	if !ok || n != 3 {
		t.Fatalf("DropMissing = %d, %v; want 3, true", n, ok)
	}
	if want := []bool{true, false, true, false, true, true}; !slices.Equal(drop, want) {
		t.Errorf("drop = %v, want %v", drop, want)
	}
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.Append("2")
	sa := sb.NewArray()
	defer sa.Release()
	if _, ok := s.DropMissing(sa, make([]bool, 1)); ok {
		t.Error("a text array was taken")
	}
}
