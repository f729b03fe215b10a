package exec

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
)

// keyWriter appends an encoding of row i of one column to dst such that two
// rows get equal bytes exactly when they are equal for GROUP BY / DISTINCT
// (NULLs equal each other, 0 = -0, NaN = NaN, 1.5 = 1.50).
type keyWriter func(dst []byte, i int) []byte

func newKeyWriter(a arrow.Array) (keyWriter, error) {
	hasNulls := a.NullN() > 0
	var w keyWriter
	switch a := a.(type) {
	case *array.Null:
		return func(dst []byte, i int) []byte { return append(dst, 0) }, nil
	case *array.Boolean:
		w = func(dst []byte, i int) []byte {
			if a.Value(i) {
				return append(dst, 1, 1)
			}
			return append(dst, 1, 0)
		}
	case *array.Int16:
		v := a.Int16Values()
		w = func(dst []byte, i int) []byte { return binary.LittleEndian.AppendUint16(append(dst, 1), uint16(v[i])) }
	case *array.Int32:
		v := a.Int32Values()
		w = func(dst []byte, i int) []byte { return binary.LittleEndian.AppendUint32(append(dst, 1), uint32(v[i])) }
	case *array.Date32:
		v := a.Date32Values()
		w = func(dst []byte, i int) []byte { return binary.LittleEndian.AppendUint32(append(dst, 1), uint32(v[i])) }
	case *array.Int64:
		v := a.Int64Values()
		w = func(dst []byte, i int) []byte { return binary.LittleEndian.AppendUint64(append(dst, 1), uint64(v[i])) }
	case *array.Time64:
		v := a.Time64Values()
		w = func(dst []byte, i int) []byte { return binary.LittleEndian.AppendUint64(append(dst, 1), uint64(v[i])) }
	case *array.Timestamp:
		v := a.TimestampValues()
		w = func(dst []byte, i int) []byte { return binary.LittleEndian.AppendUint64(append(dst, 1), uint64(v[i])) }
	case *array.Float32:
		v := a.Float32Values()
		w = func(dst []byte, i int) []byte {
			return binary.LittleEndian.AppendUint64(append(dst, 1), floatKey(float64(v[i])))
		}
	case *array.Float64:
		v := a.Float64Values()
		w = func(dst []byte, i int) []byte {
			return binary.LittleEndian.AppendUint64(append(dst, 1), floatKey(v[i]))
		}
	case *array.Decimal128:
		v := a.Values()
		w = func(dst []byte, i int) []byte {
			dst = binary.LittleEndian.AppendUint64(append(dst, 1), v[i].LowBits())
			return binary.LittleEndian.AppendUint64(dst, uint64(v[i].HighBits()))
		}
	case *expr.NumericArray:
		w = func(dst []byte, i int) []byte {
			u, s := expr.NumericNormalize(a.Value(i))
			dst = binary.LittleEndian.AppendUint64(append(dst, 1), u.LowBits())
			dst = binary.LittleEndian.AppendUint64(dst, uint64(u.HighBits()))
			return append(dst, byte(s))
		}
	case *array.String:
		w = func(dst []byte, i int) []byte {
			s := a.Value(i)
			dst = binary.AppendUvarint(append(dst, 1), uint64(len(s)))
			return append(dst, s...)
		}
	case *array.Binary:
		w = func(dst []byte, i int) []byte {
			s := a.Value(i)
			dst = binary.AppendUvarint(append(dst, 1), uint64(len(s)))
			return append(dst, s...)
		}
	case *array.FixedSizeBinary:
		w = func(dst []byte, i int) []byte { return append(append(dst, 1), a.Value(i)...) }
	case *array.MonthDayNanoInterval:
		// Intervals PostgreSQL calls equal ('1 day', '24 hours') share a key.
		w = func(dst []byte, i int) []byte {
			days, us := expr.IntervalSpan(a.Value(i))
			dst = binary.LittleEndian.AppendUint64(append(dst, 1), uint64(days))
			return binary.LittleEndian.AppendUint64(dst, uint64(us))
		}
	case array.ListLike:
		// Arrays (int2vector and oidvector included) are equal when their
		// elements are, in order: the length, then each element's key.
		elem, err := newKeyWriter(a.ListValues())
		if err != nil {
			return nil, err
		}
		w = func(dst []byte, i int) []byte {
			lo, hi := a.ValueOffsets(i)
			dst = binary.AppendUvarint(append(dst, 1), uint64(hi-lo))
			for j := lo; j < hi; j++ {
				dst = elem(dst, int(j))
			}
			return dst
		}
	default:
		return nil, fmt.Errorf("cannot group by type %s", a.DataType())
	}
	if !hasNulls {
		return w, nil
	}
	return func(dst []byte, i int) []byte {
		if a.IsNull(i) {
			return append(dst, 0)
		}
		return w(dst, i)
	}, nil
}

// floatKey maps equal floats (0, -0; all NaNs) to equal bits.
func floatKey(f float64) uint64 {
	switch {
	case f == 0:
		return 0
	case f != f:
		return 0x7ff8000000000001
	}
	return math.Float64bits(f)
}
