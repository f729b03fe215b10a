package expr

import (
	"context"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// benchBatch is 1024 rows of (int8 with 1/16 NULL, int8 without NULLs, text).
func benchBatch(nulls bool) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: Int8, Nullable: true}, {Name: "y", Type: Int8}, {Name: "s", Type: Text}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1024; i++ {
		if nulls && r.Intn(16) == 0 {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(r.Int63n(1 << 40))
		}
		b.Field(1).(*array.Int64Builder).Append(r.Int63n(1 << 40))
		b.Field(2).(*array.StringBuilder).Append([]string{"apple", "banana", "cherry", "avocado"}[r.Intn(4)])
	}
	return b.NewRecordBatch()
}

func benchEval(b *testing.B, e Expr, nulls bool) {
	batch := benchBatch(nulls)
	defer batch.Release()
	p, err := Compile(e, batch.Schema())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.SetBytes(1024 * 8)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := p.Eval(ctx, batch)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}

func BenchmarkCompareConst(b *testing.B) {
	x := &Col{Idx: 0, T: Int8}
	e := &Call{Fn: "<", Args: []Expr{x, &Lit{V: int64(1 << 39), T: Int8}}, T: Bool}
	b.Run("nulls", func(b *testing.B) { benchEval(b, e, true) })
	b.Run("no_nulls", func(b *testing.B) { benchEval(b, e, false) })
}

func BenchmarkAddColumns(b *testing.B) {
	e := &Call{Fn: "+", Args: []Expr{&Col{Idx: 0, T: Int8}, &Col{Idx: 1, T: Int8}}, T: Int8}
	b.Run("nulls", func(b *testing.B) { benchEval(b, e, true) })
	b.Run("no_nulls", func(b *testing.B) { benchEval(b, e, false) })
}

func BenchmarkLike(b *testing.B) {
	e := &Call{Fn: "like", Args: []Expr{&Col{Idx: 2, T: Text}, &Lit{V: "a%o", T: Text}}, T: Bool}
	benchEval(b, e, false)
}
