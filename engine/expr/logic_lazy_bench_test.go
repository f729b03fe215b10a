package expr

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkLogicQ19 is the shape of TPC-H q19's join residual over 8192
// rows: an OR of three ANDs, each a selective text equality (1 row in
// 25) then an IN list of text, a decimal range and an integer range.
func BenchmarkLogicQ19(b *testing.B) {
	f := func(n string, t arrow.DataType) arrow.Field { return arrow.Field{Name: n, Type: t} }
	dec := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{f("brand", Text), f("container", Text), f("size", Int4), f("qty", dec)}, nil)
	bb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bb.Release()
	r := rand.New(rand.NewSource(1))
	conts := []string{"SM CASE", "SM BOX", "SM PACK", "SM PKG", "MED BAG", "MED BOX", "MED PKG", "MED PACK", "LG CASE", "LG BOX", "LG PACK", "LG PKG", "JUMBO BOX", "WRAP CASE"}
	for i := 0; i < 8192; i++ {
		bb.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("Brand#%d%d", 1+r.Intn(5), 1+r.Intn(5)))
		bb.Field(1).(*array.StringBuilder).Append(conts[r.Intn(len(conts))])
		bb.Field(2).(*array.Int32Builder).Append(int32(1 + r.Intn(50)))
		bb.Field(3).(*array.Decimal128Builder).Append(decs(int64(100 * (1 + r.Intn(50))))[0])
	}
	batch := bb.NewRecordBatch()
	defer batch.Release()
	c := func(i int) Expr { return &Col{Idx: i, Name: schema.Field(i).Name, T: schema.Field(i).Type} }
	arm := func(brand string, cs []string, lo, hi int64, size int32) Expr {
		in := []Expr{c(1)}
		for _, s := range cs {
			in = append(in, txt(s))
		}
		return &Call{Fn: "and", T: Bool, Args: []Expr{
			call("=", c(0), txt(brand)),
			&Call{Fn: "in", Args: in, T: Bool},
			call(">=", c(3), num(fmt.Sprint(lo))),
			call("<=", c(3), num(fmt.Sprint(hi))),
			call(">=", c(2), i4(1)),
			call("<=", c(2), i4(size)),
		}}
	}
	e := &Call{Fn: "or", T: Bool, Args: []Expr{
		arm("Brand#12", []string{"SM CASE", "SM BOX", "SM PACK", "SM PKG"}, 1, 11, 5),
		arm("Brand#23", []string{"MED BAG", "MED BOX", "MED PKG", "MED PACK"}, 10, 20, 10),
		arm("Brand#34", []string{"LG CASE", "LG BOX", "LG PACK", "LG PKG"}, 20, 30, 15),
	}}
	p, err := Compile(e, schema)
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := p.Eval(ctx, batch)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}
