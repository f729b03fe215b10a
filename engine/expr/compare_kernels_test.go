package expr

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
)

// The typed comparison, IN and logic kernels against a row-at-a-time
// reference written with math/big and bytes, over random columns with
// NULLs, sliced at odd offsets, with constants on either side.

var (
	dec15_2  = &arrow.Decimal128Type{Precision: 15, Scale: 2}
	dec12_4  = &arrow.Decimal128Type{Precision: 12, Scale: 4}
	dec38_0  = &arrow.Decimal128Type{Precision: 38, Scale: 0}
	randCols = arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: dec15_2, Nullable: true},
		{Name: "b", Type: dec15_2, Nullable: true},
		{Name: "c", Type: dec12_4, Nullable: true},
		{Name: "t", Type: Text, Nullable: true},
		{Name: "u", Type: Text, Nullable: true},
		{Name: "p", Type: Bool, Nullable: true},
		{Name: "q", Type: Bool, Nullable: true},
		{Name: "i", Type: Int4, Nullable: true},
		{Name: "h", Type: dec38_0, Nullable: true},
	}, nil)
	words = []string{"", "a", "ab", "abc", "b", "MAIL", "SHIP", "AIR", "AIR REG", "ändern", "zz",
		// values about 8 bytes long, and neighbours differing in one byte
		// or only in length (the word-at-a-time matching of strset.go)
		"AIR\x00", "12345678", "12345679", "123456789", "DELIVER ", "DELIVER IN PERSON",
		"DELIVER IN PERSOM", "DELIVER IN PERSONA", "COLLECT COD"}
)

// randBatch is rows random rows of randCols, sliced from offset 3 so that
// no buffer starts at a byte boundary.
func randBatch(mem memory.Allocator, rows int, seed int64) arrow.RecordBatch {
	r := rand.New(rand.NewSource(seed))
	b := array.NewRecordBuilder(mem, randCols)
	defer b.Release()
	small := func() int64 { return r.Int63n(2001) - 1000 }
	for i := 0; i < rows+3; i++ {
		for j, f := range b.Fields() {
			if r.Intn(7) == 0 {
				f.AppendNull()
				continue
			}
			switch j {
			case 0, 1:
				f.(*array.Decimal128Builder).Append(decimal128.FromI64(small()))
			case 2:
				f.(*array.Decimal128Builder).Append(decimal128.FromI64(small() * int64(r.Intn(3)*45+1)))
			case 3, 4:
				f.(*array.StringBuilder).Append(words[r.Intn(len(words))])
			case 5, 6:
				f.(*array.BooleanBuilder).Append(r.Intn(2) == 0)
			case 7:
				f.(*array.Int32Builder).Append(int32(small()))
			case 8:
				v := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(r.Intn(38))), nil)
				if r.Intn(2) == 0 {
					v.Neg(v)
				}
				f.(*array.Decimal128Builder).Append(decimal128.FromBigInt(v))
			}
		}
	}
	whole := b.NewRecordBatch()
	defer whole.Release()
	return whole.NewSlice(3, int64(rows+3))
}

// refValue is row i of column j as a comparable Go value (nil for NULL):
// *big.Rat for decimals, string, bool, int64.
func refValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Decimal128:
		s := a.DataType().(*arrow.Decimal128Type).Scale
		return new(big.Rat).SetFrac(a.Value(i).BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil))
	case *array.String:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.Int32:
		return int64(a.Value(i))
	}
	panic(fmt.Sprintf("refValue %T", a))
}

func litValue(l *Lit) any {
	switch v := l.V.(type) {
	case nil:
		return nil
	case catalog.Decimal:
		return new(big.Rat).SetFrac(v.Unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(v.Scale)), nil))
	case int32:
		return int64(v)
	}
	return l.V
}

