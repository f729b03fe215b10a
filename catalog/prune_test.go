package catalog

import (
	"math"
	"math/big"
	"testing"
	"time"
)

// TestBucketHashSpecExamples checks the hash against the spec's examples
// (Appendix B).
func TestBucketHashSpecExamples(t *testing.T) {
	day := func(s string) int32 {
		tm, _ := time.Parse("2006-01-02", s)
		return int32(tm.Unix() / 86400)
	}
	uuid := [16]byte{0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd, 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7}
	for _, tc := range []struct {
		name string
		t    *PrimitiveType
		v    any
		want int32
	}{
		{"int", &PrimitiveType{ID: TInt}, int32(34), 2017239379},
		{"long", &PrimitiveType{ID: TLong}, int64(34), 2017239379},
		{"decimal", &PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, Decimal{Unscaled: big.NewInt(1420), Scale: 2}, -500754589},
		{"date", &PrimitiveType{ID: TDate}, day("2017-11-16"), -653330422},
		{"time", &PrimitiveType{ID: TTime}, int64(81068000000), -662762989},
		{"timestamp", &PrimitiveType{ID: TTimestamp}, int64(1510871468000000), -2047944441},
		{"timestamp_ns", &PrimitiveType{ID: TTimestampNs}, int64(1510871468000000999), -2047944441},
		{"string", &PrimitiveType{ID: TString}, "iceberg", 1210000089},
		{"uuid", &PrimitiveType{ID: TUUID}, uuid, 1488055340},
		{"binary", &PrimitiveType{ID: TBinary}, []byte{0, 1, 2, 3}, -188683207},
	} {
		h, ok := bucketHash(tc.t, tc.v)
		if !ok || int32(h) != tc.want {
			t.Errorf("%s: hash %d (ok %v), want %d", tc.name, int32(h), ok, tc.want)
		}
	}
	for _, n := range []int64{0, 1, -1, 127, 128, -128, -129, 255, 256, -32768, 1 << 40} {
		got := BigIntFromTwosComplement(minimalTwosComplement(big.NewInt(n)))
		if got.Int64() != n {
			t.Errorf("two's complement of %d round-trips to %s", n, got)
		}
	}
}

// TestTransformValues checks truncate and the time transforms, including
// values before 1970 (floored).
func TestTransformValues(t *testing.T) {
	ts := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMicro()
	}
	long := &PrimitiveType{ID: TLong}
	tsType := &PrimitiveType{ID: TTimestamptz}
	for _, tc := range []struct {
		t    *PrimitiveType
		tf   Transform
		v    any
		want any
	}{
		{&PrimitiveType{ID: TInt}, Transform{"truncate", 10}, int32(-1), int32(-10)},
		{&PrimitiveType{ID: TInt}, Transform{"truncate", 10}, int32(15), int32(10)},
		{long, Transform{"truncate", 10}, int64(-11), int64(-20)},
		{&PrimitiveType{ID: TString}, Transform{"truncate", 2}, "héllo", "hé"},
		{&PrimitiveType{ID: TDecimal, Scale: 2}, Transform{"truncate", 50}, Decimal{Unscaled: big.NewInt(-1), Scale: 2}, Decimal{Unscaled: big.NewInt(-50), Scale: 2}},
		{tsType, Transform{"year", 0}, ts("2024-03-01T00:00:00Z"), int32(54)},
		{tsType, Transform{"month", 0}, ts("2024-03-01T00:00:00Z"), int32(54*12 + 2)},
		{tsType, Transform{"day", 0}, ts("1969-12-31T23:59:59Z"), int32(-1)},
		{tsType, Transform{"hour", 0}, ts("1969-12-31T23:59:59Z"), int32(-1)},
		{tsType, Transform{"month", 0}, ts("1969-12-31T23:59:59Z"), int32(-1)},
		{&PrimitiveType{ID: TDate}, Transform{"month", 0}, int32(-1), int32(-1)},
		{&PrimitiveType{ID: TDate}, Transform{"year", 0}, int32(365), int32(1)},
	} {
		got, ok := transformValue(tc.t, tc.tf, tc.v)
		if !ok || !ValuesEqual(got, tc.want) {
			t.Errorf("%v of %v (%s): %v (ok %v), want %v", tc.tf, tc.v, tc.t, got, ok, tc.want)
		}
	}
}

