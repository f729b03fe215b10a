package exec

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// referenceGroups numbers keys as the map of encoded keys did before the
// specialised tables: the ids every groupTable must give.
type referenceGroups struct{ ids map[string]int32 }

func (r *referenceGroups) assign(t *testing.T, keys []arrow.Array, n int) (gids, newRows []int32) {
	var ws []keyWriter
	for _, k := range keys {
		w, err := newKeyWriter(k)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	gids = make([]int32, n)
	for i := range n {
		var buf []byte
		for _, w := range ws {
			buf = w(buf, i)
		}
		id, ok := r.ids[string(buf)]
		if !ok {
			id = int32(len(r.ids))
			r.ids[string(buf)] = id
			newRows = append(newRows, int32(i))
		}
		gids[i] = id
	}
	return gids, newRows
}

// groupCase makes batch b of a key shape: nulls in 1 of 8 rows where
// nullable, values drawn from a small domain so keys repeat within and
// across batches.
type groupCase struct {
	name  string
	table string           // the groupTable type newGroupTable must pick
	types []arrow.DataType // the key types; nil: those of the first batch
	make  func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array
}

func intColumn(mem memory.Allocator, r *rand.Rand, n, domain int) arrow.Array {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	for range n {
		if r.Intn(8) == 0 {
			b.AppendNull()
			continue
		}
		b.Append(int64(r.Intn(domain)) - int64(domain/2))
	}
	return b.NewArray()
}

func textColumn(mem memory.Allocator, r *rand.Rand, n, domain int) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for range n {
		switch x := r.Intn(domain + 2); {
		case x == 0:
			b.AppendNull()
		case x == 1:
			b.Append("") // not NULL
		default:
			b.Append(fmt.Sprintf("v%d", x))
		}
	}
	return b.NewArray()
}

// flagColumn makes texts of up to long letters of letters (NULL in 1
// of 10 rows, empty in 1 of 20).
func flagColumn(mem memory.Allocator, r *rand.Rand, n int, letters string, long int) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for range n {
		switch r.Intn(20) {
		case 0, 1:
			b.AppendNull()
		case 2:
			b.Append("")
		default:
			l := 1 + r.Intn(long)
			s := make([]byte, l)
			for i := range s {
				s[i] = letters[r.Intn(len(letters))]
			}
			b.Append(string(s))
		}
	}
	return b.NewArray()
}

// byteFlagColumn is n one-byte texts drawn from letters, no NULL: the
// middle of a longer array, so its offsets do not start at 0.
func byteFlagColumn(mem memory.Allocator, r *rand.Rand, n int, letters string) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Append("xyz")
	for range n + 1 {
		b.Append(string(letters[r.Intn(len(letters))]))
	}
	a := b.NewArray()
	defer a.Release()
	return array.NewSlice(a, 1, int64(n+1))
}