func refCmp(x, y any) int {
	switch x := x.(type) {
	case *big.Rat:
		return x.Cmp(y.(*big.Rat))
	case string:
		return bytes.Compare([]byte(x), []byte(y.(string)))
	case int64:
		switch y := y.(int64); {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	panic(fmt.Sprintf("refCmp %T", x))
}

// operand is a column or a constant of a comparison.
type operand struct {
	col int
	lit *Lit
}

func (o operand) expr() Expr {
	if o.lit != nil {
		return o.lit
	}
	f := randCols.Field(o.col)
	return &Col{Idx: o.col, Name: f.Name, T: f.Type}
}

func (o operand) value(b arrow.RecordBatch, i int) any {
	if o.lit != nil {
		return litValue(o.lit)
	}
	return refValue(b.Column(o.col), i)
}

func decLitOf(s string) *Lit {
	u, sc, ok := parseDecimal(s)
	if !ok {
		panic(s)
	}
	return &Lit{V: catalog.Decimal{Unscaled: u.BigInt(), Scale: int(sc)}, T: &arrow.Decimal128Type{Precision: 38, Scale: sc}}
}

func TestTypedComparisons(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	batch := randBatch(mem, 1000, 1)
	defer batch.Release()
	col := func(j int) operand { return operand{col: j} }
	cst := func(l *Lit) operand { return operand{lit: l} }
	pairs := []struct {
		name string
		l, r operand
	}{
		{"decimal columns, one scale", col(0), col(1)},
		{"decimal columns, two scales", col(0), col(2)},
		{"decimal columns, two scales, reversed", col(2), col(0)},
		{"decimal vs constant of its scale", col(0), cst(decLitOf("1.50"))},
		{"decimal vs constant of a smaller scale", col(0), cst(decLitOf("3"))},
		{"decimal vs constant of a larger scale", col(0), cst(decLitOf("0.055"))},
		{"decimal vs negative constant of a larger scale", col(0), cst(decLitOf("-0.055"))},
		{"decimal vs constant too fine for any row", col(0), cst(decLitOf("0.00000000000000000000000000000000001"))},
		{"constant vs decimal", cst(decLitOf("-2.345")), col(2)},
		{"decimal vs constant beyond 128 bits at its scale", col(2), cst(&Lit{V: catalog.Decimal{Unscaled: new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil)}, T: dec38_0})},
		{"decimal vs negative constant beyond 128 bits", col(2), cst(&Lit{V: catalog.Decimal{Unscaled: new(big.Int).Neg(new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil))}, T: dec38_0})},
		{"wide decimals vs a fine constant", col(8), cst(decLitOf("0.5"))},
		{"wide decimals vs a small-scale column", col(8), col(0)},
		{"text columns", col(3), col(4)},
		{"text vs constant", col(3), cst(&Lit{V: "ab", T: Text})},
		{"constant vs text", cst(&Lit{V: "MAIL", T: Text}), col(4)},
		{"text vs empty constant", col(3), cst(&Lit{V: "", T: Text})},
		{"text vs 8-byte constant", col(3), cst(&Lit{V: "12345678", T: Text})},
		{"text vs long constant", col(4), cst(&Lit{V: "DELIVER IN PERSON", T: Text})},
		{"int vs constant", col(7), cst(&Lit{V: int32(17), T: Int4})},
		{"constant vs int", cst(&Lit{V: int32(-3), T: Int4}), col(7)},
		{"int columns", col(7), col(7)},
	}
	ops := []string{"=", "<>", "<", "<=", ">", ">="}
	for _, p := range pairs {
		for _, op := range ops {
			t.Run(p.name+"/"+op, func(t *testing.T) {
				e := &Call{Fn: op, Args: []Expr{p.l.expr(), p.r.expr()}, T: Bool}
				prog, err := Compile(e, randCols)
				if err != nil {
					t.Fatal(err)
				}
				out, err := prog.Eval(ctx, batch)
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				res := out.(*array.Boolean)
				for i := 0; i < int(batch.NumRows()); i++ {
					x, y := p.l.value(batch, i), p.r.value(batch, i)
					if x == nil || y == nil {
						if res.IsValid(i) {
							t.Fatalf("row %d: %v %s %v is %v, want NULL", i, x, op, y, res.Value(i))
						}
						continue
					}
					want := cmpOpOf(op).test(refCmp(x, y))
					if res.IsNull(i) || res.Value(i) != want {
						t.Fatalf("row %d: %v %s %v is %v (null %v), want %v", i, x, op, y, res.Value(i), res.IsNull(i), want)
					}
				}
			})
		}
	}
}

