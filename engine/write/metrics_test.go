package write

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

func i32(v int32) []byte   { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
func f32(v float32) []byte { return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)) }
func f64(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }

func bigBytes(s string) []byte {
	n, _ := new(big.Int).SetString(s, 10)
	b := n.Bytes()
	if len(b) == 0 || b[0]&0x80 != 0 {
		b = append([]byte{0}, b...)
	}
	return b
}

// TestMetricsEveryType checks the metrics of the every-type file (its four
// rows written twice) against counts and bounds worked out by hand.
func TestMetricsEveryType(t *testing.T) {
	schema := allTypes()
	rec := recordFromJSON(t, schema, allTypesRows)
	defer rec.Release()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema}, rec, rec)
	df := files[0]
	type want struct {
		values, nulls int64
		nans          int64 // -1: no NaN count kept
		lower, upper  []byte
	}
	day := func(y, m, d int) []byte {
		return i32(daysOf(y, m, d))
	}
	cases := map[int]want{
		1:  {8, 2, -1, []byte{0}, []byte{1}},
		2:  {8, 0, -1, i32(-3), i32(4)},
		3:  {8, 2, -1, binary.LittleEndian.AppendUint64(nil, uint64(0xffffffffffffffe2)), binary.LittleEndian.AppendUint64(nil, math.MaxInt64)},
		4:  {8, 0, 2, f32(-0.5), f32(3.25)},
		5:  {8, 2, 2, f64(-1e300), f64(2.25)},
		6:  {8, 2, -1, []byte{0xff}, bigBytes("999999999")},
		7:  {8, 2, -1, []byte{0xf8, 0xa4, 0x32, 0xeb}, bigBytes("999999999999999999")}, // -123456789
		8:  {8, 2, -1, []byte{0xff}, bigBytes("12345678901234567890123456780123456789")},
		9:  {8, 2, -1, i32(-1), day(2024, 2, 29)},
		13: {8, 2, -1, []byte(""), []byte("ünïcödé ✓")},
		14: {8, 2, -1, make([]byte, 16), bytes.Repeat([]byte{0xff}, 16)},
		15: {8, 2, -1, []byte{0, 1, 2}, []byte{0xff, 0xff, 0xff}},
		16: {8, 2, -1, []byte{}, []byte{0xff}},
		20: {8, 4, -1, i32(1), i32(7)},
		21: {8, 2, -1, []byte(""), []byte("yy")},
		// list<long>: [1,2,null], null, [], [null]: 6 level entries, 4 of
		// them null; no bounds inside lists
		22: {12, 8, -1, nil, nil},
		23: {10, 4, -1, nil, nil},
		24: {10, 6, 2, nil, nil},
	}
	for id, w := range cases {
		if got := df.ValueCounts[id]; got != w.values {
			t.Errorf("field %d: value count = %d, want %d", id, got, w.values)
		}
		if got := df.NullValueCounts[id]; got != w.nulls {
			t.Errorf("field %d: null count = %d, want %d", id, got, w.nulls)
		}
		got, ok := df.NaNValueCounts[id]
		if w.nans < 0 && ok || w.nans >= 0 && got != w.nans {
			t.Errorf("field %d: NaN count = %d (present %v), want %d", id, got, ok, w.nans)
		}
		if lo, ok := df.LowerBounds[id]; !bytes.Equal(lo, w.lower) || ok != (w.lower != nil) {
			t.Errorf("field %d: lower = %x, want %x", id, lo, w.lower)
		}
		if hi, ok := df.UpperBounds[id]; !bytes.Equal(hi, w.upper) || ok != (w.upper != nil) {
			t.Errorf("field %d: upper = %x, want %x", id, hi, w.upper)
		}
		if df.ColumnSizes[id] <= 0 {
			t.Errorf("field %d: column size = %d", id, df.ColumnSizes[id])
		}
	}
	// every bound decodes as its type
	for id, b := range df.LowerBounds {
		f := schema.FindField(id)
		if _, err := catalog.DecodeValue(catalog.Primitive(f.Type), b); err != nil {
			t.Errorf("field %d: lower bound does not decode: %v", id, err)
		}
	}
	if len(df.SplitOffsets) != 1 || df.SplitOffsets[0] != 4 {
		t.Errorf("split offsets = %v, want [4]", df.SplitOffsets)
	}
}