var groupCases = []groupCase{
	{"int64", "*exec.intGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		return []arrow.Array{intColumn(mem, r, n, 5000)}
	}},
	{"int32 no nulls", "*exec.intGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		b := array.NewInt32Builder(mem)
		defer b.Release()
		for range n {
			b.Append(int32(r.Intn(3000)) * 1024) // keys sharing low bits
		}
		return []arrow.Array{b.NewArray()}
	}},
	{"sorted int64", "*exec.intGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		k := r.Int63n(100)
		for range n {
			if r.Intn(4) == 0 {
				k += r.Int63n(3)
			}
			b.Append(k)
		}
		return []arrow.Array{b.NewArray()}
	}},
	{"float8", "*exec.intGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		vals := []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN(), 1.5, math.Inf(1), math.Inf(-1), -2}
		for range n {
			if r.Intn(9) == 0 {
				b.AppendNull()
				continue
			}
			b.Append(vals[r.Intn(len(vals))])
		}
		return []arrow.Array{b.NewArray()}
	}},
	{"date", "*exec.intGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		b := array.NewDate32Builder(mem)
		defer b.Release()
		for range n {
			b.Append(arrow.Date32(r.Intn(400)))
		}
		return []arrow.Array{b.NewArray()}
	}},
	{"decimal(15,2)", "*exec.intGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 15, Scale: 2})
		defer b.Release()
		for range n {
			if r.Intn(8) == 0 {
				b.AppendNull()
				continue
			}
			b.Append(decimal128.FromI64(int64(r.Intn(2000) - 1000)))
		}
		return []arrow.Array{b.NewArray()}
	}},
	{"decimal(38,2)", "*exec.encodedGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: 2})
		defer b.Release()
		for range n {
			b.Append(decimal128.New(int64(r.Intn(3)), uint64(r.Intn(100))))
		}
		return []arrow.Array{b.NewArray()}
	}},
	{"text", "*exec.textGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		return []arrow.Array{textColumn(mem, r, n, 3000)}
	}},
	{"numeric", "*exec.encodedGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		b := expr.NewNumericBuilder(mem)
		defer b.Release()
		for range n {
			if r.Intn(2) == 0 {
				b.Append(decimal128.FromI64(int64(r.Intn(20))*10), 1) // 1.0 = 1.00
			} else {
				b.Append(decimal128.FromI64(int64(r.Intn(20))*100), 2)
			}
		}
		return []arrow.Array{b.NewArray()}
	}},
	{"text, int", "*exec.packedGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		return []arrow.Array{textColumn(mem, r, n, 40), intColumn(mem, r, n, 50)}
	}},
	// Packed keys: two one-letter flags, then texts longer than the first
	// batch's (up to 7 bytes fit, longer ones go to the encoded keys),
	// integers outside the first batch's range, keys that never fit.
	{"two flags", "*exec.packedGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		return []arrow.Array{flagColumn(mem, r, n, "ANR", 1), flagColumn(mem, r, n, "FO", 1)}
	}},
	{"flags, then longer texts", "*exec.packedGroups", nil, func() func(memory.Allocator, *rand.Rand, int) []arrow.Array {
		batch := 0
		return func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
			batch++
			long := 1
			if batch > 2 {
				long = 1 + r.Intn(12)
			}
			return []arrow.Array{flagColumn(mem, r, n, "ANR", long), flagColumn(mem, r, n, "FO", 1)}
		}
	}()},
	{"text, int out of range later", "*exec.packedGroups", nil, func() func(memory.Allocator, *rand.Rand, int) []arrow.Array {
		batch := 0
		return func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
			batch++
			domain := 20
			if batch > 3 {
				domain = 1 << 40
			}
			if batch > 6 {
				domain = 300
			}
			return []arrow.Array{intColumn(mem, r, n, domain), flagColumn(mem, r, n, "xyz", 2)}
		}
	}()},
	// Two one-byte flags numbered by their bytes, between batches that
	// hold NULLs, empty or longer texts, so that both ways number keys.
	{"one-byte flags, some batches not", "*exec.packedGroups", nil, func() func(memory.Allocator, *rand.Rand, int) []arrow.Array {
		batch := 0
		return func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
			batch++
			switch batch % 4 {
			case 2:
				return []arrow.Array{flagColumn(mem, r, n, "ANR", 2), flagColumn(mem, r, n, "FO", 1)}
			case 3:
				return []arrow.Array{byteFlagColumn(mem, r, n, "ANR"), flagColumn(mem, r, n, "FOX", 1)}
			}
			return []arrow.Array{byteFlagColumn(mem, r, n, "ANRB"), byteFlagColumn(mem, r, n, "FOP")}
		}
	}()},
	{"long texts", "*exec.packedGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		return []arrow.Array{flagColumn(mem, r, n, "abc", 20), flagColumn(mem, r, n, "de", 20)}
	}},
	{"text, first untyped NULL", "*exec.packedGroups", []arrow.DataType{expr.Text, expr.Int8}, func() func(memory.Allocator, *rand.Rand, int) []arrow.Array {
		batch := 0
		return func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
			batch++
			if batch == 1 || r.Intn(4) == 0 {
				return []arrow.Array{array.NewNull(n), intColumn(mem, r, n, 10)}
			}
			return []arrow.Array{flagColumn(mem, r, n, "pq", 3), intColumn(mem, r, n, 10)}
		}
	}()},
	{"int, date, float", "*exec.columnGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		db := array.NewDate32Builder(mem)
		defer db.Release()
		fb := array.NewFloat64Builder(mem)
		defer fb.Release()
		for range n {
			db.Append(arrow.Date32(r.Intn(20)))
			if r.Intn(10) == 0 {
				fb.AppendNull()
			} else {
				fb.Append([]float64{0, math.Copysign(0, -1), 2.5}[r.Intn(3)])
			}
		}
		return []arrow.Array{intColumn(mem, r, n, 30), db.NewArray(), fb.NewArray()}
	}},
	{"null", "*exec.encodedGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		return []arrow.Array{array.NewNull(n)}
	}},
	{"text, sometimes untyped NULL", "*exec.textGroups", []arrow.DataType{expr.Text}, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		if r.Intn(3) == 0 {
			return []arrow.Array{array.NewNull(n)}
		}
		return []arrow.Array{textColumn(mem, r, n, 50)}
	}},
	// The direct layout of intGroups: growing up and down, and turning
	// into open addressing within a batch.
	{"int, wide domain", "*exec.intGroups", nil, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		return []arrow.Array{intColumn(mem, r, n, 1<<22)}
	}},
	{"int, ascending runs and descending jumps", "*exec.intGroups", nil, func() func(memory.Allocator, *rand.Rand, int) []arrow.Array {
		next := int64(1 << 40)
		return func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
			b := array.NewInt64Builder(mem)
			defer b.Release()
			for range n {
				switch x := r.Intn(100); {
				case x == 0:
					b.AppendNull()
				case x < 3:
					next -= int64(r.Intn(20000)) // below the range so far
					b.Append(next)
				default:
					next += int64(r.Intn(3))
					b.Append(next)
				}
			}
			return []arrow.Array{b.NewArray()}
		}
	}()},
	{"int, dense then sparse", "*exec.intGroups", nil, func() func(memory.Allocator, *rand.Rand, int) []arrow.Array {
		batch := 0
		return func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
			batch++
			b := array.NewInt64Builder(mem)
			defer b.Release()
			for i := range n {
				switch {
				case batch > 4 && i > n/2 && r.Intn(4) == 0:
					b.Append(r.Int63() - 1<<62)
				default:
					b.Append(int64(r.Intn(5000)) - 2500)
				}
			}
			return []arrow.Array{b.NewArray()}
		}
	}()},
	{"int, sometimes untyped NULL", "*exec.intGroups", []arrow.DataType{expr.Int8}, func(mem memory.Allocator, r *rand.Rand, n int) []arrow.Array {
		if r.Intn(3) == 0 {
			return []arrow.Array{array.NewNull(n)}
		}
		return []arrow.Array{intColumn(mem, r, n, 50)}
	}},
}