func TestTypedIn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	batch := randBatch(mem, 1000, 2)
	defer batch.Release()
	txt := func(ss ...string) []*Lit {
		var out []*Lit
		for _, s := range ss {
			out = append(out, &Lit{V: s, T: Text})
		}
		return out
	}
	ints := func(vs ...int32) []*Lit {
		var out []*Lit
		for _, v := range vs {
			out = append(out, &Lit{V: v, T: Int4})
		}
		return out
	}
	cases := []struct {
		name string
		col  int
		list []*Lit
	}{
		{"text, short list", 3, txt("MAIL", "SHIP")},
		{"text, with NULL", 3, append(txt("MAIL", "ab"), &Lit{T: Text})},
		{"text, short and long items", 3, txt("AIR", "AIR REG", "DELIVER IN PERSON", "12345678", "123456789")},
		{"text, a NUL-padded neighbour", 4, txt("AIR", "DELIVER ")},
		{"text, long list", 4, txt("", "a", "b", "c", "d", "e", "f", "g", "AIR", "AIR REG")},
		{"int, short list", 7, ints(1, 2, 3)},
		{"int, long list with NULL", 7, append(ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -5, -6), &Lit{T: Int4})},
		{"decimal, scales", 0, []*Lit{decLitOf("1.5"), decLitOf("-2.25"), decLitOf("0.001"), decLitOf("3")}},
		{"decimal, all NULL", 0, []*Lit{{T: dec15_2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := randCols.Field(c.col)
			args := []Expr{&Col{Idx: c.col, Name: f.Name, T: f.Type}}
			for _, l := range c.list {
				args = append(args, l)
			}
			prog, err := Compile(&Call{Fn: "in", Args: args, T: Bool}, randCols)
			if err != nil {
				t.Fatal(err)
			}
			out, err := prog.Eval(ctx, batch)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			res := out.(*array.Boolean)
			for i := 0; i < int(batch.NumRows()); i++ {
				x := refValue(batch.Column(c.col), i)
				var want any = false // nil: NULL
				if x == nil {
					want = nil
				} else {
					for _, l := range c.list {
						v := litValue(l)
						if v == nil {
							if want == false {
								want = nil
							}
							continue
						}
						if refCmp(x, v) == 0 {
							want = true
							break
						}
					}
				}
				var got any
				if res.IsValid(i) {
					got = res.Value(i)
				}
				if got != want {
					t.Fatalf("row %d: %v IN %v is %v, want %v", i, x, c.list, got, want)
				}
			}
		})
	}
}

