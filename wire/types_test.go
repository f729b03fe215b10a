package wire

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"strings"

	"github.com/icegate/icegate/internal/pgtypes"
)

// typesColumns is "select types": one column of every type wire encodes.
var typesColumns = []pgtypes.Column{
	{Name: "b", TypeOID: pgtypes.Bool, Typmod: -1, TableOID: 16384, AttNum: 1},
	{Name: "i2", TypeOID: pgtypes.Int2, Typmod: -1, TableOID: 16384, AttNum: 2},
	{Name: "i4", TypeOID: pgtypes.Int4, Typmod: -1},
	{Name: "i8", TypeOID: pgtypes.Int8, Typmod: -1},
	{Name: "f4", TypeOID: pgtypes.Float4, Typmod: -1},
	{Name: "f8", TypeOID: pgtypes.Float8, Typmod: -1},
	{Name: "n", TypeOID: pgtypes.Numeric, Typmod: pgtypes.NumericTypmod(10, 2)},
	{Name: "t", TypeOID: pgtypes.Text, Typmod: -1},
	{Name: "by", TypeOID: pgtypes.Bytea, Typmod: -1},
	{Name: "d", TypeOID: pgtypes.Date, Typmod: -1},
	{Name: "tm", TypeOID: pgtypes.Time, Typmod: -1},
	{Name: "ts", TypeOID: pgtypes.Timestamp, Typmod: -1},
	{Name: "tz", TypeOID: pgtypes.Timestamptz, Typmod: -1},
	{Name: "tsns", TypeOID: pgtypes.Timestamp, Typmod: -1},
	{Name: "u", TypeOID: pgtypes.UUID, Typmod: -1},
	{Name: "j", TypeOID: pgtypes.JSONB, Typmod: -1},
	{Name: "a", TypeOID: pgtypes.Int4Array, Typmod: -1},
	{Name: "ta", TypeOID: pgtypes.TextArray, Typmod: -1},
	{Name: "dict", TypeOID: pgtypes.Text, Typmod: -1},
	{Name: "iv", TypeOID: pgtypes.Interval, Typmod: -1},
}

// typesText is what PostgreSQL prints for row 0 of "select types" with
// TimeZone UTC (each value is in testdata/text_golden.tsv too).
var typesText = []string{
	"t", "-32768", "2147483647", "-9223372036854775808", "1.1", "1e+20", "12345.67", "héllo", `\x00ff10`,
	"2024-01-31", "12:34:56.789", "2024-01-31 12:34:56.5", "2024-01-31 12:34:56.5+00", "2024-01-31 12:34:56.123456",
	"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", `{"a": 1, "b": [1, 2]}`, "{1,2,NULL}", `{"a b",NULL}`, "red",
	"1 year 2 mons 3 days 04:05:06.789",
}

// typesBatch is the data of "select types": row 0 has a value in every
// column, row 1 is all NULL.
func typesBatch() arrow.RecordBatch {
	mem := memory.DefaultAllocator
	fields := make([]arrow.Field, len(typesColumns))
	cols := make([]arrow.Array, len(typesColumns))
	add := func(k int, b array.Builder, appendValue func()) {
		appendValue()
		b.AppendNull()
		cols[k] = b.NewArray()
	}
	bb := array.NewBooleanBuilder(mem)
	add(0, bb, func() { bb.Append(true) })
	i2 := array.NewInt16Builder(mem)
	add(1, i2, func() { i2.Append(-32768) })
	i4 := array.NewInt32Builder(mem)
	add(2, i4, func() { i4.Append(2147483647) })
	i8 := array.NewInt64Builder(mem)
	add(3, i8, func() { i8.Append(-9223372036854775808) })
	f4 := array.NewFloat32Builder(mem)
	add(4, f4, func() { f4.Append(1.1) })
	f8 := array.NewFloat64Builder(mem)
	add(5, f8, func() { f8.Append(1e20) })
	n := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 10, Scale: 2})
	add(6, n, func() { n.Append(decimalNum(1234567)) })
	t := array.NewStringBuilder(mem)
	add(7, t, func() { t.Append("héllo") })
	by := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	add(8, by, func() { by.Append([]byte{0, 0xff, 0x10}) })
	d := array.NewDate32Builder(mem)
	add(9, d, func() { d.Append(19753) })
	tm := array.NewTime64Builder(mem, &arrow.Time64Type{Unit: arrow.Microsecond})
	add(10, tm, func() { tm.Append(45296789000) })
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond})
	add(11, ts, func() { ts.Append(1706704496500000) })
	tz := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
	add(12, tz, func() { tz.Append(1706704496500000) })
	tsns := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Nanosecond})
	add(13, tsns, func() { tsns.Append(1706704496123456789) })
	u := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 16})
	add(14, u, func() {
		u.Append([]byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11})
	})
	j, _, err := array.FromJSON(mem, arrow.StructOf(
		arrow.Field{Name: "b", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}),
		strings.NewReader(`[{"b": [1, 2], "a": 1}, null]`))
	if err != nil {
		panic(err)
	}
	cols[15] = j
	a, _, err := array.FromJSON(mem, arrow.ListOf(arrow.PrimitiveTypes.Int32), strings.NewReader(`[[1, 2, null], null]`))
	if err != nil {
		panic(err)
	}
	cols[16] = a
	ta, _, err := array.FromJSON(mem, arrow.ListOf(arrow.BinaryTypes.String), strings.NewReader(`[["a b", null], null]`))
	if err != nil {
		panic(err)
	}
	cols[17] = ta
	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	add(18, db, func() { _ = db.AppendString("red") })
	iv := array.NewMonthDayNanoIntervalBuilder(mem)
	add(19, iv, func() { iv.Append(arrow.MonthDayNanoInterval{Months: 14, Days: 3, Nanoseconds: 14706789000000}) })
	for k, c := range cols {
		fields[k] = arrow.Field{Name: typesColumns[k].Name, Type: c.DataType(), Nullable: true}
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 2)
}
