package expr

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// poolBatch is rows rows of (x int8, y int8, s text) from seed.
func poolBatch(rows int, seed int64) arrow.RecordBatch {
	f := func(n string, t arrow.DataType) arrow.Field { return arrow.Field{Name: n, Type: t, Nullable: true} }
	schema := arrow.NewSchema([]arrow.Field{f("x", Int8), f("y", Int8), f("s", Text)}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < rows; i++ {
		if r.Intn(10) == 0 {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(r.Int63n(1000))
		}
		b.Field(1).(*array.Int64Builder).Append(r.Int63n(1000))
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprint("v", r.Intn(100000)))
	}
	return b.NewRecordBatch()
}

func renderAll(a arrow.Array) []string {
	out := make([]string, a.Len())
	for i := range out {
		out[i] = "NULL"
		if a.IsValid(i) {
			out[i] = string(AppendText(nil, a, i, nil))
		}
	}
	return out
}

// TestPoolOwnership checks the rule of pool.go: buffers released inside
// an Eval are reused by the next ones, but a result's buffers are never
// handed out again, even after the caller released it. A caller that kept
// the result's values (String.Value and Int64Values alias the buffers)
// must still read what the Eval returned while later Evals run.
func TestPoolOwnership(t *testing.T) {
	schema := poolBatch(1, 0).Schema()
	x, y, s := &Col{Idx: 0, Name: "x", T: Int8}, &Col{Idx: 1, Name: "y", T: Int8}, &Col{Idx: 2, Name: "s", T: Text}
	cases := []struct {
		name string
		e    Expr
	}{
		{"(x + y) * (x - y)", call("*", call("+", x, y), call("-", x, y))},
		{"x + 1", call("+", x, i8(1))},
		{"s || '-' || s", call("||", call("||", s, txt("-")), s)},
		{"upper(s)", call("upper", s)},
		{"x > y and s < 'v5'", call("and", call(">", x, y), call("<", s, txt("v5")))},
		{"case when x > 500 then x * 2 else y + 1 end", &Case{Whens: []When{{Cond: call(">", x, i8(500)), Then: call("*", x, i8(2))}}, Else: call("+", y, i8(1)), T: Int8}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Compile(tc.e, schema)
			if err != nil {
				t.Fatal(err)
			}
			if p.pools == nil {
				t.Fatal("no pool")
			}
			ctx := context.Background()
			type kept struct {
				want []string
				arr  arrow.Array // held: the caller keeps it
				strs []string    // aliases of a released result's text
				ints []int64     // aliases of a released result's integers
			}
			var all []kept
			for round := 0; round < 40; round++ {
				batch := poolBatch(100+round*37%300, int64(round))
				out, err := p.Eval(ctx, batch)
				batch.Release()
				if err != nil {
					t.Fatal(err)
				}
				k := kept{want: renderAll(out)}
				switch a := out.(type) {
				case *array.String:
					for i := 0; i < a.Len(); i++ {
						k.strs = append(k.strs, a.Value(i))
					}
				case *array.Int64:
					k.ints = a.Int64Values()
				}
				if round%2 == 0 {
					k.arr = out
				} else {
					out.Release()
				}
				all = append(all, k)
				for j, k := range all {
					if k.arr != nil && !slices.Equal(renderAll(k.arr), k.want) {
						t.Fatalf("round %d: the result of round %d, still held, changed", round, j)
					}
					if k.strs != nil && k.strs[0] != k.want[0] && k.want[0] != "NULL" {
						t.Fatalf("round %d: the text of round %d changed: %q, want %q", round, j, k.strs[0], k.want[0])
					}
					for i, v := range k.ints {
						if k.want[i] != "NULL" && fmt.Sprint(v) != k.want[i] {
							t.Fatalf("round %d: the integers of round %d changed at %d: %d, want %s", round, j, i, v, k.want[i])
						}
					}
				}
			}
			for _, k := range all {
				if k.arr != nil {
					k.arr.Release()
				}
			}
			// The intermediates went back to a pool: some pool holds buffers.
			bp := p.pools.Get().(*bufPool)
			defer p.pools.Put(bp)
			if len(bp.live) != 0 {
				t.Fatalf("%d buffers still marked live after the Evals", len(bp.live))
			}
		})
	}
}

