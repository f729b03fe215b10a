package scan

import (
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
)

func leafNode(phys format.Type, lt format.LogicalTypeValue, length int32) *pqNode {
	e := &format.SchemaElement{Name: "c", Type: thrift.New(phys)}
	if lt != nil {
		e.LogicalType = format.LogicalType{Value: lt}
	}
	if length > 0 {
		e.TypeLength = thrift.New(length)
	}
	return &pqNode{elem: e, name: "c", leaf: 0}
}

func decodeWith[T any](t *testing.T, n *pqNode, typ *catalog.PrimitiveType, v encoding.Values, count int) []T {
	t.Helper()
	r, err := newLeafReader(n, typ)
	if err != nil {
		t.Fatal(err)
	}
	fr, ok := r.(*flatReader[T])
	if !ok {
		t.Fatalf("reader for %s is %T", typ, r)
	}
	out, err := fr.decode.fn(v, count, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLeafConversions checks the physical -> Arrow conversions that the
// fixtures do not all exercise: time and timestamp units (floor towards
// negative infinity), negative big-endian decimals, widening promotions.
func TestLeafConversions(t *testing.T) {
	p := func(id catalog.TypeID) *catalog.PrimitiveType { return &catalog.PrimitiveType{ID: id} }
	millis := &format.TimeUnit{Value: &format.MilliSeconds{}}
	nanos := &format.TimeUnit{Value: &format.NanoSeconds{}}

	gotTime := decodeWith[arrow.Time64](t, leafNode(format.Int32, &format.TimeType{Unit: *millis}, 0), p(catalog.TTime),
		encoding.Int32Values([]int32{0, 45_296_789}), 2)
	if want := []arrow.Time64{0, 45_296_789_000}; !slices.Equal(gotTime, want) {
		t.Errorf("time millis -> micros = %v, want %v", gotTime, want)
	}
	gotTs := decodeWith[arrow.Timestamp](t, leafNode(format.Int64, &format.TimestampType{Unit: *nanos}, 0), p(catalog.TTimestamp),
		encoding.Int64Values([]int64{1_500, -1_500}), 2)
	if want := []arrow.Timestamp{1, -2}; !slices.Equal(gotTs, want) {
		t.Errorf("timestamp nanos -> micros = %v, want %v", gotTs, want)
	}
	gotNs := decodeWith[arrow.Timestamp](t, leafNode(format.Int64, &format.TimestampType{Unit: *millis}, 0), p(catalog.TTimestampNs),
		encoding.Int64Values([]int64{3}), 1)
	if want := []arrow.Timestamp{3_000_000}; !slices.Equal(gotNs, want) {
		t.Errorf("timestamp millis -> nanos = %v, want %v", gotNs, want)
	}
	dec := &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 20, Scale: 2}
	gotDec := decodeWith[decimal128.Num](t, leafNode(format.FixedLenByteArray, &format.DecimalType{Precision: 9, Scale: 2}, 3), dec,
		encoding.FixedLenByteArrayValues([]byte{0xff, 0xff, 0x85, 0x00, 0x01, 0x00}, 3), 2)
	if want := []decimal128.Num{decimal128.FromI64(-123), decimal128.FromI64(256)}; !slices.Equal(gotDec, want) {
		t.Errorf("decimal from FLBA = %v, want %v", gotDec, want)
	}
	gotDouble := decodeWith[float64](t, leafNode(format.Float, nil, 0), p(catalog.TDouble),
		encoding.FloatValues([]float32{1.5}), 1)
	if want := []float64{1.5}; !slices.Equal(gotDouble, want) {
		t.Errorf("float -> double = %v, want %v", gotDouble, want)
	}
}

// TestLeafIncompatible checks that reads the spec does not allow fail
// with ErrDataInvalid instead of producing wrong values.
func TestLeafIncompatible(t *testing.T) {
	cases := []struct {
		name string
		node *pqNode
		typ  *catalog.PrimitiveType
	}{
		{"date as timestamp", leafNode(format.Int32, &format.DateType{}, 0), &catalog.PrimitiveType{ID: catalog.TTimestamp}},
		{"long as int", leafNode(format.Int64, nil, 0), &catalog.PrimitiveType{ID: catalog.TInt}},
		{"double as float", leafNode(format.Double, nil, 0), &catalog.PrimitiveType{ID: catalog.TFloat}},
		{"string as date", leafNode(format.ByteArray, &format.StringType{}, 0), &catalog.PrimitiveType{ID: catalog.TDate}},
		{"fixed[8] as uuid", leafNode(format.FixedLenByteArray, nil, 8), &catalog.PrimitiveType{ID: catalog.TUUID}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := newLeafReader(c.node, c.typ)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, catalog.ErrDataInvalid) {
				t.Errorf("err = %v, want ErrDataInvalid", err)
			}
		})
	}
	scale := leafNode(format.Int64, &format.DecimalType{Precision: 10, Scale: 3}, 0)
	if _, err := newLeafReader(scale, &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 12, Scale: 2}); !errors.Is(err, catalog.ErrDataInvalid) {
		t.Errorf("decimal scale change: err = %v, want ErrDataInvalid", err)
	}
}