// TestColumnBoundsMayMatch covers the inclusive rules on bounds, nulls,
// NaNs and inexact string upper bounds.
func TestColumnBoundsMayMatch(t *testing.T) {
	ints := ColumnBounds{Lo: int32(10), Hi: int32(20), HiExact: true}
	withNulls := ColumnBounds{Lo: int64(10), Hi: int64(20), MayNull: true}
	allNull := ColumnBounds{MayNull: true, AllNull: true}
	floats := ColumnBounds{Lo: 1.0, Hi: 2.0}
	floatsNaN := ColumnBounds{Lo: 1.0, Hi: 2.0, MayNaN: true}
	strs := ColumnBounds{Lo: "b", Hi: "m"}
	dec := func(n int64, s int) Decimal { return Decimal{Unscaled: big.NewInt(n), Scale: s} }
	decs := ColumnBounds{Lo: dec(150, 2), Hi: dec(250, 2)}
	inverted := ColumnBounds{Lo: dec(50, 1), Hi: dec(-50, 1)}
	for _, tc := range []struct {
		name string
		b    ColumnBounds
		op   string
		v    []any
		want bool
	}{
		{"eq below", ints, OpEq, []any{int32(9)}, false},
		{"eq low edge", ints, OpEq, []any{int64(10)}, true},
		{"eq above", ints, OpEq, []any{int32(21)}, false},
		{"lt low edge", ints, OpLt, []any{int32(10)}, false},
		{"lteq low edge", ints, OpLtEq, []any{int32(10)}, true},
		{"gt high edge", ints, OpGt, []any{int32(20)}, false},
		{"gteq high edge", ints, OpGtEq, []any{int32(20)}, true},
		{"in none", ints, OpIn, []any{int32(1), int32(30), nil}, false},
		{"in one", ints, OpIn, []any{int32(1), int32(15)}, true},
		{"noteq", ints, OpNotEq, []any{int32(15)}, true},
		{"isnull no nulls", ints, OpIsNull, nil, false},
		{"isnull nulls", withNulls, OpIsNull, nil, true},
		{"isnotnull", withNulls, OpIsNotNull, nil, true},
		{"all null eq", allNull, OpEq, []any{int32(1)}, false},
		{"all null noteq", allNull, OpNotEq, []any{int32(1)}, false},
		{"all null isnotnull", allNull, OpIsNotNull, nil, false},
		{"all null isnull", allNull, OpIsNull, nil, true},
		{"float gt", floats, OpGt, []any{2.5}, false},
		{"float gt NaN present", floatsNaN, OpGt, []any{2.5}, true},
		{"float lt NaN present", floatsNaN, OpLt, []any{0.5}, false},
		{"float eq NaN", floats, OpEq, []any{math.NaN()}, true},
		{"string eq prefix of inexact upper", strs, OpEq, []any{"mz"}, true},
		{"string eq above", strs, OpEq, []any{"n"}, false},
		{"string gt prefix", strs, OpGt, []any{"m"}, true},
		{"string gt above", strs, OpGt, []any{"n"}, false},
		{"string lt", strs, OpLt, []any{"b"}, false},
		{"decimal other scale", decs, OpEq, []any{dec(3, 0)}, false},
		{"decimal inside", decs, OpEq, []any{dec(2, 0)}, true},
		{"inverted bounds kept", inverted, OpEq, []any{dec(0, 1)}, true},
		{"mismatched kinds kept", ints, OpEq, []any{"x"}, true},
	} {
		if got := tc.b.MayMatch(tc.op, tc.v); got != tc.want {
			t.Errorf("%s: MayMatch(%s %v) = %v, want %v", tc.name, tc.op, tc.v, got, tc.want)
		}
	}
}