// TestPoolSameResults compares pooled evaluation (default allocator) with
// unpooled evaluation (a checked allocator) over batches of varying sizes.
func TestPoolSameResults(t *testing.T) {
	schema := poolBatch(1, 0).Schema()
	x, y, s := &Col{Idx: 0, Name: "x", T: Int8}, &Col{Idx: 1, Name: "y", T: Int8}, &Col{Idx: 2, Name: "s", T: Text}
	for _, e := range []Expr{
		call("||", call("||", cast(call("*", call("+", x, y), call("-", x, i8(3))), Text), txt(":")), call("upper", s)),
		// Arrow's take builds text through the pool's Reallocate.
		&Case{Whens: []When{{Cond: call(">", x, i8(500)), Then: call("||", s, s)}}, Else: call("upper", s), T: Text},
		call("or", call("<", x, i8(100)), call("and", call(">", s, txt("v5")), call("<", call("||", s, s), txt("v7")))),
	} {
		t.Run(e.String(), func(t *testing.T) { poolSameResults(t, schema, e) })
	}
}

func poolSameResults(t *testing.T, schema *arrow.Schema, e Expr) {
	p, err := Compile(e, schema)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for round := 0; round < 30; round++ {
		batch := poolBatch(1+round*131%2000, int64(round))
		a, err := p.Eval(context.Background(), batch)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.Eval(WithAllocator(context.Background(), mem), batch)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(renderAll(a), renderAll(b)) {
			t.Fatalf("round %d: pooled and unpooled results differ", round)
		}
		a.Release()
		b.Release()
		batch.Release()
	}
}

// TestPoolTransient checks EvalTransient: its results are right, and once
// released their buffers serve the next evaluation (Eval's never do).
func TestPoolTransient(t *testing.T) {
	schema := poolBatch(1, 0).Schema()
	x, y := &Col{Idx: 0, Name: "x", T: Int8}, &Col{Idx: 1, Name: "y", T: Int8}
	p, err := Compile(call("*", call("+", x, y), call("-", x, y)), schema)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	valuesAt := func(a arrow.Array) *byte { return &a.Data().Buffers()[1].Bytes()[0] }
	// The program keeps its buffer pools in a sync.Pool, which is per P and
	// emptied by a collection; a collection can also hand a collected
	// buffer's address to a later Eval. One P and no collection keep the
	// count of distinct buffers below exact.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, transient := range []bool{true, false} {
		seen := map[*byte]bool{} // the results' value buffers
		for round := 0; round < 10; round++ {
			batch := poolBatch(500, int64(round))
			eval := p.Eval
			if transient {
				eval = p.EvalTransient
			}
			a, err := eval(context.Background(), batch)
			if err != nil {
				t.Fatal(err)
			}
			b, err := p.Eval(WithAllocator(context.Background(), mem), batch)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(renderAll(a), renderAll(b)) {
				t.Fatalf("transient %v round %d: pooled and unpooled results differ", transient, round)
			}
			seen[valuesAt(a)] = true
			a.Release()
			b.Release()
			batch.Release()
		}
		// Transient results cycle through the three buffers of one
		// evaluation; Eval's are new every time.
		if raceEnabled && transient {
			// The race detector's sync.Pool drops pools at random: the
			// results are checked above, the reuse cannot be.
			continue
		}
		if transient && len(seen) > 3 || !transient && len(seen) != 10 {
			t.Fatalf("transient %v: %d distinct result buffers over 10 evaluations", transient, len(seen))
		}
	}
}
