package scan

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
)

// leafReader reads one Parquet leaf column converted to an Iceberg type.
type leafReader interface {
	start(pages parquet.Pages)
	close()
	// read appends the next n rows of a flat column to b.
	read(b array.Builder, n int) error
	// readEntries reads the level entries of the next n rows.
	readEntries(n int, rows [][]leafEntry, vals bool) ([][]leafEntry, error)
	cursor() *leafCursor
	// sinkDefs makes read record each row's definition level in dst.
	sinkDefs(dst *[]byte)
	// readList appends the next n rows of a list of primitives.
	readList(lb *array.ListBuilder, n int, listDef, elemDef int) error
}

func (r *flatReader[T]) cursor() *leafCursor  { return &r.cur }
func (r *flatReader[T]) sinkDefs(dst *[]byte) { r.defSink = dst }

func newFlat[T any](fn func(v encoding.Values, count int, dst []T) ([]T, error), copies bool,
	app func(b array.Builder, v []T, valid []bool)) leafReader {
	return &flatReader[T]{decode: valueDecoder[T]{fn: fn, copies: copies}, appendTo: app}
}

// castSlice reinterprets a slice of one fixed-size type as another of the
// same size and layout (int32 as arrow.Date32...).
func castSlice[To, From any](s []From) []To {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*To)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// timeUnit is a Parquet time or timestamp unit as nanoseconds per tick.
func timeUnit(e *format.SchemaElement) int64 {
	var u format.TimeUnitValue
	switch lt := e.LogicalType.Value.(type) {
	case *format.TimestampType:
		u = lt.Unit.Value
	case *format.TimeType:
		u = lt.Unit.Value
	}
	switch u.(type) {
	case *format.MilliSeconds:
		return 1e6
	case *format.MicroSeconds:
		return 1e3
	case *format.NanoSeconds:
		return 1
	}
	if e.ConvertedType.Valid {
		switch e.ConvertedType.V {
		case deprecated.TimestampMillis, deprecated.TimeMillis:
			return 1e6
		}
	}
	return 1e3
}

// fileDecimalScale returns the scale a decimal column was written with.
func fileDecimalScale(e *format.SchemaElement) (int, bool) {
	if d, ok := e.LogicalType.Value.(*format.DecimalType); ok {
		return int(d.Scale), true
	}
	if e.ConvertedType.Valid && e.ConvertedType.V == deprecated.Decimal {
		return int(e.Scale.V), true
	}
	return 0, false
}