func TestGroupTables(t *testing.T) {
	for _, hint := range []int{0, 100, 1 << 16} {
		t.Run(fmt.Sprintf("reserve %d", hint), func(t *testing.T) { testGroupTables(t, hint) })
	}
}

// testGroupTables checks every shape, with room reserved for hint keys
// (fewer than the cases make, or more) when the table takes a reserve.
func testGroupTables(t *testing.T, hint int) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, c := range groupCases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(7))
			ref := &referenceGroups{ids: map[string]int32{}}
			var table groupTable
			for batch := range 12 {
				n := 1 + r.Intn(3000)
				keys := c.make(mem, r, n)
				if table == nil {
					types := c.types
					if types == nil {
						for _, k := range keys {
							types = append(types, k.DataType())
						}
					}
					table = newGroupTable(types)
					if got := fmt.Sprintf("%T", table); got != c.table {
						t.Fatalf("table %s, want %s", got, c.table)
					}
					if r, ok := table.(reserver); ok && hint > 0 {
						r.reserve(hint)
					}
				}
				gids := make([]int32, n)
				newRows, err := table.assign(keys, gids, nil)
				want, wantNew := ref.assign(t, keys, n)
				releaseAll(keys)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(newRows) != fmt.Sprint(wantNew) {
					t.Fatalf("batch %d: new rows %v, want %v", batch, newRows, wantNew)
				}
				for i := range gids {
					if gids[i] != want[i] {
						t.Fatalf("batch %d row %d: group %d, want %d", batch, i, gids[i], want[i])
					}
				}
			}
			if table.size() <= 0 {
				t.Errorf("size %d", table.size())
			}
		})
	}
}

