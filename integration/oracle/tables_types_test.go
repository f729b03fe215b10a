package oracle

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// typesTable has one column of every primitive type iceberg-go writes,
// with edge values and NULLs.
func typesTable() oracleTable {
	const n = 300
	sc := iceberg.NewSchema(0,
		field(1, "id", tLong, true),
		field(2, "b", tBool, false),
		field(3, "i", tInt, false),
		field(4, "l", tLong, false),
		field(5, "f", tFloat, false),
		field(6, "d", tDouble, false),
		field(7, "dec", iceberg.DecimalTypeOf(12, 3), false),
		field(8, "dec38", iceberg.DecimalTypeOf(38, 10), false),
		field(9, "dt", tDate, false),
		field(10, "tm", tTime, false),
		field(11, "ts", tTs, false),
		field(12, "tstz", tTstz, false),
		field(13, "s", tString, false),
		field(14, "u", tUUID, false),
		field(15, "fx", iceberg.FixedTypeOf(5), false),
		field(16, "bin", tBinary, false),
	)
	gen := func(i int) []any {
		row := []any{
			int64(i),
			i%2 == 0,
			pick(i, []int32{math.MinInt32, math.MaxInt32, 0, -1}, int32(i*7919-1_000_000)),
			pick(i, []int64{math.MinInt64, math.MaxInt64, 0, -1}, int64(i)*1_000_000_007-123),
			pick(i, []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 1e-7, math.MaxFloat32, 1.1, 0.1, 123456, 1234567}, float32(i)/7),
			pick(i, []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324, 1e300, inexactSum(), 1e15, 1e14 + 0.5, 0.0001, 0.00001}, float64(i)/3),
			pick(i, []decimal128.Num{decimal128.FromI64(999_999_999_999), decimal128.FromI64(-999_999_999_999), decimal128.FromI64(0), decimal128.FromI64(-1), decimal128.FromI64(5)}, decimal128.FromI64(int64(i)*12345-500_000)),
			pick(i, []decimal128.Num{bigDecimal("99999999999999999999999999999999999999"), bigDecimal("-99999999999999999999999999999999999999"), bigDecimal("1"), bigDecimal("-12345678901234567890")}, bigDecimal(fmt.Sprintf("%d%010d", i, i*i))),
			pick(i, []arrow.Date32{-719162, 2932896, 0, -1, 11016}, arrow.Date32(i*97-10_000)),
			pick(i, []arrow.Time64{0, 86_399_999_999, 1, 43_200_000_000}, arrow.Time64((int64(i)*3_600_000_123+7)%(day))),
			pick(i, []arrow.Timestamp{-62_135_596_800_000_000, 253_402_300_799_999_999, 0, -1, 1_000_000}, arrow.Timestamp(int64(i)*37*day+int64(i)*1_234_567)),
			pick(i, []arrow.Timestamp{-62_135_596_800_000_000, 253_402_300_799_999_999, 0, -1, 1_700_000_000_123_456}, arrow.Timestamp(1_600_000_000_000_000+int64(i)*3_333_333_333)),
			pick(i, []string{"", "NULL", `with "quotes" and \ backslash`, "tab\tnewline\n", "unicode ✓ é 日本", "  spaces  ", "{braces},commas"}, fmt.Sprintf("row-%d", i)),
			uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "row-%d", i)),
			[]byte{byte(i), byte(i >> 8), 0, 0xff, byte(i * 3)},
			pick(i, [][]byte{{}, {0}, {0xde, 0xad, 0xbe, 0xef}}, fmt.Appendf(nil, "bin-%d", i)),
		}
		for c := 1; c < len(row); c++ {
			if nullAt(i, c, n-1) {
				row[c] = nil
			}
		}
		return row
	}
	return oracleTable{
		name:   "types",
		schema: sc,
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, n/2, gen))
			if err != nil {
				return nil, err
			}
			return appendRows(ctx, tbl, genRows(n/2, n, gen))
		},
	}
}

// nestedTable has structs, lists and maps, NULL at every level.
func nestedTable() oracleTable {
	const n = 200
	sc := iceberg.NewSchema(0,
		field(1, "id", tLong, true),
		field(2, "st", &iceberg.StructType{FieldList: []iceberg.NestedField{
			field(20, "x", tInt, false),
			field(21, "name", tString, false),
			field(22, "inner", &iceberg.StructType{FieldList: []iceberg.NestedField{
				field(23, "d", tDouble, false),
				field(24, "tags", &iceberg.ListType{ElementID: 25, Element: tString}, false),
				field(26, "at", tTstz, false),
			}}, false),
		}}, false),
		field(3, "ls", &iceberg.ListType{ElementID: 30, Element: tLong}, false),
		field(4, "lstr", &iceberg.ListType{ElementID: 31, Element: tString}, false),
		field(5, "ldt", &iceberg.ListType{ElementID: 32, Element: tDate}, false),
		field(6, "lts", &iceberg.ListType{ElementID: 33, Element: tTs}, false),
		field(7, "lst", &iceberg.ListType{ElementID: 34, Element: &iceberg.StructType{FieldList: []iceberg.NestedField{
			field(35, "k", tString, false),
			field(36, "v", tInt, false),
		}}}, false),
		field(8, "ll", &iceberg.ListType{ElementID: 37, Element: &iceberg.ListType{ElementID: 38, Element: tInt}}, false),
		field(9, "m", &iceberg.MapType{KeyID: 40, KeyType: tString, ValueID: 41, ValueType: tDouble}, false),
		field(10, "mi", &iceberg.MapType{KeyID: 42, KeyType: tInt, ValueID: 43, ValueType: tString}, false),
		field(11, "ml", &iceberg.MapType{KeyID: 44, KeyType: tString, ValueID: 45, ValueType: &iceberg.ListType{ElementID: 46, Element: tLong}}, false),
	)
	gen := func(i int) []any {
		var inner any = structVal{float64(i) / 4, listVal{"a", nil, fmt.Sprintf("t%d", i%5), `q"uote`}, arrow.Timestamp(1_700_000_000_000_000 + int64(i)*1_000_001)}
		if i%9 == 4 {
			inner = nil
		}
		row := []any{
			int64(i),
			structVal{int32(i * 3), fmt.Sprintf("n%d", i), inner},
			listVal{int64(i), nil, int64(-i), int64(math.MaxInt64)},
			pick(i, []listVal{{}, {""}, {"NULL", "null"}, {"a,b", "{c}", `back\slash`, "sp ace", `"q"`}}, listVal{fmt.Sprintf("s%d", i), "x"}),
			listVal{arrow.Date32(i * 40), nil},
			listVal{arrow.Timestamp(int64(i) * 1_000_123_456), arrow.Timestamp(-day)},
			listVal{structVal{"k1", int32(i)}, structVal{nil, nil}, nil},
			listVal{listVal{int32(1), int32(i)}, listVal{}, nil},
			mapVal{{"zz", float64(i) + 0.5}, {"a", nil}, {"bb", 1e-3}},
			mapVal{{int32(i), fmt.Sprintf("v%d", i)}, {int32(-1), `"q"`}},
			mapVal{{"one", listVal{int64(1)}}, {"empty", listVal{}}},
		}
		for c := 1; c < len(row); c++ {
			if nullAt(i, c, n-1) {
				row[c] = nil
			}
		}
		return row
	}
	return oracleTable{
		name:   "nested",
		schema: sc,
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			return appendRows(ctx, tbl, genRows(0, n, gen))
		},
	}
}
