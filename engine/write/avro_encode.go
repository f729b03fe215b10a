package write

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
)

// avroEncoder appends the Avro binary encoding of row i of an Arrow column
// (typed per engine.ArrowType of the field) to dst.
type avroEncoder func(dst []byte, arr arrow.Array, i int) ([]byte, error)

// newAvroEncoder builds the encoder of a field of type t; optional fields
// are the union ["null", t].
func newAvroEncoder(t catalog.Type, name string, required bool) (avroEncoder, error) {
	enc, err := avroValueEncoder(t, name)
	if err != nil {
		return nil, err
	}
	if required {
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			if arr.IsNull(i) {
				return nil, notNullViolation(name)
			}
			return enc(dst, arr, i)
		}, nil
	}
	return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
		if arr.IsNull(i) {
			return append(dst, 0), nil // union branch 0: null
		}
		return enc(append(dst, 2), arr, i) // branch 1, zig-zag encoded
	}, nil
}

func avroValueEncoder(t catalog.Type, name string) (avroEncoder, error) {
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		return avroPrimitiveEncoder(t, name)
	case *catalog.StructType:
		encs := make([]avroEncoder, len(t.Fields))
		for k, f := range t.Fields {
			e, err := newAvroEncoder(f.Type, name+"."+f.Name, f.Required)
			if err != nil {
				return nil, err
			}
			encs[k] = e
		}
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			sa := arr.(*array.Struct)
			var err error
			for k, e := range encs {
				if dst, err = e(dst, sa.Field(k), i); err != nil {
					return nil, err
				}
			}
			return dst, nil
		}, nil
	case *catalog.ListType:
		elem, err := newAvroEncoder(t.Element, name+".element", t.ElementRequired)
		if err != nil {
			return nil, err
		}
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			la := arr.(*array.List)
			start, end := la.ValueOffsets(i)
			if end > start {
				dst = binary.AppendVarint(dst, end-start)
				vals := la.ListValues()
				for j := start; j < end; j++ {
					if dst, err = elem(dst, vals, int(j)); err != nil {
						return nil, err
					}
				}
			}
			return append(dst, 0), nil
		}, nil
	case *catalog.MapType:
		key, err := newAvroEncoder(t.Key, name+".key", true)
		if err != nil {
			return nil, err
		}
		val, err := newAvroEncoder(t.Value, name+".value", t.ValueRequired)
		if err != nil {
			return nil, err
		}
		// An Avro map's entries and the key/value records of the array
		// form encode the same way: key then value.
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			ma := arr.(*array.Map)
			start, end := ma.ValueOffsets(i)
			if end > start {
				dst = binary.AppendVarint(dst, end-start)
				keys, items := ma.Keys(), ma.Items()
				for j := start; j < end; j++ {
					if dst, err = key(dst, keys, int(j)); err != nil {
						return nil, err
					}
					if dst, err = val(dst, items, int(j)); err != nil {
						return nil, err
					}
				}
			}
			return append(dst, 0), nil
		}, nil
	}
	return nil, fmt.Errorf("write column %q of type %s to Avro", name, t)
}

func avroPrimitiveEncoder(p *catalog.PrimitiveType, name string) (avroEncoder, error) {
	mismatch := func(arr arrow.Array) error {
		return fmt.Errorf("write column %q of type %s to Avro from Arrow %s", name, p, arr.DataType())
	}
	switch p.ID {
	case catalog.TDecimal:
		n := decimalFixedLength(p.Precision)
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			a, ok := arr.(*array.Decimal128)
			if !ok {
				return nil, mismatch(arr)
			}
			return decimalFixedBytes(dst, a.Value(i), n), nil
		}, nil
	case catalog.TUUID, catalog.TFixed:
		return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
			a, ok := arr.(*array.FixedSizeBinary)
			if !ok {
				return nil, mismatch(arr)
			}
			return append(dst, a.Value(i)...), nil
		}, nil
	}
	return func(dst []byte, arr arrow.Array, i int) ([]byte, error) {
		switch a := arr.(type) {
		case *array.Boolean:
			if a.Value(i) {
				return append(dst, 1), nil
			}
			return append(dst, 0), nil
		case *array.Int32:
			return binary.AppendVarint(dst, int64(a.Value(i))), nil
		case *array.Date32:
			return binary.AppendVarint(dst, int64(a.Value(i))), nil
		case *array.Int64:
			return binary.AppendVarint(dst, a.Value(i)), nil
		case *array.Time64:
			return binary.AppendVarint(dst, int64(a.Value(i))), nil
		case *array.Timestamp:
			return binary.AppendVarint(dst, int64(a.Value(i))), nil
		case *array.Float32:
			return binary.LittleEndian.AppendUint32(dst, math.Float32bits(a.Value(i))), nil
		case *array.Float64:
			return binary.LittleEndian.AppendUint64(dst, math.Float64bits(a.Value(i))), nil
		case *array.String:
			b := stringBytes(a, i)
			return append(binary.AppendVarint(dst, int64(len(b))), b...), nil
		case *array.Binary:
			b := a.Value(i)
			return append(binary.AppendVarint(dst, int64(len(b))), b...), nil
		}
		return nil, mismatch(arr)
	}, nil
}