// newLeafReader returns the reader that converts the leaf column n to the
// Iceberg primitive type t (promotions included).
func newLeafReader(n *pqNode, t *catalog.PrimitiveType) (leafReader, error) {
	e := n.elem
	phys := e.Type.V
	bad := func() error {
		return fmt.Errorf("parquet column %q of physical type %s cannot be read as %s: %w", n.name, phys, t, catalog.ErrDataInvalid)
	}
	switch t.ID {
	case catalog.TBoolean:
		if phys != format.Boolean {
			return nil, bad()
		}
		return newFlat(decodeBool, true, func(b array.Builder, v []bool, valid []bool) {
			b.(*array.BooleanBuilder).AppendValues(v, valid)
		}), nil
	case catalog.TInt:
		if phys != format.Int32 {
			return nil, bad()
		}
		return newFixed(func(v encoding.Values, _ int, _ []int32) ([]int32, error) { return v.Int32(), nil }, false,
			func(b array.Builder, v []int32, valid []bool) { b.(*array.Int32Builder).AppendValues(v, valid) }), nil
	case catalog.TLong:
		app := func(b array.Builder, v []int64, valid []bool) { b.(*array.Int64Builder).AppendValues(v, valid) }
		switch phys {
		case format.Int64:
			return newFixed(func(v encoding.Values, _ int, _ []int64) ([]int64, error) { return v.Int64(), nil }, false, app), nil
		case format.Int32:
			return newFixed(widenInt32, true, app), nil
		}
		return nil, bad()
	case catalog.TFloat:
		if phys != format.Float {
			return nil, bad()
		}
		return newFixed(func(v encoding.Values, _ int, _ []float32) ([]float32, error) { return v.Float(), nil }, false,
			func(b array.Builder, v []float32, valid []bool) { b.(*array.Float32Builder).AppendValues(v, valid) }), nil
	case catalog.TDouble:
		app := func(b array.Builder, v []float64, valid []bool) { b.(*array.Float64Builder).AppendValues(v, valid) }
		switch phys {
		case format.Double:
			return newFixed(func(v encoding.Values, _ int, _ []float64) ([]float64, error) { return v.Double(), nil }, false, app), nil
		case format.Float:
			return newFixed(widenFloat, true, app), nil
		}
		return nil, bad()
	case catalog.TDecimal:
		if s, ok := fileDecimalScale(e); ok && s != t.Scale {
			return nil, fmt.Errorf("parquet column %q has decimal scale %d, the table says %s: %w", n.name, s, t, catalog.ErrDataInvalid)
		}
		app := func(b array.Builder, v []decimal128.Num, valid []bool) {
			b.(*array.Decimal128Builder).AppendValues(v, valid)
		}
		switch phys {
		case format.Int32:
			return newFixed(decimalFromInt32, true, app), nil
		case format.Int64:
			r := newFixed(decimalFromInt64, true, app)
			r.(*flatReader[decimal128.Num]).widen64 = widenDecimals
			return r, nil
		case format.FixedLenByteArray, format.ByteArray:
			return newFixed(decimalFromBytes, true, app), nil
		}
		return nil, bad()
	case catalog.TDate:
		if phys != format.Int32 {
			return nil, bad()
		}
		return newFixed(func(v encoding.Values, _ int, _ []arrow.Date32) ([]arrow.Date32, error) {
			return castSlice[arrow.Date32](v.Int32()), nil
		}, false, func(b array.Builder, v []arrow.Date32, valid []bool) {
			b.(*array.Date32Builder).AppendValues(v, valid)
		}), nil
	case catalog.TTime:
		app := func(b array.Builder, v []arrow.Time64, valid []bool) { b.(*array.Time64Builder).AppendValues(v, valid) }
		unit := timeUnit(e)
		switch {
		case phys == format.Int32: // TIME(MILLIS)
			return newFixed(func(v encoding.Values, _ int, dst []arrow.Time64) ([]arrow.Time64, error) {
				for _, x := range v.Int32() {
					dst = append(dst, arrow.Time64(int64(x)*1000))
				}
				return dst, nil
			}, true, app), nil
		case phys == format.Int64 && unit == 1e3:
			return newFixed(func(v encoding.Values, _ int, _ []arrow.Time64) ([]arrow.Time64, error) {
				return castSlice[arrow.Time64](v.Int64()), nil
			}, false, app), nil
		case phys == format.Int64:
			return newFixed(func(v encoding.Values, _ int, dst []arrow.Time64) ([]arrow.Time64, error) {
				return appendScaled(dst, v.Int64(), unit, 1e3), nil
			}, true, app), nil
		}
		return nil, bad()
	case catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs:
		want := int64(1e3)
		if t.ID == catalog.TTimestampNs || t.ID == catalog.TTimestamptzNs {
			want = 1
		}
		app := func(b array.Builder, v []arrow.Timestamp, valid []bool) {
			b.(*array.TimestampBuilder).AppendValues(v, valid)
		}
		switch phys {
		case format.Int64:
			unit := timeUnit(e)
			if unit == want {
				return newFixed(func(v encoding.Values, _ int, _ []arrow.Timestamp) ([]arrow.Timestamp, error) {
					return castSlice[arrow.Timestamp](v.Int64()), nil
				}, false, app), nil
			}
			return newFixed(func(v encoding.Values, _ int, dst []arrow.Timestamp) ([]arrow.Timestamp, error) {
				return appendScaled(dst, v.Int64(), unit, want), nil
			}, true, app), nil
		case format.Int96:
			return newFixed(func(v encoding.Values, _ int, dst []arrow.Timestamp) ([]arrow.Timestamp, error) {
				for _, x := range v.Int96() {
					dst = append(dst, arrow.Timestamp(floorDiv(int96Nanos(x), want)))
				}
				return dst, nil
			}, true, app), nil
		}
		return nil, bad()
	case catalog.TString, catalog.TBinary, catalog.TGeometry, catalog.TGeography, catalog.TUnknown:
		app := func(b array.Builder, v [][]byte, valid []bool) {
			switch b := b.(type) {
			case *array.StringBuilder:
				b.BinaryBuilder.AppendValues(v, valid)
			case *array.BinaryBuilder:
				b.AppendValues(v, valid)
			}
		}
		switch phys {
		case format.ByteArray:
			return newFlat(decodeByteArray, true, app), nil
		case format.FixedLenByteArray:
			return newFlat(decodeFixed, true, app), nil
		}
		return nil, bad()
	case catalog.TUUID, catalog.TFixed:
		want := 16
		if t.ID == catalog.TFixed {
			want = t.Length
		}
		app := func(b array.Builder, v [][]byte, valid []bool) {
			b.(*array.FixedSizeBinaryBuilder).AppendValues(v, valid)
		}
		switch phys {
		case format.FixedLenByteArray:
			if int(e.TypeLength.V) != want {
				return nil, fmt.Errorf("parquet column %q has length %d, the table says %s: %w", n.name, e.TypeLength.V, t, catalog.ErrDataInvalid)
			}
			return newFlat(decodeFixed, true, app), nil
		case format.ByteArray:
			return newFlat(func(v encoding.Values, count int, dst [][]byte) ([][]byte, error) {
				dst, err := decodeByteArray(v, count, dst)
				for _, x := range dst {
					if len(x) != want {
						return nil, fmt.Errorf("parquet column %q holds a %d-byte value for %s", n.name, len(x), t)
					}
				}
				return dst, err
			}, true, app), nil
		}
		return nil, bad()
	case catalog.TVariant:
		return nil, errUnsupportedVariant(n.name)
	}
	return nil, bad()
}

