package wire

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtypes"
)

// datetimeBatch is 1024 rows of date, time, timestamp, timestamptz,
// interval and text[], every tenth value NULL.
func datetimeBatch() (arrow.RecordBatch, []pgtypes.Column) {
	mem := memory.DefaultAllocator
	const n = 1024
	dt := array.NewDate32Builder(mem)
	tm := array.NewTime64Builder(mem, &arrow.Time64Type{Unit: arrow.Microsecond})
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond})
	tz := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
	iv := array.NewMonthDayNanoIntervalBuilder(mem)
	ls := array.NewListBuilder(mem, arrow.BinaryTypes.String)
	lv := ls.ValueBuilder().(*array.StringBuilder)
	words := []string{"a", "", "b c", `q"x`, "NULL", "customer#1"}
	for i := 0; i < n; i++ {
		if i%10 == 9 {
			dt.AppendNull()
			tm.AppendNull()
			ts.AppendNull()
			tz.AppendNull()
			iv.AppendNull()
			ls.AppendNull()
			continue
		}
		dt.Append(arrow.Date32(19000 + i*37))
		tm.Append(arrow.Time64(int64(i) * 84_123_456))
		ts.Append(arrow.Timestamp(1706704496500000 + int64(i)*3_600_000_123))
		tz.Append(arrow.Timestamp(1706704496500000 + int64(i)*3_600_000_000))
		iv.Append(arrow.MonthDayNanoInterval{Months: int32(i % 30), Days: int32(i%7 - 3), Nanoseconds: int64(i) * 1_234_567_000})
		ls.Append(true)
		for k := 0; k < i%5; k++ {
			lv.Append(words[(i+k)%len(words)])
		}
	}
	cols := []arrow.Array{dt.NewArray(), tm.NewArray(), ts.NewArray(), tz.NewArray(), iv.NewArray(), ls.NewArray()}
	fields := make([]arrow.Field, len(cols))
	for k, c := range cols {
		fields[k] = arrow.Field{Name: string(rune('a' + k)), Type: c.DataType(), Nullable: true}
	}
	pg := []pgtypes.Column{
		{Name: "a", TypeOID: pgtypes.Date}, {Name: "b", TypeOID: pgtypes.Time}, {Name: "c", TypeOID: pgtypes.Timestamp},
		{Name: "d", TypeOID: pgtypes.Timestamptz}, {Name: "e", TypeOID: pgtypes.Interval}, {Name: "f", TypeOID: pgtypes.TextArray},
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n), pg
}

// BenchmarkEncodeDatetimeText is the text format of the date and time
// types, intervals and arrays.
func BenchmarkEncodeDatetimeText(b *testing.B) {
	batch, cols := datetimeBatch()
	loc, _ := time.LoadLocation("Europe/Amsterdam")
	formats := make([]int16, len(cols))
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
}
