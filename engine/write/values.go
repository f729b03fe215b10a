package write

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/catalog"
)

// arrowValue returns the Go value (catalog value.go) of row i of a column
// of Iceberg type t, or nil when the row is NULL.
func arrowValue(arr arrow.Array, i int, t *catalog.PrimitiveType) (any, error) {
	if arr.IsNull(i) {
		return nil, nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i), nil
	case *array.Int32:
		return a.Value(i), nil
	case *array.Date32:
		return int32(a.Value(i)), nil
	case *array.Int64:
		return a.Value(i), nil
	case *array.Time64:
		return int64(a.Value(i)), nil
	case *array.Timestamp:
		return int64(a.Value(i)), nil
	case *array.Float32:
		return a.Value(i), nil
	case *array.Float64:
		return a.Value(i), nil
	case *array.Decimal128:
		return catalog.Decimal{Unscaled: a.Value(i).BigInt(), Scale: t.Scale}, nil
	case *array.String:
		return a.Value(i), nil
	case *array.Binary:
		return append([]byte{}, a.Value(i)...), nil
	case *array.FixedSizeBinary:
		if t.ID == catalog.TUUID {
			var u [16]byte
			copy(u[:], a.Value(i))
			return u, nil
		}
		return append([]byte{}, a.Value(i)...), nil
	}
	return nil, fmt.Errorf("column of Iceberg type %s arrived as Arrow %s", t, arr.DataType())
}

// stringBytes returns the UTF-8 bytes of row i of a string column without
// copying.
func stringBytes(a *array.String, i int) []byte {
	offs := a.ValueOffsets()
	return a.Data().Buffers()[2].Bytes()[offs[i]:offs[i+1]]
}

// decimalBytes appends the minimal big-endian two's-complement bytes of a
// decimal's unscaled value (the spec's encoding for bounds and hashing).
func decimalBytes(dst []byte, n decimal128.Num) []byte {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(n.HighBits()))
	binary.BigEndian.PutUint64(b[8:], n.LowBits())
	s := b[:]
	for len(s) > 1 && ((s[0] == 0 && s[1]&0x80 == 0) || (s[0] == 0xff && s[1]&0x80 != 0)) {
		s = s[1:]
	}
	return append(dst, s...)
}

// decimalFixedBytes writes n big-endian two's-complement bytes of a
// decimal's unscaled value (Parquet FIXED_LEN_BYTE_ARRAY decimals).
func decimalFixedBytes(dst []byte, v decimal128.Num, n int) []byte {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(v.HighBits()))
	binary.BigEndian.PutUint64(b[8:], v.LowBits())
	return append(dst, b[16-n:]...)
}
