package engine

import (
	"slices"
	"testing"
)

func TestKeySet(t *testing.T) {
	cases := []struct {
		name     string
		keys     []int64
		min, max int64
		small    []int64
	}{
		{"few, repeated", []int64{12, 10, 12, 65, -3}, -3, 65, []int64{-3, 10, 12, 65}},
		{"wide range", []int64{1 << 40, 7, -(1 << 40)}, -(1 << 40), 1 << 40, []int64{-(1 << 40), 7, 1 << 40}},
		{"more than 256 distinct", seq(0, 3000, 3), 0, 2997, nil},
		{"many values, few distinct", repeat([]int64{5, 9}, 3000), 5, 9, nil},
		{"256 distinct", seq(0, 256, 1), 0, 255, seq(0, 256, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewKeySet(slices.Clone(c.keys))
			if s.Min != c.min || s.Max != c.max {
				t.Errorf("bounds [%d, %d], want [%d, %d]", s.Min, s.Max, c.min, c.max)
			}
			if !slices.Equal(s.Small(), c.small) {
				t.Errorf("Small() = %v, want %v", s.Small(), c.small)
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

func repeat(vals []int64, n int) []int64 {
	var out []int64
	for range n {
		out = append(out, vals...)
	}
	return out
}
