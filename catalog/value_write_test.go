package catalog

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"testing"
)

// TestEncodeValueRoundTrip: EncodeValue is the inverse of DecodeValue.
func TestEncodeValueRoundTrip(t *testing.T) {
	u, _ := ParseUUID("123e4567-e89b-12d3-a456-426614174000")
	huge, _ := new(big.Int).SetString("-99999999999999999999999999999999999999", 10)
	p := func(id TypeID) *PrimitiveType { return &PrimitiveType{ID: id} }
	for _, tc := range []struct {
		t     *PrimitiveType
		v     any
		bytes []byte // expected encoding, when given
	}{
		{p(TBoolean), true, []byte{1}},
		{p(TInt), int32(-2), []byte{0xfe, 0xff, 0xff, 0xff}},
		{p(TLong), int64(1) << 40, nil},
		{p(TFloat), float32(1.5), nil},
		{p(TDouble), math.Inf(-1), nil},
		{p(TDate), int32(19000), nil},
		{p(TTimestamptzNs), int64(-5), nil},
		{p(TString), "héllo", []byte("héllo")},
		{p(TUUID), u, u[:]},
		{&PrimitiveType{ID: TFixed, Length: 2}, []byte{7, 8}, nil},
		{p(TBinary), []byte{}, nil},
		{&PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, Decimal{Unscaled: big.NewInt(-128), Scale: 2}, []byte{0x80}},
		{&PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, Decimal{Unscaled: big.NewInt(128), Scale: 2}, []byte{0x00, 0x80}},
		{&PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, Decimal{Unscaled: big.NewInt(0), Scale: 2}, []byte{0}},
		{&PrimitiveType{ID: TDecimal, Precision: 38, Scale: 0}, Decimal{Unscaled: huge, Scale: 0}, nil},
	} {
		b, err := EncodeValue(tc.t, tc.v)
		if err != nil {
			t.Errorf("%s %v: %v", tc.t, tc.v, err)
			continue
		}
		if tc.bytes != nil && !reflect.DeepEqual(b, tc.bytes) {
			t.Errorf("%s %v: bytes %x, want %x", tc.t, tc.v, b, tc.bytes)
		}
		back, err := DecodeValue(tc.t, b)
		if err != nil || !ValuesEqual(back, tc.v) {
			t.Errorf("%s %v: decoded %v, %v", tc.t, tc.v, back, err)
		}
	}
	if _, err := EncodeValue(p(TInt), "x"); !errors.Is(err, ErrDataInvalid) {
		t.Errorf("string as int: %v", err)
	}
	if got := TwosComplement(big.NewInt(-1), 4); !reflect.DeepEqual(got, []byte{0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("sign extension: %x", got)
	}
	for p, want := range map[int]int{1: 1, 2: 1, 3: 2, 9: 4, 10: 5, 18: 8, 19: 9, 38: 16} {
		if got := decimalBytes(p); got != want {
			t.Errorf("decimalBytes(%d) = %d, want %d", p, got, want)
		}
	}
}

// TestValueToJSONRoundTrip: ValueToJSON is the inverse of ValueFromJSON for
// every type a default may have.
func TestValueToJSONRoundTrip(t *testing.T) {
	u, _ := ParseUUID("123e4567-e89b-12d3-a456-426614174000")
	p := func(id TypeID) *PrimitiveType { return &PrimitiveType{ID: id} }
	st := &StructType{Fields: []NestedField{{ID: 5, Name: "a", Type: p(TInt)}, {ID: 6, Name: "b", Type: p(TString)}}}
	for _, tc := range []struct {
		t Type
		v any
	}{
		{p(TBoolean), false},
		{p(TInt), int32(7)},
		{p(TLong), int64(-1) << 62},
		{p(TFloat), float32(0.1)},
		{p(TDouble), 1e300},
		{&PrimitiveType{ID: TDecimal, Precision: 9, Scale: 3}, Decimal{Unscaled: big.NewInt(-5), Scale: 3}},
		{&PrimitiveType{ID: TDecimal, Precision: 9, Scale: 0}, Decimal{Unscaled: big.NewInt(42), Scale: 0}},
		{p(TDate), int32(-365)},
		{p(TTime), int64(3_723_000_004)},
		{p(TTimestamp), int64(1_700_000_000_123_456)},
		{p(TTimestamptz), int64(-1)},
		{p(TTimestampNs), int64(1_700_000_000_123_456_789)},
		{p(TTimestamptzNs), int64(5)},
		{p(TString), "x\"y"},
		{p(TUUID), u},
		{&PrimitiveType{ID: TFixed, Length: 2}, []byte{0xab, 0x01}},
		{p(TBinary), []byte{1}},
		{st, map[int]any{5: int32(1), 6: "s"}},
		{&ListType{ElementID: 7, Element: p(TLong)}, []any{int64(1), nil}},
		{&MapType{KeyID: 8, Key: p(TString), ValueID: 9, Value: p(TInt)}, MapValue{Keys: []any{"k"}, Values: []any{int32(2)}}},
	} {
		j, err := ValueToJSON(tc.t, tc.v)
		if err != nil {
			t.Errorf("%s %v: %v", tc.t, tc.v, err)
			continue
		}
		back, err := ValueFromJSON(tc.t, j)
		if err != nil || !reflect.DeepEqual(back, tc.v) {
			t.Errorf("%s %v: JSON %v back to %v (%v)", tc.t, tc.v, j, back, err)
		}
	}
	if _, err := ValueToJSON(p(TDouble), math.NaN()); !errors.Is(err, ErrDataInvalid) {
		t.Errorf("NaN default: %v", err)
	}
}

// TestEncodeManifestRejects: bad entries are ErrDataInvalid, unsupported
// partition types ErrUnsupported.
func TestEncodeManifestRejects(t *testing.T) {
	schema := partitionedSchema()
	spec := &PartitionSpec{ID: 1, Fields: []PartitionField{{SourceID: 2, FieldID: 1000, Name: "i", Transform: Transform{Name: "identity"}}}}
	file := func(part []any, content FileContent) []ManifestEntry {
		return []ManifestEntry{{Status: StatusAdded, File: &DataFile{Content: content, Path: "/x.parquet", Format: FormatParquet, Partition: part}}}
	}
	for _, tc := range []struct {
		name    string
		spec    *PartitionSpec
		entries []ManifestEntry
		want    error
	}{
		{"wrong partition arity", spec, file(nil, ContentData), ErrDataInvalid},
		{"wrong partition type", spec, file([]any{"x"}, ContentData), ErrDataInvalid},
		{"delete file in a data manifest", spec, file([]any{int32(1)}, ContentPositionDelete), ErrDataInvalid},
		{"nil file", spec, []ManifestEntry{{Status: StatusAdded}}, ErrDataInvalid},
		{"transform of a missing column", &PartitionSpec{Fields: []PartitionField{{SourceID: 99, FieldID: 1000, Name: "z", Transform: Transform{Name: "identity"}}}}, nil, ErrDataInvalid},
		{"unknown transform", &PartitionSpec{Fields: []PartitionField{{SourceID: 2, FieldID: 1000, Name: "z", Transform: Transform{Name: "zorder"}}}}, nil, ErrUnsupported},
		{"hour of a date", &PartitionSpec{Fields: []PartitionField{{SourceID: 7, FieldID: 1000, Name: "z", Transform: Transform{Name: "hour"}}}}, nil, ErrDataInvalid},
	} {
		_, _, err := EncodeManifest("/m.avro", 2, schema, tc.spec, ManifestData, 1, tc.entries)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	// An unpartitioned manifest has an empty partition record.
	if _, mf, err := EncodeManifest("/m.avro", 2, schema, &PartitionSpec{}, ManifestData, 1, file(nil, ContentData)); err != nil || len(mf.Partitions) != 0 {
		t.Errorf("unpartitioned manifest: %v, %+v", err, mf.Partitions)
	}
}
