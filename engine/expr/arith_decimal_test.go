package expr

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDecimalArithTypedMatchesGeneral runs + - * over Decimal128 columns
// of mixed scales through the typed kernel and the general one and wants
// the same values and the same overflow errors, with values from small
// money amounts up to 38 digits.
func TestDecimalArithTypedMatchesGeneral(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	digits := func(d int) decimal128.Num {
		v := new(big.Int)
		for k := 0; k < d; k++ {
			v.Mul(v, big.NewInt(10))
			v.Add(v, big.NewInt(int64(rng.IntN(10))))
		}
		if rng.IntN(2) == 0 {
			v.Neg(v)
		}
		return decimal128.FromBigInt(v)
	}
	build := func(t arrow.DataType, d int, n int, nulls bool) arrow.Array {
		b := array.NewDecimal128Builder(mem, t.(*arrow.Decimal128Type))
		defer b.Release()
		for i := 0; i < n; i++ {
			if nulls && i%17 == 3 {
				b.AppendNull()
				continue
			}
			b.Append(digits(1 + rng.IntN(d)))
		}
		return b.NewArray()
	}
	cases := []struct {
		ls, rs int32
		ld, rd int  // most digits of the values
		nulls  bool // every 17th row NULL
	}{
		{2, 2, 10, 10, true}, {2, 0, 12, 3, true}, {0, 4, 18, 18, true}, {2, 4, 19, 19, true}, {6, 2, 30, 12, true},
		{10, 0, 38, 38, true}, {2, 2, 10, 10, false}, {0, 18, 19, 10, false}, {2, 4, 19, 19, false},
		{0, 0, 19, 19, false}, {20, 0, 15, 15, false},
	}
	for _, c := range cases {
		lt := &arrow.Decimal128Type{Precision: 38, Scale: c.ls}
		rt := &arrow.Decimal128Type{Precision: 38, Scale: c.rs}
		l, r := build(lt, c.ld, 300, c.nulls), build(rt, c.rd, 300, c.nulls)
		for _, op := range []string{"+", "-", "*"} {
			res := arithDecimalResult(op, lt, rt).(*arrow.Decimal128Type)
			typed, ok := decimalArithTyped(op, lt, rt, res)
			if !ok {
				t.Fatalf("%s: no typed kernel for %v %v -> %v", op, lt, rt, res)
			}
			general := decimalArith(op, res)
			for _, consts := range [][2]bool{{false, false}, {true, false}, {false, true}} {
				args := []vec{{arr: l, c: consts[0]}, {arr: r, c: consts[1]}}
				ev := &evalCtx{mem: mem, n: 300}
				got, gerr := typed(ev, args)
				want, werr := general(ev, args)
				if (gerr == nil) != (werr == nil) {
					t.Errorf("%v %s %v consts %v: typed error %v, general %v", lt, op, rt, consts, gerr, werr)
				} else if gerr == nil && !array.Equal(got.arr, want.arr) {
					t.Errorf("%v %s %v consts %v: typed and general results differ", lt, op, rt, consts)
				}
				if gerr == nil {
					got.arr.Release()
				}
				if werr == nil {
					want.arr.Release()
				}
			}
		}
		l.Release()
		r.Release()
	}
}

