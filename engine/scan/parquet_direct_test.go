package scan

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/engine"
)

// TestDirectArraysMatchBuilders checks on every fixture table that the
// arrays readers build straight into their buffers hold what the builder
// path reads, nulls included: with the caller's (checked) allocator, with
// recycled buffers, with two shards, and with files split among three
// workers (SplitFiles).
func TestDirectArraysMatchBuilders(t *testing.T) {
	forEachFixture(t, func(t *testing.T, spec engine.ScanSpec) {
		built, err := scanAll(t, spec, Options{builders: true})
		if err != nil {
			t.Skipf("the scan fails (%v): covered by the fixture tests", err)
		}
		want := renderRows(built)
		releaseRecs(built)
		check := func(what string, got []string) {
			t.Helper()
			sort.Strings(got)
			if len(got) != len(want) {
				t.Fatalf("%s: direct scan returns %d rows, builders %d", what, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s: row %d (sorted) is %s, builders read %s", what, i, got[i], want[i])
				}
			}
		}
		mem := newChecked(t)
		direct, err := scanAll(t, spec, Options{Alloc: mem})
		if err != nil {
			t.Fatalf("direct scan: %v", err)
		}
		check("direct", renderRows(direct))
		releaseRecs(direct)
		mem.AssertSize(t, 0)
		for _, shards := range []int{1, 2} {
			var got []string
			for k := range shards {
				recs, err := scanAll(t, spec, Options{Shard: k, Shards: shards, RecycleBuffers: true})
				if err != nil {
					t.Fatalf("direct scan, shard %d of %d: %v", k, shards, err)
				}
				got = append(got, renderRows(recs)...)
				releaseRecs(recs)
			}
			check(fmt.Sprintf("recycled, %d shard(s)", shards), got)
		}
		split, err := scanAll(t, spec, Options{SplitFiles: true, Parallelism: 3})
		if err != nil {
			t.Fatalf("split scan: %v", err)
		}
		check("split files", renderRows(split))
		releaseRecs(split)
	})
}

// TestRecyclerReusesFreedBuffers checks the recycler's size classes: a
// freed buffer serves the next request of its class, other sizes are
// plain allocations.
func TestRecyclerReusesFreedBuffers(t *testing.T) {
	r := &recycler{}
	tests := []struct {
		size, wantCap int
	}{
		{1, 64}, {64, 64}, {65, 128}, {8192 * 16, 8192 * 16}, {100_000, 131072},
		{32<<20 + 1, 32<<20 + 1}, // beyond the largest class: exact
	}
	for _, tt := range tests {
		b := r.Allocate(tt.size)
		if len(b) != tt.size || cap(b) != tt.wantCap {
			t.Errorf("Allocate(%d): len %d cap %d, want len %d cap %d", tt.size, len(b), cap(b), tt.size, tt.wantCap)
		}
	}
	b := r.Allocate(1000)
	b[0] = 42
	r.Free(b)
	// sync.Pool may drop what it holds; a hit is what the scan relies on
	// in the common case, not a guarantee.
	if c := r.Allocate(1000); cap(c) != 1024 {
		t.Errorf("Allocate(1000) after Free: cap %d, want 1024", cap(c))
	}
	if g := r.Reallocate(2000, make([]byte, 10, 1024)); len(g) != 2000 || cap(g) != 2048 {
		t.Errorf("Reallocate(2000): len %d cap %d, want 2000, 2048", len(g), cap(g))
	}
}

// TestPresentCountAndWiden checks the two per-value loops of the direct
// path against their definitions: presentCount counts the levels equal to
// the maximum, widenDecimals sign-extends INT64 values as
// decimal128.FromI64 does, at the limits too.
func TestPresentCountAndWiden(t *testing.T) {
	counts := []struct {
		defs   []byte
		maxDef byte
	}{
		{nil, 1},
		{[]byte{1}, 1},
		{[]byte{0}, 1},
		{bytes.Repeat([]byte{1, 0, 1, 1}, 257), 1},
		{bytes.Repeat([]byte{2, 1, 0}, 1000), 2},
	}
	for _, c := range counts {
		want := 0
		for _, d := range c.defs {
			if d == c.maxDef {
				want++
			}
		}
		if got := presentCount(c.defs, c.maxDef); got != want {
			t.Errorf("presentCount(%d levels, %d) = %d, want %d", len(c.defs), c.maxDef, got, want)
		}
	}
	src := []int64{0, 1, -1, 42, -42, math.MaxInt64, math.MinInt64, 1 << 62, -(1 << 62)}
	dst := make([]decimal128.Num, len(src))
	widenDecimals(dst, src)
	for i, x := range src {
		if want := decimal128.FromI64(x); dst[i] != want {
			t.Errorf("widenDecimals(%d) = %v, want %v", x, dst[i], want)
		}
	}
}

// TestGatherChecksIndexes: gather copies dictionary values by index and
// stops at an index out of range (negative ones included), which fill
// then reports as an error.
func TestGatherChecksIndexes(t *testing.T) {
	dict := []int64{10, 20, 30}
	tests := []struct {
		idx  []int32
		want []int64 // nil: out of range
	}{
		{[]int32{}, []int64{}},
		{[]int32{0, 2, 1, 1}, []int64{10, 30, 20, 20}},
		{[]int32{0, 3}, nil},
		{[]int32{-1}, nil},
		{[]int32{1, math.MaxInt32}, nil},
	}
	for _, tt := range tests {
		dst := make([]int64, len(tt.idx))
		ok := gather(dst, dict, tt.idx)
		if ok != (tt.want != nil) {
			t.Errorf("gather(%v) reports %v", tt.idx, ok)
			continue
		}
		if ok && !slices.Equal(dst, tt.want) {
			t.Errorf("gather(%v) = %v, want %v", tt.idx, dst, tt.want)
		}
		r := &flatReader[int64]{dictVals: dict, idx: tt.idx, lazy: lazyDict}
		if err := r.fill(dst, 0); (err == nil) != ok {
			t.Errorf("fill over %v: error %v", tt.idx, err)
		}
	}
}