func TestDistinctSet(t *testing.T) {
	cases := []struct {
		name string
		make func(mem memory.Allocator, r *rand.Rand, n int) arrow.Array
	}{
		{"text", func(mem memory.Allocator, r *rand.Rand, n int) arrow.Array { return textColumn(mem, r, n, 200) }},
		// Negative integers and NULLs (intColumn), in the 64-bit keys.
		{"int", func(mem memory.Allocator, r *rand.Rand, n int) arrow.Array { return intColumn(mem, r, n, 300) }},
		// Values that fit 32 bits mixed with ones that do not, kept apart.
		{"int, some wide", func(mem memory.Allocator, r *rand.Rand, n int) arrow.Array {
			b := array.NewInt64Builder(mem)
			defer b.Release()
			for range n {
				switch r.Intn(10) {
				case 0:
					b.AppendNull()
				case 1, 2:
					b.Append(int64(r.Intn(20))<<33 - 1<<36)
				default:
					b.Append(int64(r.Intn(100)) - 50)
				}
			}
			return b.NewArray()
		}},
		{"date", func(mem memory.Allocator, r *rand.Rand, n int) arrow.Array {
			b := array.NewDate32Builder(mem)
			defer b.Release()
			for range n {
				b.Append(arrow.Date32(r.Intn(150) - 20))
			}
			return b.NewArray()
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			r := rand.New(rand.NewSource(3))
			d := newDistinctSet()
			seen := map[[2]any]bool{}
			for batch := range 6 {
				n := 1 + r.Intn(2000)
				arg := c.make(mem, r, n)
				rows := make([]int32, n)
				for i := range rows {
					rows[i] = int32(r.Intn(5)) - 1 // -1: a row filtered out
				}
				in := append([]int32(nil), rows...)
				if err := d.filter(arg, rows); err != nil {
					t.Fatal(err)
				}
				for i, g := range in {
					var v any = arg.ValueStr(i)
					if arg.IsNull(i) {
						v = nil
					}
					want := g
					if g >= 0 && seen[[2]any{g, v}] {
						want = -1
					}
					if g >= 0 {
						seen[[2]any{g, v}] = true
					}
					if rows[i] != want {
						t.Fatalf("batch %d row %d (group %d, %v): %d, want %d", batch, i, g, v, rows[i], want)
					}
				}
				arg.Release()
			}
		})
	}
}

// TestGroupTablesMemoryLimit checks that each table's memory counts
// against the statement's limit: 50k groups (or DISTINCT values) need
// more than 512 kB, and fit in 1 GB; Close gives everything back.
func TestGroupTablesMemoryLimit(t *testing.T) {
	batches := groupBenchBatches(200_000, 50_000, false)
	defer releaseRecords(batches)
	cases := []struct {
		name string
		keys []expr.Expr
		aggs []AggCall
	}{
		{"int key", []expr.Expr{groupBenchCol(0)}, []AggCall{{Fn: "count"}}},
		{"text key", []expr.Expr{&expr.Cast{Arg: groupBenchCol(0), T: expr.Text}}, []AggCall{{Fn: "count"}}},
		{"two keys", []expr.Expr{groupBenchCol(2), groupBenchCol(0)}, []AggCall{{Fn: "count"}}},
		{"two int keys", []expr.Expr{groupBenchCol(1), groupBenchCol(0)}, []AggCall{{Fn: "count"}}},
		{"distinct", []expr.Expr{groupBenchCol(3)}, []AggCall{{Fn: "count", Arg: groupBenchCol(0), Distinct: true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, tc := range []struct {
				limit int64
				fail  bool
			}{{512 << 10, true}, {1 << 30, false}} {
				for _, b := range batches {
					b.Retain()
				}
				op, err := NewHashAggregate(NewBatches(groupBenchSchema, append([]arrow.RecordBatch(nil), batches...)), c.keys, c.aggs)
				if err != nil {
					t.Fatal(err)
				}
				lim := NewMemoryLimit(tc.limit, "statement_mem")
				got, err := drain(WithMemoryLimit(context.Background(), lim), t, op)
				if tc.fail {
					if sqlstate(err) != pgerr.OutOfMemory {
						t.Fatalf("limit %d: got %d rows, err %v; want 53200", tc.limit, len(got), err)
					}
				} else if err != nil || len(got) == 0 {
					t.Fatalf("limit %d: %d rows, err %v", tc.limit, len(got), err)
				}
				if u := lim.Used(); u != 0 {
					t.Fatalf("limit %d: %d bytes still accounted after Close", tc.limit, u)
				}
			}
		})
	}
}
