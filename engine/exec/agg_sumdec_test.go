package exec

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestSumDecimalGroups feeds sum's state sliced Decimal128 batches with
// NULLs, skipped rows (group -1) and values near 64 bits, for a narrow
// type (the unchecked path) and a 38-digit one (values that fit 64 bits
// unchecked, others checked), and wants each group's sum and count equal
// to a big.Int reference.
func TestSumDecimalGroups(t *testing.T) {
	cases := []struct {
		name      string
		precision int32
		digits    int // most digits of the values
	}{
		{"narrow", 15, 12},
		{"wide-small", 38, 15},
		{"wide-large", 38, 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(c.digits)))
			typ := &arrow.Decimal128Type{Precision: c.precision, Scale: 2}
			const groups = 5
			s := &sumDecState{res: typ}
			s.grow(groups)
			want := make([]*big.Int, groups)
			wantN := make([]int64, groups)
			for k := range want {
				want[k] = new(big.Int)
			}
			for batch := 0; batch < 4; batch++ {
				b := array.NewDecimal128Builder(memory.DefaultAllocator, typ)
				const n, off = 500, 3
				vals := make([]decimal128.Num, n)
				nulls := make([]bool, n)
				for i := range n {
					v := new(big.Int)
					for range 1 + rng.IntN(c.digits) {
						v.Mul(v, big.NewInt(10))
						v.Add(v, big.NewInt(int64(rng.IntN(10))))
					}
					if rng.IntN(2) == 0 {
						v.Neg(v)
					}
					vals[i] = decimal128.FromBigInt(v)
					if nulls[i] = rng.IntN(9) == 0; nulls[i] {
						b.AppendNull()
					} else {
						b.Append(vals[i])
					}
				}
				whole := b.NewArray()
				b.Release()
				arr := array.NewSlice(whole, off, n).(*array.Decimal128)
				whole.Release()
				g := make([]int32, n-off)
				for i := range g {
					g[i] = int32(rng.IntN(groups+1)) - 1
					if g[i] >= 0 && !nulls[off+i] {
						want[g[i]].Add(want[g[i]], vals[off+i].BigInt())
						wantN[g[i]]++
					}
				}
				if err := s.update(g, arr); err != nil {
					t.Fatal(err)
				}
				arr.Release()
			}
			for k := range groups {
				if s.cnt[k] != wantN[k] {
					t.Errorf("group %d: count %d, want %d", k, s.cnt[k], wantN[k])
				}
				if got := s.sum[k].BigInt(); got.Cmp(want[k]) != 0 || s.scale[k] != 2 {
					t.Errorf("group %d: sum %v scale %d, want %v scale 2", k, got, s.scale[k], want[k])
				}
			}
		})
	}
}

// BenchmarkSumDecimal times sum's update over 8192 money values without
// NULLs in four groups (q01's shape).
func BenchmarkSumDecimal(b *testing.B) {
	typ := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	rng := rand.New(rand.NewPCG(1, 1))
	bl := array.NewDecimal128Builder(memory.DefaultAllocator, typ)
	const n = 8192
	g := make([]int32, n)
	for i := range n {
		bl.Append(decimal128.FromI64(rng.Int64N(10_000_000)))
		g[i] = int32(rng.IntN(4))
	}
	arr := bl.NewArray()
	bl.Release()
	defer arr.Release()
	s := &sumDecState{res: typ}
	s.grow(4)
	b.SetBytes(n * 16)
	for b.Loop() {
		if err := s.update(g, arr); err != nil {
			b.Fatal(err)
		}
	}
}