func daysOf(y, m, d int) int32 {
	days := int32(0)
	for yy := 1970; yy < y; yy++ {
		days += 365
		if yy%4 == 0 && (yy%100 != 0 || yy%400 == 0) {
			days++
		}
	}
	mdays := []int32{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		mdays[1] = 29
	}
	for mm := 1; mm < m; mm++ {
		days += mdays[mm-1]
	}
	return days + int32(d-1)
}

// TestMetricsModes checks the write.metadata.metrics.* properties.
func TestMetricsModes(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "s", Type: prim(catalog.TString)},
		{ID: 2, Name: "b", Type: prim(catalog.TBinary)},
		{ID: 3, Name: "n", Type: prim(catalog.TLong)},
		{ID: 4, Name: "t", Type: prim(catalog.TString)},
	}}
	long := strings.Repeat("a", 20) + "Z"
	rows := `[{"s": "` + long + `", "b": "` + "////////////////////////////" + `", "n": 5, "t": "` + strings.Repeat("\U0010FFFF", 20) + `"},
	          {"s": "abc", "b": "AAE=", "n": 7, "t": null}]`
	rec := recordFromJSON(t, schema, rows)
	defer rec.Release()
	type bounds struct {
		counts       bool
		lower, upper []byte
	}
	maxRunes := []byte(strings.Repeat("\U0010FFFF", 16))
	tests := []struct {
		name  string
		props map[string]string
		want  map[int]bounds
	}{
		{"default truncate(16)", nil, map[int]bounds{
			1: {true, []byte(strings.Repeat("a", 16)), []byte("abc")},
			2: {true, []byte{0, 1}, nil}, // 21 bytes of ff: truncated, cannot be rounded up
			3: {true, i64(5), i64(7)},
			4: {true, maxRunes, nil}, // no code point can be incremented
		}},
		{"full and per column", map[string]string{
			"write.metadata.metrics.default":  "full",
			"write.metadata.metrics.column.n": "none",
			"write.metadata.metrics.column.b": "truncate(2)",
			"write.metadata.metrics.column.t": "counts",
		}, map[int]bounds{
			1: {true, []byte(long), []byte("abc")},
			2: {true, []byte{0, 1}, nil}, // ff ff cannot be rounded up
			3: {false, nil, nil},
			4: {true, nil, nil},
		}},
		{"max inferred columns", map[string]string{
			"write.metadata.metrics.max-inferred-column-defaults": "2",
		}, map[int]bounds{
			1: {true, []byte(strings.Repeat("a", 16)), []byte("abc")},
			3: {false, nil, nil},
			4: {false, nil, nil},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema, Properties: tc.props}, rec)
			df := files[0]
			for id, w := range tc.want {
				_, hasCount := df.ValueCounts[id]
				_, hasSize := df.ColumnSizes[id]
				if hasCount != w.counts || hasSize != w.counts {
					t.Errorf("field %d: counts present = %v, size present = %v, want %v", id, hasCount, hasSize, w.counts)
				}
				lo, hasLo := df.LowerBounds[id]
				if !bytes.Equal(lo, w.lower) || hasLo != (w.lower != nil) {
					t.Errorf("field %d: lower = %x, want %x", id, lo, w.lower)
				}
				hi, hasHi := df.UpperBounds[id]
				if !bytes.Equal(hi, w.upper) || hasHi != (w.upper != nil) {
					t.Errorf("field %d: upper = %x, want %x", id, hi, w.upper)
				}
			}
		})
	}
	_, err := NewWriter(t.Context(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema,
		Properties: map[string]string{"write.metadata.metrics.column.s": "truncate(x)"}})
	wantCode(t, err, pgerr.InvalidParameterValue)
}

func i64(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }
