package catalog

import (
	"errors"
	"math"
	"math/big"
	"testing"
)

func TestDecodeValue(t *testing.T) {
	u := [16]byte{0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd, 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7}
	for _, tc := range []struct {
		name string
		typ  PrimitiveType
		in   []byte
		want any
	}{
		{"true", PrimitiveType{ID: TBoolean}, []byte{1}, true},
		{"false", PrimitiveType{ID: TBoolean}, []byte{0}, false},
		{"int", PrimitiveType{ID: TInt}, []byte{0xfe, 0xff, 0xff, 0xff}, int32(-2)},
		{"date", PrimitiveType{ID: TDate}, []byte{0x39, 0x30, 0, 0}, int32(12345)},
		{"long", PrimitiveType{ID: TLong}, []byte{1, 0, 0, 0, 0, 0, 0, 0x80}, int64(math.MinInt64 + 1)},
		{"long promoted from int", PrimitiveType{ID: TLong}, []byte{0xff, 0xff, 0xff, 0xff}, int64(-1)},
		{"time", PrimitiveType{ID: TTime}, []byte{0x39, 0x30, 0, 0, 0, 0, 0, 0}, int64(12345)},
		{"timestamptz", PrimitiveType{ID: TTimestamptz}, []byte{0x39, 0x30, 0, 0, 0, 0, 0, 0}, int64(12345)},
		{"timestamp_ns", PrimitiveType{ID: TTimestampNs}, []byte{0x39, 0x30, 0, 0, 0, 0, 0, 0}, int64(12345)},
		{"float", PrimitiveType{ID: TFloat}, []byte{0, 0, 0x10, 0x40}, float32(2.25)},
		{"double", PrimitiveType{ID: TDouble}, []byte{0, 0, 0, 0, 0, 0, 0x03, 0x40}, 2.375},
		{"double promoted from float", PrimitiveType{ID: TDouble}, []byte{0, 0, 0x10, 0x40}, 2.25},
		{"decimal", PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, []byte{0x01, 0x2c}, Decimal{Unscaled: big.NewInt(300), Scale: 2}},
		{"negative decimal", PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, []byte{0xff, 0x38}, Decimal{Unscaled: big.NewInt(-200), Scale: 2}},
		{"string", PrimitiveType{ID: TString}, []byte("héllo"), "héllo"},
		{"empty string", PrimitiveType{ID: TString}, []byte{}, ""},
		{"uuid", PrimitiveType{ID: TUUID}, u[:], u},
		{"fixed", PrimitiveType{ID: TFixed, Length: 3}, []byte{1, 2, 3}, []byte{1, 2, 3}},
		{"binary", PrimitiveType{ID: TBinary}, []byte{0xff}, []byte{0xff}},
	} {
		got, err := DecodeValue(&tc.typ, tc.in)
		if err != nil || !ValuesEqual(got, tc.want) {
			t.Errorf("%s: got %#v, %v; want %#v", tc.name, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		typ  PrimitiveType
		in   []byte
		want error
	}{
		{"short int", PrimitiveType{ID: TInt}, []byte{1, 2}, ErrDataInvalid},
		{"long boolean", PrimitiveType{ID: TBoolean}, []byte{1, 0}, ErrDataInvalid},
		{"short uuid", PrimitiveType{ID: TUUID}, []byte{1}, ErrDataInvalid},
		{"empty decimal", PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, nil, ErrDataInvalid},
		{"variant", PrimitiveType{ID: TVariant}, []byte{1}, ErrUnsupported},
	} {
		if _, err := DecodeValue(&tc.typ, tc.in); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestDecodeBoundsFromManifest decodes real lower bounds of a data file of
// every primitive type the fixture partitions by.
func TestDecodeBoundsFromManifest(t *testing.T) {
	tbl := loadFixture(t, "lithium__identity_partitioning")
	tasks := planCurrent(t, tbl)
	schema := tbl.Metadata.CurrentSchema()
	var decoded int
	for _, task := range tasks {
		for id, b := range task.File.LowerBounds {
			f := schema.FindField(id)
			if f == nil || Primitive(f.Type) == nil {
				continue
			}
			if _, err := DecodeValue(Primitive(f.Type), b); err != nil {
				t.Errorf("field %d (%s): %v", id, f.Type, err)
			}
			decoded++
		}
	}
	if decoded == 0 {
		t.Fatal("no bounds decoded")
	}
}
