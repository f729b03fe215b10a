package oracle

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/google/uuid"
)

// TestCanonicalText pins the canonicaliser to PostgreSQL's own output for
// each type (TimeZone UTC), so the oracle cannot drift into agreeing with
// a wrong server.
func TestCanonicalText(t *testing.T) {
	tsUTC := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	tsPlain := &arrow.TimestampType{Unit: arrow.Microsecond}
	listOf := func(dt arrow.DataType) arrow.DataType { return arrow.ListOf(dt) }
	tests := []struct {
		name string
		dt   arrow.DataType
		v    any
		want string
	}{
		{"bool", arrow.FixedWidthTypes.Boolean, true, "t"},
		{"int min", arrow.PrimitiveTypes.Int32, int32(math.MinInt32), "-2147483648"},
		{"float4 short", arrow.PrimitiveTypes.Float32, float32(1.1), "1.1"},
		{"float4 exponent", arrow.PrimitiveTypes.Float32, float32(1234567), "1.234567e+06"},
		{"float4 fixed", arrow.PrimitiveTypes.Float32, float32(123456), "123456"},
		{"float4 small", arrow.PrimitiveTypes.Float32, float32(1e-7), "1e-07"},
		{"float4 max", arrow.PrimitiveTypes.Float32, float32(math.MaxFloat32), "3.4028235e+38"},
		{"float8 sum", arrow.PrimitiveTypes.Float64, inexactSum(), "0.30000000000000004"},
		{"float8 1e15", arrow.PrimitiveTypes.Float64, 1e15, "1e+15"},
		{"float8 below 1e15", arrow.PrimitiveTypes.Float64, 1e14 + 0.5, "100000000000000.5"},
		{"float8 1e-4", arrow.PrimitiveTypes.Float64, 0.0001, "0.0001"},
		{"float8 1e-5", arrow.PrimitiveTypes.Float64, 0.00001, "1e-05"},
		{"float8 denormal", arrow.PrimitiveTypes.Float64, 5e-324, "5e-324"},
		{"float8 -0", arrow.PrimitiveTypes.Float64, math.Copysign(0, -1), "-0"},
		{"float8 NaN", arrow.PrimitiveTypes.Float64, math.NaN(), "NaN"},
		{"float8 -inf", arrow.PrimitiveTypes.Float64, math.Inf(-1), "-Infinity"},
		{"numeric scale", &arrow.Decimal128Type{Precision: 12, Scale: 3}, decimal128.FromI64(5), "0.005"},
		{"numeric negative", &arrow.Decimal128Type{Precision: 12, Scale: 3}, decimal128.FromI64(-1234), "-1.234"},
		{"numeric zero", &arrow.Decimal128Type{Precision: 12, Scale: 3}, decimal128.FromI64(0), "0.000"},
		{"numeric scale 0", &arrow.Decimal128Type{Precision: 5, Scale: 0}, decimal128.FromI64(-42), "-42"},
		{"date first", arrow.FixedWidthTypes.Date32, arrow.Date32(-719162), "0001-01-01"},
		{"date before epoch", arrow.FixedWidthTypes.Date32, arrow.Date32(-1), "1969-12-31"},
		{"time last", arrow.FixedWidthTypes.Time64us, arrow.Time64(86_399_999_999), "23:59:59.999999"},
		{"time fraction", arrow.FixedWidthTypes.Time64us, arrow.Time64(1_500_000), "00:00:01.5"},
		{"timestamp before epoch", tsPlain, arrow.Timestamp(-1), "1969-12-31 23:59:59.999999"},
		{"timestamp whole", tsPlain, arrow.Timestamp(86_400_000_000), "1970-01-02 00:00:00"},
		{"timestamptz", tsUTC, arrow.Timestamp(1_700_000_000_120_000), "2023-11-14 22:13:20.12+00"},
		{"text", arrow.BinaryTypes.String, `a"b\c`, `a"b\c`},
		{"bytea", arrow.BinaryTypes.Binary, []byte{0xde, 0xad}, `\xdead`},
		{"bytea empty", arrow.BinaryTypes.Binary, []byte{}, `\x`},
		{"uuid", extensions.NewUUIDType(), uuid.MustParse("550E8400-E29B-41D4-A716-446655440000"), "550e8400-e29b-41d4-a716-446655440000"},
		{"int array", listOf(arrow.PrimitiveTypes.Int64), listVal{int64(1), nil, int64(-3)}, "{1,NULL,-3}"},
		{"empty array", listOf(arrow.PrimitiveTypes.Int64), listVal{}, "{}"},
		{"text array quoting", listOf(arrow.BinaryTypes.String), listVal{"", "null", "a b", `q"`, `b\`, "{x}", "a,b", "plain"},
			`{"","null","a b","q\"","b\\","{x}","a,b",plain}`},
		{"timestamp array", listOf(tsPlain), listVal{arrow.Timestamp(0)}, `{"1970-01-01 00:00:00"}`},
		{"struct as jsonb", arrow.StructOf(
			arrow.Field{Name: "bb", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "a", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "ab", Type: tsUTC, Nullable: true},
			arrow.Field{Name: "c", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		), structVal{int32(1), "x\ny", arrow.Timestamp(0), nil},
			`{"a": "x\ny", "c": null, "ab": "1970-01-01T00:00:00+00:00", "bb": 1}`},
		{"map as jsonb", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64),
			mapVal{{"k", 1e20}, {"j", math.NaN()}, {"i", 1.5e-5}}, `{"i": 0.000015, "j": "NaN", "k": 100000000000000000000}`},
		{"nested list as jsonb", listOf(listOf(arrow.PrimitiveTypes.Int32)),
			listVal{listVal{int32(1), nil}, listVal{}, nil}, `[[1, null], [], null]`},
		{"list of bytea", listOf(arrow.BinaryTypes.Binary), listVal{[]byte{1}}, `{"\\x01"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := arrow.NewSchema([]arrow.Field{{Name: "v", Type: tc.dt, Nullable: true}}, nil)
			rec, err := buildRecord(sc, [][]any{{tc.v}, {nil}})
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			defer rec.Release()
			got, err := pgText(rec.Column(0), 0)
			if err != nil {
				t.Fatalf("pgText: %v", err)
			}
			if got.null || got.text != tc.want {
				t.Errorf("pgText = %s, want %q", got, tc.want)
			}
			if null, err := pgText(rec.Column(0), 1); err != nil || !null.null {
				t.Errorf("pgText of NULL = %v, %v; want NULL", null, err)
			}
		})
	}
}
