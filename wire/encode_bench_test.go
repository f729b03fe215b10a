package wire

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtypes"
)

// benchBatch is 1024 rows of int8, float8, numeric(18,2), text and
// timestamptz, every tenth value NULL.
func benchBatch() (arrow.RecordBatch, []pgtypes.Column) {
	mem := memory.DefaultAllocator
	const n = 1024
	i8 := array.NewInt64Builder(mem)
	f8 := array.NewFloat64Builder(mem)
	dec := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 18, Scale: 2})
	txt := array.NewStringBuilder(mem)
	tz := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
	for i := 0; i < n; i++ {
		if i%10 == 9 {
			i8.AppendNull()
			f8.AppendNull()
			dec.AppendNull()
			txt.AppendNull()
			tz.AppendNull()
			continue
		}
		i8.Append(int64(i) * 7919)
		f8.Append(float64(i) * 1.37)
		dec.Append(decimalNum(int64(i) * 12345))
		txt.Append("customer#000000" + string(rune('a'+i%26)))
		tz.Append(arrow.Timestamp(1706704496500000 + int64(i)*3_600_000_000))
	}
	cols := []arrow.Array{i8.NewArray(), f8.NewArray(), dec.NewArray(), txt.NewArray(), tz.NewArray()}
	fields := make([]arrow.Field, len(cols))
	for k, c := range cols {
		fields[k] = arrow.Field{Name: string(rune('a' + k)), Type: c.DataType(), Nullable: true}
	}
	pg := []pgtypes.Column{
		{Name: "a", TypeOID: pgtypes.Int8}, {Name: "b", TypeOID: pgtypes.Float8}, {Name: "c", TypeOID: pgtypes.Numeric},
		{Name: "d", TypeOID: pgtypes.Text}, {Name: "e", TypeOID: pgtypes.Timestamptz},
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n), pg
}

func BenchmarkEncodeBatch(b *testing.B) {
	batch, cols := benchBatch()
	loc, _ := time.LoadLocation("Europe/Amsterdam")
	for _, format := range []int16{formatText, formatBinary} {
		name := map[int16]string{formatText: "text", formatBinary: "binary"}[format]
		b.Run(name, func(b *testing.B) {
			formats := make([]int16, len(cols))
			for k := range formats {
				formats[k] = format
			}
			enc := newRowEncoder(cols, formats, &encodeEnv{loc: loc, extraFloatDigits: 1})
			var buf []byte
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := enc.bindBatch(batch); err != nil {
					b.Fatal(err)
				}
				buf = enc.appendRows(buf[:0], 0, int(batch.NumRows()))
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}
