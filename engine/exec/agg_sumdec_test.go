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
		digits    int   // most digits of the values
		later     int   // most digits from the third batch on (0: digits)
		scale     int32 // the scale from the third batch on (0: 2)
		noNulls   bool
	}{
		{"narrow", 15, 12, 0, 0, false},
		{"wide-small", 38, 15, 0, 0, false},
		{"wide-large", 38, 30, 0, 0, false},
		{"wide, large later", 38, 15, 30, 0, false},
		{"narrow, scale 3 later", 15, 12, 0, 3, false},
		{"wide, scale 4 later", 38, 15, 30, 4, false},
		// Without NULLs.
		{"narrow, no NULLs", 15, 15, 0, 0, true},
		{"no NULLs, 18 digits", 18, 18, 0, 0, true},
		{"no NULLs, large later", 38, 12, 25, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(c.digits)))
			typ := &arrow.Decimal128Type{Precision: c.precision, Scale: 2}
			const groups = 5
			s := &sumDecState{res: typ}
			s.grow(groups)
			want := make([]*big.Rat, groups)
			wantN := make([]int64, groups)
			for k := range want {
				want[k] = new(big.Rat)
			}
			for batch := 0; batch < 4; batch++ {
				if batch == 2 && c.later > 0 {
					c.digits = c.later
				}
				if batch == 2 && c.scale > 0 {
					typ = &arrow.Decimal128Type{Precision: c.precision, Scale: c.scale}
				}
				if batch == 1 {
					s.grow(groups + 2) // groups without values
				}
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
					if nulls[i] = !c.noNulls && rng.IntN(9) == 0; nulls[i] {
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
						v := new(big.Rat).SetFrac(vals[off+i].BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(typ.Scale)), nil))
						want[g[i]].Add(want[g[i]], v)
						wantN[g[i]]++
					}
				}
				if err := s.update(g, arr); err != nil {
					t.Fatal(err)
				}
				arr.Release()
			}
			s.settle()
			for k := range groups {
				if s.cnt[k] != wantN[k] {
					t.Errorf("group %d: count %d, want %d", k, s.cnt[k], wantN[k])
				}
				got := new(big.Rat).SetFrac(s.sum[k].BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s.scale[k])), nil))
				if got.Cmp(want[k]) != 0 || c.scale == 0 && s.scale[k] != 2 {
					t.Errorf("group %d: sum %v scale %d, want %v", k, got, s.scale[k], want[k])
				}
			}
			for k := groups; k < groups+2; k++ {
				if s.cnt[k] != 0 || s.sum[k] != (decimal128.Num{}) {
					t.Errorf("group %d without values: count %d sum %v", k, s.cnt[k], s.sum[k])
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

// TestSumDecimalMerge merges partial sums of a decimal column: at the
// column's scale they add exactly, a sum past 128 bits is 22003, and
// numeric states (another scale) still merge.
func TestSumDecimalMerge(t *testing.T) {
	typ := &arrow.Decimal128Type{Precision: 38, Scale: 2}
	big1 := decimal128.New(1<<62, 0) // 2^126
	cases := []struct {
		name    string
		batches [][]decimal128.Num
		want    decimal128.Num
		state   string // "" or the SQLSTATE of the error
	}{
		{"exact", [][]decimal128.Num{{decimal128.FromI64(150), decimal128.FromI64(-25)}, {decimal128.New(3, 7)}}, decimal128.New(3, 132), ""},
		{"past 128 bits", [][]decimal128.Num{{big1}, {big1}}, decimal128.Num{}, "22003"},
		{"negative, near the bound", [][]decimal128.Num{{big1.Negate()}, {big1.Negate()}}, decimal128.New(-1<<63, 0), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &sumDecState{res: typ, decArg: typ}
			s.grow(1)
			var err error
			for _, vals := range c.batches {
				b := array.NewDecimal128Builder(memory.DefaultAllocator, typ)
				b.AppendValues(vals, nil)
				sum := b.NewArray()
				b.Release()
				cb := array.NewInt64Builder(memory.DefaultAllocator)
				cb.AppendValues(make([]int64, len(vals)), nil)
				cnt := cb.NewArray()
				cb.Release()
				if err = s.merge(make([]int32, len(vals)), []arrow.Array{sum, cnt}); err != nil {
					break
				}
				sum.Release()
				cnt.Release()
			}
			if got := sqlstate(err); got != c.state {
				t.Fatalf("error %v, want SQLSTATE %q", err, c.state)
			}
			if c.state == "" && s.sum[0] != c.want {
				t.Errorf("sum %v, want %v", s.sum[0].BigInt(), c.want.BigInt())
			}
		})
	}
}