// TestProjectPredicate checks inclusive projections: every source value
// matching the predicate has a transformed value matching the projection.
func TestProjectPredicate(t *testing.T) {
	long := &PrimitiveType{ID: TLong}
	tsType := &PrimitiveType{ID: TTimestamp}
	hour := int64(time.Hour / time.Microsecond)
	transforms := []struct {
		t  *PrimitiveType
		tf Transform
	}{
		{long, Transform{"identity", 0}}, {long, Transform{"bucket", 7}}, {long, Transform{"truncate", 10}},
		{tsType, Transform{"hour", 0}}, {tsType, Transform{"day", 0}}, {tsType, Transform{"month", 0}},
		{tsType, Transform{"year", 0}}, {long, Transform{"void", 0}},
	}
	var sample []int64
	for i := int64(-40); i <= 40; i++ {
		sample = append(sample, i*7, i*hour*13+i)
	}
	ops := []string{OpEq, OpLt, OpLtEq, OpGt, OpGtEq, OpIn, OpNotEq}
	for _, tr := range transforms {
		for _, op := range ops {
			for _, c := range sample {
				p := Predicate{FieldID: 1, Op: op, Values: []any{c}}
				if op == OpIn {
					p.Values = []any{c, c + 3*hour}
				}
				q, ok := projectPredicate(p, tr.t, tr.tf)
				if !ok {
					continue
				}
				for _, x := range sample {
					if !sourceMatches(p, x) {
						continue
					}
					w, ok := transformValue(tr.t, tr.tf, x)
					if !ok {
						t.Fatalf("%v of %d", tr.tf, x)
					}
					if b := exactBounds(w); !b.MayMatch(q.Op, q.Values) {
						t.Errorf("%v: x=%d matches %s %v but partition %v fails projection %s %v", tr.tf, x, op, p.Values, w, q.Op, q.Values)
					}
				}
			}
		}
	}
}

func sourceMatches(p Predicate, x int64) bool {
	for _, v := range p.Values {
		c := v.(int64)
		switch p.Op {
		case OpEq, OpIn:
			if x == c {
				return true
			}
		case OpNotEq:
			return x != c
		case OpLt:
			return x < c
		case OpLtEq:
			return x <= c
		case OpGt:
			return x > c
		case OpGtEq:
			return x >= c
		}
	}
	return false
}

// TestPrunableType finds predicate columns inside structs but not inside
// lists or maps (whose metrics count elements, not rows).
func TestPrunableType(t *testing.T) {
	long := &PrimitiveType{ID: TLong}
	m := &TableMetadata{CurrentSchemaID: 1, Schemas: []*Schema{
		{ID: 0, Fields: []NestedField{{ID: 9, Name: "dropped", Type: &PrimitiveType{ID: TString}}}},
		{ID: 1, Fields: []NestedField{
			{ID: 1, Name: "id", Type: long},
			{ID: 2, Name: "s", Type: &StructType{Fields: []NestedField{{ID: 3, Name: "x", Type: long}}}},
			{ID: 4, Name: "l", Type: &ListType{ElementID: 5, Element: long}},
			{ID: 6, Name: "m", Type: &MapType{KeyID: 7, Key: long, ValueID: 8, Value: long}},
		}},
	}}
	for _, tc := range []struct {
		id   int
		want TypeID
	}{{1, TLong}, {3, TLong}, {2, 0}, {5, 0}, {7, 0}, {8, 0}, {9, TString}, {42, 0}} {
		got := prunableType(m, tc.id)
		if (got == nil) != (tc.want == 0) || (got != nil && got.ID != tc.want) {
			t.Errorf("field %d: %v, want type %d", tc.id, got, tc.want)
		}
	}
}
