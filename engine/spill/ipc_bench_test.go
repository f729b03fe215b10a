package spill

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// lineitemLike is n rows shaped like TPC-H lineitem's hot columns: keys,
// a quantity and a price as decimal(15,2), flags, a date, a comment.
func lineitemLike(n int) arrow.RecordBatch {
	dec := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "orderkey", Type: arrow.PrimitiveTypes.Int64},
		{Name: "partkey", Type: arrow.PrimitiveTypes.Int64},
		{Name: "quantity", Type: dec},
		{Name: "price", Type: dec},
		{Name: "flag", Type: arrow.BinaryTypes.String},
		{Name: "shipdate", Type: arrow.FixedWidthTypes.Date32},
		{Name: "comment", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	r := rand.New(rand.NewSource(1))
	words := []string{"carefully", "final", "deposits", "sleep", "furiously", "ironic", "packages", "among", "the"}
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i / 4))
		b.Field(1).(*array.Int64Builder).Append(r.Int63n(200000))
		b.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(r.Intn(50)+1) * 100))
		b.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(r.Int63n(10000000)))
		b.Field(4).(*array.StringBuilder).Append([]string{"A", "N", "R"}[r.Intn(3)])
		b.Field(5).(*array.Date32Builder).Append(arrow.Date32(8000 + r.Intn(2500)))
		b.Field(6).(*array.StringBuilder).Append(fmt.Sprintf("%s %s %s", words[r.Intn(9)], words[r.Intn(9)], words[r.Intn(9)]))
	}
	return b.NewRecordBatch()
}

// BenchmarkSpill writes 64 batches of 4096 lineitem-like rows to a
// temporary file and reads them back, with and without LZ4. It reports
// the bytes on disk per input byte and MB/s of Arrow data each way.
func BenchmarkSpill(b *testing.B) {
	batch := lineitemLike(4096)
	defer batch.Release()
	var raw int64
	for _, c := range batch.Columns() {
		for _, buf := range c.Data().Buffers() {
			if buf != nil {
				raw += int64(buf.Len())
			}
		}
	}
	const batches = 64
	d, err := Open(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for _, lz4 := range []bool{true, false} {
		b.Run(fmt.Sprintf("lz4=%v", lz4), func(b *testing.B) {
			st := d.Statement(-1)
			defer st.Close()
			var size int64
			b.SetBytes(raw * batches)
			for b.Loop() {
				f, err := st.Create()
				if err != nil {
					b.Fatal(err)
				}
				w := newWriter(f, batch.Schema(), memory.DefaultAllocator, lz4)
				for range batches {
					if err := w.Write(batch); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Finish(); err != nil {
					b.Fatal(err)
				}
				r, err := NewReader(f, batch.Schema(), memory.DefaultAllocator)
				if err != nil {
					b.Fatal(err)
				}
				for {
					got, err := r.Next()
					if err != nil {
						b.Fatal(err)
					}
					if got == nil {
						break
					}
				}
				r.Close()
				size = f.Size()
				f.Close()
			}
			b.ReportMetric(float64(size)/float64(raw*batches), "disk/raw")
		})
	}
}