// TestDecimalArithTypedInt64Edges runs the typed kernel over batches
// whose values all fit an int64 (its whole-batch path) but whose results
// or rescaled operands sit at the edge of one, and wants the general
// kernel's values and overflow errors: the batch path must notice every
// step that leaves 64 bits and hand the batch to the per-row path.
func TestDecimalArithTypedInt64Edges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	const maxI, minI = math.MaxInt64, math.MinInt64
	// wide adds 2^64 to the first value: its low word alone fits.
	build := func(t arrow.DataType, vs []int64, nullAt int, wide bool) arrow.Array {
		b := array.NewDecimal128Builder(mem, t.(*arrow.Decimal128Type))
		defer b.Release()
		for i, v := range vs {
			if i == nullAt {
				b.AppendNull()
				continue
			}
			d := decimal128.FromI64(v)
			if wide && i == 0 {
				d = decimal128.New(d.HighBits()+1, d.LowBits())
			}
			b.Append(d)
		}
		return b.NewArray()
	}
	cases := []struct {
		name   string
		ls, rs int32
		l, r   []int64
		nullAt int // -1: none
		wide   bool
	}{
		{"money", 2, 2, []int64{10494950, -5, 0, 99}, []int64{7, 100, -3, 0}, -1, false},
		{"sum at max", 0, 0, []int64{maxI - 1, 5}, []int64{1, 5}, -1, false},
		{"sum past max", 0, 0, []int64{maxI, 5}, []int64{1, 5}, -1, false},
		{"sum past min", 0, 0, []int64{minI, 5}, []int64{-1, 5}, -1, false},
		{"minus min", 0, 0, []int64{0, -1, 5}, []int64{minI, minI, 5}, -1, false},
		{"minus min under null", 0, 0, []int64{0, -1, 5}, []int64{minI, 7, 5}, 0, false},
		{"product past 64 bits", 0, 0, []int64{1 << 32, 3}, []int64{1 << 31, 3}, -1, false},
		{"product at 2^62", 0, 0, []int64{1 << 31, -(1 << 31)}, []int64{1 << 31, 1 << 31}, -1, false},
		{"product min", 0, 0, []int64{minI, 1, -1}, []int64{1, minI, minI}, -1, false},
		{"rescale past 64 bits", 0, 2, []int64{maxI / 10, 1}, []int64{1, 1}, -1, false},
		{"rescale at the edge", 0, 2, []int64{maxI / 100, -(maxI / 100)}, []int64{7, -7}, -1, false},
		{"rescale right", 3, 0, []int64{1, 2}, []int64{maxI / 1000, minI / 1000}, -1, false},
		{"all fit, one overflow under null", 0, 0, []int64{maxI, 1}, []int64{maxI, 1}, 0, false},
		{"a value past 64 bits", 0, 0, []int64{3, 1}, []int64{2, 1}, -1, true},
		{"a value past 64 bits under null", 0, 0, []int64{3, 1}, []int64{2, 1}, 0, true},
	}
	for _, c := range cases {
		lt := &arrow.Decimal128Type{Precision: 38, Scale: c.ls}
		rt := &arrow.Decimal128Type{Precision: 38, Scale: c.rs}
		l, r := build(lt, c.l, c.nullAt, c.wide), build(rt, c.r, c.nullAt, c.wide)
		for _, op := range []string{"+", "-", "*"} {
			res := arithDecimalResult(op, lt, rt).(*arrow.Decimal128Type)
			typed, ok := decimalArithTyped(op, lt, rt, res)
			if !ok {
				t.Fatalf("%s: no typed kernel", op)
			}
			general := decimalArith(op, res)
			for _, consts := range [][2]bool{{false, false}, {true, false}, {false, true}} {
				args := []vec{{arr: l, c: consts[0]}, {arr: r, c: consts[1]}}
				ev := &evalCtx{mem: mem, n: len(c.l)}
				got, gerr := typed(ev, args)
				want, werr := general(ev, args)
				if (gerr == nil) != (werr == nil) {
					t.Errorf("%s %s consts %v: typed error %v, general %v", c.name, op, consts, gerr, werr)
				} else if gerr == nil && !array.Equal(got.arr, want.arr) {
					t.Errorf("%s %s consts %v: typed %v, general %v", c.name, op, consts, got.arr, want.arr)
				}
				if gerr == nil {
					got.arr.Release()
				}
				if werr == nil {
					want.arr.Release()
				}
			}
		}
		l.Release()
		r.Release()
	}
}

// BenchmarkDecimalArithTyped times the typed kernel on TPC-H money
// values (Decimal128(15,2), no NULLs): a column times a column, and a
// constant minus a column (q01's l_extendedprice * (1 - l_discount)).
func BenchmarkDecimalArithTyped(b *testing.B) {
	mem := memory.DefaultAllocator
	money := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	const n = 4096
	rng := rand.New(rand.NewPCG(3, 4))
	build := func(lo, hi int64) arrow.Array {
		bl := array.NewDecimal128Builder(mem, money)
		defer bl.Release()
		for range n {
			bl.Append(decimal128.FromI64(lo + rng.Int64N(hi-lo)))
		}
		return bl.NewArray()
	}
	price, disc := build(90000, 10494950), build(0, 10)
	defer price.Release()
	defer disc.Release()
	oneB := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 1, Scale: 0})
	oneB.Append(decimal128.FromI64(1))
	one := oneB.NewArray()
	oneB.Release()
	defer one.Release()
	cases := []struct {
		name string
		op   string
		args []vec
	}{
		{"mul", "*", []vec{{arr: price}, {arr: disc}}},
		{"const_minus", "-", []vec{{arr: one, c: true}, {arr: disc}}},
	}
	for _, c := range cases {
		lt := c.args[0].arr.DataType().(*arrow.Decimal128Type)
		rt := c.args[1].arr.DataType().(*arrow.Decimal128Type)
		res := arithDecimalResult(c.op, lt, rt).(*arrow.Decimal128Type)
		k, ok := decimalArithTyped(c.op, lt, rt, res)
		if !ok {
			b.Fatalf("%s: no typed kernel", c.name)
		}
		b.Run(c.name, func(b *testing.B) {
			ev := &evalCtx{mem: mem, n: n}
			b.SetBytes(n * 16)
			for b.Loop() {
				out, err := k(ev, c.args)
				if err != nil {
					b.Fatal(err)
				}
				out.arr.Release()
			}
		})
	}
}