// TestLogicWords checks AND, OR, NOT and NULL tests word by word against
// the three-valued truth tables, with constants and NULLs among the
// arguments.
func TestLogicWords(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	batch := randBatch(mem, 777, 3)
	defer batch.Release()
	p := &Col{Idx: 5, Name: "p", T: Bool}
	q := &Col{Idx: 6, Name: "q", T: Bool}
	tr, fa, nu := &Lit{V: true, T: Bool}, &Lit{V: false, T: Bool}, &Lit{T: Bool}
	val := func(e Expr, i int) any {
		switch e := e.(type) {
		case *Lit:
			return e.V
		case *Col:
			return refValue(batch.Column(e.Idx), i)
		}
		panic("val")
	}
	and3 := func(vs []any) any {
		out := any(true)
		for _, v := range vs {
			switch v {
			case false:
				return false
			case nil:
				out = nil
			}
		}
		return out
	}
	or3 := func(vs []any) any {
		out := any(false)
		for _, v := range vs {
			switch v {
			case true:
				return true
			case nil:
				out = nil
			}
		}
		return out
	}
	cases := [][]Expr{{p, q}, {p, q, tr}, {p, fa}, {p, nu}, {q, p, nu, tr}, {p, &Lit{T: arrow.Null}}}
	for _, args := range cases {
		for _, fn := range []string{"and", "or"} {
			t.Run(fmt.Sprint(fn, args), func(t *testing.T) {
				prog, err := Compile(&Call{Fn: fn, Args: args, T: Bool}, randCols)
				if err != nil {
					t.Fatal(err)
				}
				out, err := prog.Eval(ctx, batch)
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				res := out.(*array.Boolean)
				for i := 0; i < res.Len(); i++ {
					vs := make([]any, len(args))
					for j, a := range args {
						vs[j] = val(a, i)
					}
					want := and3(vs)
					if fn == "or" {
						want = or3(vs)
					}
					var got any
					if res.IsValid(i) {
						got = res.Value(i)
					}
					if got != want {
						t.Fatalf("row %d: %s%v is %v, want %v", i, fn, vs, got, want)
					}
				}
			})
		}
	}
	for _, fn := range []string{"not", "isnull", "isnotnull"} {
		t.Run(fn, func(t *testing.T) {
			prog, err := Compile(&Call{Fn: fn, Args: []Expr{p}, T: Bool}, randCols)
			if err != nil {
				t.Fatal(err)
			}
			out, err := prog.Eval(ctx, batch)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			res := out.(*array.Boolean)
			for i := 0; i < res.Len(); i++ {
				v := val(p, i)
				var want any
				switch fn {
				case "not":
					if v != nil {
						want = !v.(bool)
					}
				case "isnull":
					want = v == nil
				case "isnotnull":
					want = v != nil
				}
				var got any
				if res.IsValid(i) {
					got = res.Value(i)
				}
				if got != want {
					t.Fatalf("row %d: %s(%v) is %v, want %v", i, fn, v, got, want)
				}
			}
		})
	}
}

// TestFold checks which constant subtrees Compile evaluates ahead.
func TestFold(t *testing.T) {
	cases := []struct {
		name string
		e    Expr
		want string // String() of the folded tree
	}{
		{"decimal arithmetic", call("-", num("0.06"), num("0.01")), "0.05::decimal(38,2)"},
		{"under a comparison", call(">=", col(cD), call("+", num("0.06"), num("0.01"))), ""},
		{"division by zero stays", call("/", i4(1), i4(0)), ""},
		{"random stays", &Call{Fn: "random", T: Float8}, ""},
		{"cast of a constant", cast(txt("2024-02-29"), Date), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Fold(c.e)
			switch c.name {
			case "decimal arithmetic":
				l, ok := f.(*Lit)
				if !ok || !arrow.TypeEqual(l.T, c.e.Type()) || l.V.(catalog.Decimal).Unscaled.Int64() != 5 || l.V.(catalog.Decimal).Scale != 2 {
					t.Errorf("folded to %s, want the constant 0.05 of type %s", f, c.e.Type())
				}
			case "under a comparison":
				if _, ok := f.(*Call).Args[1].(*Lit); !ok {
					t.Errorf("folded to %s, want the constant operand folded", f)
				}
			case "division by zero stays", "random stays":
				if f != c.e {
					t.Errorf("folded to %s, want it kept", f)
				}
			case "cast of a constant":
				l, ok := f.(*Lit)
				if !ok || l.T.ID() != arrow.DATE32 {
					t.Errorf("folded to %s, want a date constant", f)
				}
			}
		})
	}
	// The division by zero is still raised when a row evaluates it.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	if _, err := render(t, mem, call("/", i4(1), i4(0)), nil); sqlstate(err) != "22012" {
		t.Errorf("1/0: %v, want SQLSTATE 22012", err)
	}
}