func decodeBool(v encoding.Values, count int, dst []bool) ([]bool, error) {
	bits := v.Boolean()
	if len(bits)*8 < count {
		return nil, fmt.Errorf("boolean page holds %d bits, want %d", len(bits)*8, count)
	}
	for i := range count {
		dst = append(dst, bits[i>>3]&(1<<(i&7)) != 0)
	}
	return dst, nil
}

func widenInt32(v encoding.Values, _ int, dst []int64) ([]int64, error) {
	for _, x := range v.Int32() {
		dst = append(dst, int64(x))
	}
	return dst, nil
}

func widenFloat(v encoding.Values, _ int, dst []float64) ([]float64, error) {
	for _, x := range v.Float() {
		dst = append(dst, float64(x))
	}
	return dst, nil
}

func decimalFromInt32(v encoding.Values, _ int, dst []decimal128.Num) ([]decimal128.Num, error) {
	for _, x := range v.Int32() {
		dst = append(dst, decimal128.FromI64(int64(x)))
	}
	return dst, nil
}

func decimalFromInt64(v encoding.Values, _ int, dst []decimal128.Num) ([]decimal128.Num, error) {
	for _, x := range v.Int64() {
		dst = append(dst, decimal128.FromI64(x))
	}
	return dst, nil
}

func decimalFromBytes(v encoding.Values, count int, dst []decimal128.Num) ([]decimal128.Num, error) {
	var vals [][]byte
	var err error
	if v.Kind() == encoding.FixedLenByteArray {
		vals, err = decodeFixed(v, count, nil)
	} else {
		vals, err = decodeByteArray(v, count, nil)
	}
	if err != nil {
		return nil, err
	}
	for _, b := range vals {
		n, err := decimalFromBigEndian(b)
		if err != nil {
			return nil, err
		}
		dst = append(dst, n)
	}
	return dst, nil
}

// decimalFromBigEndian decodes a big-endian two's complement unscaled value.
func decimalFromBigEndian(b []byte) (decimal128.Num, error) {
	if len(b) > 16 {
		return decimal128.Num{}, fmt.Errorf("decimal of %d bytes does not fit 128 bits", len(b))
	}
	var buf [16]byte
	if len(b) > 0 && b[0]&0x80 != 0 {
		for i := range buf {
			buf[i] = 0xff
		}
	}
	copy(buf[16-len(b):], b)
	return decimal128.New(int64(binary.BigEndian.Uint64(buf[:8])), binary.BigEndian.Uint64(buf[8:])), nil
}

func decodeByteArray(v encoding.Values, count int, dst [][]byte) ([][]byte, error) {
	data, offs := v.ByteArray()
	if len(offs) < count+1 {
		return nil, fmt.Errorf("byte array page holds %d values, want %d", max(len(offs)-1, 0), count)
	}
	for i := range count {
		dst = append(dst, data[offs[i]:offs[i+1]:offs[i+1]])
	}
	return dst, nil
}

func decodeFixed(v encoding.Values, count int, dst [][]byte) ([][]byte, error) {
	data, size := v.FixedLenByteArray()
	if size <= 0 || len(data) < count*size {
		return nil, fmt.Errorf("fixed-length page holds %d bytes, want %d values", len(data), count)
	}
	for i := range count {
		dst = append(dst, data[i*size:(i+1)*size:(i+1)*size])
	}
	return dst, nil
}

// appendScaled converts ticks of from nanoseconds to ticks of to.
func appendScaled[T ~int64](dst []T, src []int64, from, to int64) []T {
	if from >= to {
		f := from / to
		for _, x := range src {
			dst = append(dst, T(x*f))
		}
		return dst
	}
	f := to / from
	for _, x := range src {
		dst = append(dst, T(floorDiv(x, f)))
	}
	return dst
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// julianUnixEpoch is the Julian day number of 1970-01-01.
const julianUnixEpoch = 2440588

// int96Nanos decodes a legacy INT96 timestamp (nanoseconds of the day, then
// the Julian day) into nanoseconds since the Unix epoch.
func int96Nanos(x deprecated.Int96) int64 {
	nanos := int64(uint64(x[1])<<32 | uint64(x[0]))
	days := int64(x[2]) - julianUnixEpoch
	return days*86400*1e9 + nanos
}
