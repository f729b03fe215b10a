package expr

import (
	"context"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkCompareKernels times one comparison over 8192 rows of
// lineitem-like columns: a decimal(15,2), a date, a text of 7 values.
func BenchmarkCompareKernels(b *testing.B) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "d", Type: dec15_2}, {Name: "dt", Type: Date}, {Name: "s", Type: Text},
	}, nil)
	r := rand.New(rand.NewSource(1))
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	modes := []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	for i := 0; i < 8192; i++ {
		rb.Field(0).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(r.Intn(11))))
		rb.Field(1).(*array.Date32Builder).Append(arrow.Date32(8000 + r.Intn(2500)))
		rb.Field(2).(*array.StringBuilder).Append(modes[r.Intn(len(modes))])
	}
	batch := rb.NewRecordBatch()
	rb.Release()
	defer batch.Release()
	d := &Col{Idx: 0, Name: "d", T: dec15_2}
	dt := &Col{Idx: 1, Name: "dt", T: Date}
	s := &Col{Idx: 2, Name: "s", T: Text}
	cases := []struct {
		name string
		e    Expr
	}{
		{"decimal>=const", &Call{Fn: ">=", Args: []Expr{d, decLitOf("0.05")}, T: Bool}},
		{"decimal<const(rescaled)", &Call{Fn: "<", Args: []Expr{d, &Lit{V: int32(24), T: Int4}}, T: Bool}},
		{"date<const", &Call{Fn: "<", Args: []Expr{dt, &Lit{V: int32(9000), T: Date}}, T: Bool}},
		{"text=const", &Call{Fn: "=", Args: []Expr{s, &Lit{V: "MAIL", T: Text}}, T: Bool}},
		{"text in 2", &Call{Fn: "in", Args: []Expr{s, &Lit{V: "MAIL", T: Text}, &Lit{V: "SHIP", T: Text}}, T: Bool}},
		{"and 3", &Call{Fn: "and", Args: []Expr{
			&Call{Fn: "<", Args: []Expr{dt, &Lit{V: int32(9000), T: Date}}, T: Bool},
			&Call{Fn: ">", Args: []Expr{dt, &Lit{V: int32(8500), T: Date}}, T: Bool},
			&Call{Fn: ">=", Args: []Expr{d, decLitOf("0.05")}, T: Bool}}, T: Bool}},
	}
	ctx := context.Background()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			e := c.e
			if c.name == "decimal<const(rescaled)" {
				e = &Call{Fn: "<", Args: []Expr{d, &Cast{Arg: &Lit{V: int32(24), T: Int4}, T: &arrow.Decimal128Type{Precision: 10, Scale: 0}}}, T: Bool}
			}
			p, err := Compile(e, schema)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(8192)
			for i := 0; i < b.N; i++ {
				out, err := p.Eval(ctx, batch)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
	}
}
