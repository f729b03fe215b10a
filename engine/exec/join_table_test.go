package exec

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// TestIntTableLayouts checks both layouts of intTable, the hashed one
// with and without its bitmap of keys present, against a map: the
// first row of every key (the last inserted, as buildInts inserts from the
// end), the chain of earlier rows, and misses on both sides of the range.
func TestIntTableLayouts(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cases := []struct {
		name   string
		direct bool
		keys   func(i int) int64
		rows   int
		bitmap bool // the hashed layout keeps a bitmap of the keys
	}{
		{"dense", true, func(i int) int64 { return int64(i) + 1 }, 1000, false},
		{"dense duplicates", true, func(i int) int64 { return int64(i / 4) }, 1000, false},
		{"sparse within four times the slots", true, func(i int) int64 { return int64(i) * 7 }, 1000, false},
		{"negative", true, func(i int) int64 { return int64(i) - 500 }, 1000, false},
		{"wide", false, func(i int) int64 { return int64(i) * 1_000_003 }, 1000, false},
		{"random", false, func(int) int64 { return rng.Int63() }, 1000, false},
		{"one key", true, func(int) int64 { return -7 }, 10, false},
		{"across the signed limit", true, func(i int) int64 { return int64(uint64(1<<63) - 50 + uint64(i)) }, 100, false},
		{"extremes", false, func(i int) int64 { return []int64{-1 << 63, 1<<63 - 1, 0}[i%3] }, 9, false},
		{"many sparse keys", false, func(i int) int64 { return int64(i)*37 + int64(i%5) }, 20000, true},
		{"many sparse negative keys with duplicates", false, func(i int) int64 { return -int64(i/2)*61 - 3 }, 40000, true},
		{"many sparse keys across the signed limit", false, func(i int) int64 { return int64(uint64(1<<63) - 600000 + uint64(i)*53) }, 20000, true},
		{"many random keys", false, func(int) int64 { return rng.Int63() }, 20000, false},
		{"few keys sparse over a short range", false, func(i int) int64 { return int64(i)*911 + 5 }, 219, true},
		{"few keys sparse over a short negative range", false, func(i int) int64 { return -int64(i/2)*997 - 1 }, 300, true},
		{"few keys sparse over a long range", false, func(i int) int64 { return int64(i) * 1_000_003 }, 219, false},
		{"some keys sparse over a range of 256 KiB of bits", false, func(i int) int64 { return int64(i) * 913 }, 2190, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vals := make([]uint64, c.rows)
			for i := range vals {
				vals[i] = uint64(c.keys(i))
			}
			lo, span, empty := keyRange(vals, false, nil, 0)
			tab := newIntTable(len(vals), lo, span, empty)
			if got := tab.direct != nil; got != c.direct {
				t.Fatalf("direct layout = %v, want %v", got, c.direct)
			}
			if got := tab.present != nil; got != c.bitmap {
				t.Fatalf("bitmap = %v, want %v", got, c.bitmap)
			}
			next := make([]int32, len(vals))
			first := map[uint64]int32{}
			for r := len(vals) - 1; r >= 0; r-- {
				next[r] = tab.insert(vals[r], int32(r))
				first[vals[r]] = int32(r)
			}
			probes := append([]uint64{lo - 1, lo + span + 1, lo, lo + span, 0, ^uint64(0), 1 << 63, 1<<63 - 1}, vals...)
			for range 100 + c.rows {
				probes = append(probes, lo+rng.Uint64()%(span+3)-1)
			}
			heads := make([]int32, len(probes))
			tab.lookupAll(probes, heads)
			for i, k := range probes {
				want, ok := first[k]
				if !ok {
					want = -1
				}
				if heads[i] != want || tab.lookup(k) != want {
					t.Fatalf("key %d: lookupAll %d, lookup %d, want %d", int64(k), heads[i], tab.lookup(k), want)
				}
				for r := want; r >= 0; r = next[r] {
					if vals[r] != k {
						t.Fatalf("key %d: chain holds row %d of key %d", int64(k), r, int64(vals[r]))
					}
				}
			}
		})
	}
}

