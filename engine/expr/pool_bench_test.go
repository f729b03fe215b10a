package expr

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkDecimalChain is q01's sum argument over 8192 rows:
// l_extendedprice * (1 - l_discount) * (1 + l_tax), numeric(15,2), whose
// intermediates the program's pool recycles from one batch to the next.
func BenchmarkDecimalChain(b *testing.B) {
	dec := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{{Name: "price", Type: dec}, {Name: "disc", Type: dec}, {Name: "tax", Type: dec}}, nil)
	bb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bb.Release()
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 8192; i++ {
		bb.Field(0).(*array.Decimal128Builder).Append(decs(int64(90000 + r.Intn(10000000)))[0])
		bb.Field(1).(*array.Decimal128Builder).Append(decs(int64(r.Intn(11)))[0])
		bb.Field(2).(*array.Decimal128Builder).Append(decs(int64(r.Intn(9)))[0])
	}
	batch := bb.NewRecordBatch()
	defer batch.Release()
	c := func(i int) Expr { return &Col{Idx: i, Name: schema.Field(i).Name, T: dec} }
	e := call("*", call("*", c(0), call("-", num("1"), c(1))), call("+", num("1"), c(2)))
	p, err := Compile(e, schema)
	if err != nil {
		b.Fatal(err)
	}
	for _, transient := range []bool{false, true} {
		b.Run(map[bool]string{false: "eval", true: "transient"}[transient], func(b *testing.B) {
			ctx := b.Context()
			b.ReportAllocs()
			for b.Loop() {
				eval := p.Eval
				if transient {
					eval = p.EvalTransient
				}
				out, err := eval(ctx, batch)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
	}
}
