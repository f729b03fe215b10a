package expr

import (
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
	build := func(t arrow.DataType, d int, n int) arrow.Array {
		b := array.NewDecimal128Builder(mem, t.(*arrow.Decimal128Type))
		defer b.Release()
		for i := 0; i < n; i++ {
			if i%17 == 3 {
				b.AppendNull()
				continue
			}
			b.Append(digits(1 + rng.IntN(d)))
		}
		return b.NewArray()
	}
	cases := []struct {
		ls, rs int32
		ld, rd int // most digits of the values
	}{
		{2, 2, 10, 10}, {2, 0, 12, 3}, {0, 4, 18, 18}, {2, 4, 19, 19}, {6, 2, 30, 12}, {10, 0, 38, 38},
	}
	for _, c := range cases {
		lt := &arrow.Decimal128Type{Precision: 38, Scale: c.ls}
		rt := &arrow.Decimal128Type{Precision: 38, Scale: c.rs}
		l, r := build(lt, c.ld, 300), build(rt, c.rd, 300)
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