// TestJoinPackedKeys joins two-key inputs (int8 and int4 keys) of several
// value distributions, inner and left, against a nested-loop reference:
// narrow ranges (packed, direct), one wide key (packed, hashed), keys
// too wide to pack together (the byte encoding), NULLs, probe values
// outside the build side's ranges, and null-safe keys (never packed).
func TestJoinPackedKeys(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	rng := rand.New(rand.NewSource(2))
	type row struct {
		a     int64
		b     int32
		aNull bool
	}
	gen := func(n int, a func() int64, b func() int32, nulls bool) []row {
		rows := make([]row, n)
		for i := range rows {
			rows[i] = row{a: a(), b: b(), aNull: nulls && rng.Intn(10) == 0}
		}
		return rows
	}
	small := func(lo, n int64) func() int64 { return func() int64 { return lo + rng.Int63n(n) } }
	small32 := func(lo, n int32) func() int32 { return func() int32 { return lo + rng.Int31n(n) } }
	wide := func() int64 { return rng.Int63() - 1<<62 }
	cases := []struct {
		name        string
		left, right []row
		nullSafe    bool
		packed      bool
	}{
		{"narrow", gen(3000, small(1, 300), small32(1, 200), false), gen(500, small(1, 50), small32(1, 30), false), false, true},
		{"negative", gen(3000, small(-300, 600), small32(-200, 400), false), gen(500, small(-25, 50), small32(-15, 30), false), false, true},
		{"nulls", gen(3000, small(-100, 300), small32(1, 200), true), gen(500, small(1, 50), small32(1, 30), true), false, true},
		{"one wide key", gen(3000, small(-1<<40, 50), small32(1, 40), false), gen(500, small(-1<<40, 50), small32(1, 30), false), false, true},
		{"too wide", gen(2000, wide, small32(1, 4), false), append(gen(500, wide, small32(1, 4), false), gen(2000, wide, small32(1, 4), false)[:500]...), false, false},
		{"null-safe", gen(3000, small(1, 60), small32(1, 40), true), gen(500, small(1, 50), small32(1, 30), true), true, false},
	}
	// The "too wide" right side repeats nothing of the left; give it some
	// of the left's keys so the join has matches.
	copy(cases[4].right[500:], cases[4].left[:500])
	schema := func(p string) *arrow.Schema {
		return arrow.NewSchema([]arrow.Field{{Name: p + "a", Type: expr.Int8, Nullable: true}, {Name: p + "b", Type: expr.Int4, Nullable: true}}, nil)
	}
	batches := func(s *arrow.Schema, rows []row) []arrow.RecordBatch {
		var out []arrow.RecordBatch
		for pos := 0; pos < len(rows); pos += 700 {
			rb := array.NewRecordBuilder(mem, s)
			for _, r := range rows[pos:min(pos+700, len(rows))] {
				if r.aNull {
					rb.Field(0).AppendNull()
				} else {
					rb.Field(0).(*array.Int64Builder).Append(r.a)
				}
				rb.Field(1).(*array.Int32Builder).Append(r.b)
			}
			out = append(out, rb.NewRecordBatch())
			rb.Release()
		}
		return out
	}
	text := func(r row) string {
		if r.aNull {
			return fmt.Sprintf("NULL|%d", r.b)
		}
		return fmt.Sprintf("%d|%d", r.a, r.b)
	}
	for _, c := range cases {
		for _, jt := range []JoinType{JoinInner, JoinLeft} {
			t.Run(fmt.Sprintf("%s/%v", c.name, jt), func(t *testing.T) {
				var want []string
				for _, l := range c.left {
					found := false
					for _, r := range c.right {
						eqA := l.aNull == r.aNull && (l.aNull || l.a == r.a)
						if !c.nullSafe && (l.aNull || r.aNull) {
							eqA = false
						}
						if eqA && l.b == r.b {
							want = append(want, text(l)+"|"+text(r))
							found = true
						}
					}
					if !found && jt == JoinLeft {
						want = append(want, text(l)+"|NULL|NULL")
					}
				}
				sort.Strings(want)
				ls, rs := schema("l"), schema("r")
				keys := []expr.Expr{&expr.Col{Idx: 0, Name: "a", T: expr.Int8}, &expr.Col{Idx: 1, Name: "b", T: expr.Int4}}
				spec := JoinSpec{Type: jt, LeftKeys: keys, RightKeys: keys}
				if c.nullSafe {
					spec.NullSafe = []bool{true, false}
				}
				op, err := NewHashJoin(NewBatches(ls, batches(ls, c.left)), NewBatches(rs, batches(rs, c.right)), spec)
				if err != nil {
					t.Fatal(err)
				}
				if err := op.Open(ctx); err != nil {
					t.Fatal(err)
				}
				packed := op.(*joinOp).build.packs != nil
				var got []string
				for {
					b, err := op.Next()
					if err != nil {
						t.Fatal(err)
					}
					if b == nil {
						break
					}
					for i := 0; i < int(b.NumRows()); i++ {
						cells := make([]string, b.NumCols())
						for j := range cells {
							cells[j] = cell(b.Column(j), i)
						}
						got = append(got, strings.Join(cells, "|"))
					}
				}
				if err := op.Close(); err != nil {
					t.Fatal(err)
				}
				if packed != c.packed {
					t.Errorf("packed = %v, want %v", packed, c.packed)
				}
				if len(want) == 0 {
					t.Fatal("the case has no rows to check")
				}
				if g, w := strings.Join(sortedCopy(got), "\n"), strings.Join(want, "\n"); g != w {
					t.Errorf("got %d rows, want %d; first difference near:\n%s", len(got), len(want), firstDiff(sortedCopy(got), want))
				}
			})
		}
	}
}

func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return "got " + got[i] + ", want " + want[i]
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(got), len(want))
}
