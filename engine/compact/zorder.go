package compact

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
)

// Z-order: each column's value becomes 8 bytes whose unsigned order is
// the value's order (integers and temporal values with the sign bit
// flipped, floats by their IEEE bits made monotonic, decimals clamped to
// 64 bits, strings and binary by their first 8 bytes, NULL all zeros so it
// sorts first), and the key of a row interleaves those columns' bits, most
// significant first, one bit of each column in turn. Rows sorted by that
// key are close when all their columns are close, so files cover small
// ranges of every column and their metrics prune queries on any of them.

const zorderBytes = 8

// zorderWidth reports whether a column of type t can take part in a
// z-order.
func zorderWidth(t catalog.Type) (int, bool) {
	p, ok := t.(*catalog.PrimitiveType)
	if !ok {
		return 0, false
	}
	switch p.ID {
	case catalog.TBoolean, catalog.TInt, catalog.TLong, catalog.TFloat, catalog.TDouble,
		catalog.TDate, catalog.TTime, catalog.TTimestamp, catalog.TTimestamptz,
		catalog.TTimestampNs, catalog.TTimestamptzNs, catalog.TString, catalog.TBinary,
		catalog.TFixed, catalog.TUUID, catalog.TDecimal:
		return zorderBytes, true
	}
	return 0, false
}

// fieldPath finds field id among the schema's top-level fields and the
// fields of nested structs: the index path to it.
func fieldPath(s *catalog.Schema, id int) []int {
	var walk func(fs []catalog.NestedField, prefix []int) []int
	walk = func(fs []catalog.NestedField, prefix []int) []int {
		for i := range fs {
			p := append(append([]int(nil), prefix...), i)
			if fs[i].ID == id {
				return p
			}
			if st, ok := fs[i].Type.(*catalog.StructType); ok {
				if path := walk(st.Fields, p); path != nil {
					return path
				}
			}
		}
		return nil
	}
	return walk(s.Fields, nil)
}

// zorderRows returns a function ordering the rows of the table's columns
// by the z-order key of the columns at paths (write.WriterSpec.RowOrder).
func zorderRows(paths [][]int) func(cols []arrow.Array) ([]int, error) {
	return func(cols []arrow.Array) ([]int, error) {
		n := cols[0].Len()
		k := len(paths)
		width := k * zorderBytes
		keys := make([]byte, n*width)
		for c, path := range paths {
			arr := cols[path[0]]
			var parents []arrow.Array
			for _, j := range path[1:] {
				parents = append(parents, arr)
				arr = arr.(*array.Struct).Field(j)
			}
			enc, err := zorderEncoder(arr)
			if err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				var v [zorderBytes]byte
				if !nullAt(parents, arr, i) {
					enc(i, &v)
				}
				interleaveColumn(keys[i*width:(i+1)*width], c, k, &v)
			}
		}
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		slices.SortStableFunc(rows, func(a, b int) int {
			return bytes.Compare(keys[a*width:(a+1)*width], keys[b*width:(b+1)*width])
		})
		return rows, nil
	}
}

func nullAt(parents []arrow.Array, arr arrow.Array, i int) bool {
	for _, p := range parents {
		if p.IsNull(i) {
			return true
		}
	}
	return arr.IsNull(i)
}

// interleaveColumn sets, in key (k columns of 8 bytes interleaved), the
// bits of column c's value v: bit b of v goes to bit b*k+c of the key.
func interleaveColumn(key []byte, c, k int, v *[zorderBytes]byte) {
	for b := 0; b < zorderBytes*8; b++ {
		if v[b/8]&(0x80>>(b%8)) == 0 {
			continue
		}
		out := b*k + c
		key[out/8] |= 0x80 >> (out % 8)
	}
}

// zorderEncoder writes the 8 ordered bytes of a non-null value of arr.
func zorderEncoder(arr arrow.Array) (func(i int, dst *[zorderBytes]byte), error) {
	signed := func(dst *[zorderBytes]byte, v int64) {
		binary.BigEndian.PutUint64(dst[:], uint64(v)^(1<<63))
	}
	float := func(dst *[zorderBytes]byte, f float64) {
		bits := math.Float64bits(f)
		if bits>>63 != 0 {
			bits = ^bits
		} else {
			bits |= 1 << 63
		}
		binary.BigEndian.PutUint64(dst[:], bits)
	}
	prefix := func(dst *[zorderBytes]byte, b []byte) { copy(dst[:], b) }
	switch a := arr.(type) {
	case *array.Boolean:
		return func(i int, dst *[zorderBytes]byte) {
			if a.Value(i) {
				dst[0] = 1
			}
		}, nil
	case *array.Int32:
		return func(i int, dst *[zorderBytes]byte) { signed(dst, int64(a.Value(i))) }, nil
	case *array.Int64:
		return func(i int, dst *[zorderBytes]byte) { signed(dst, a.Value(i)) }, nil
	case *array.Date32:
		return func(i int, dst *[zorderBytes]byte) { signed(dst, int64(a.Value(i))) }, nil
	case *array.Time64:
		return func(i int, dst *[zorderBytes]byte) { signed(dst, int64(a.Value(i))) }, nil
	case *array.Timestamp:
		return func(i int, dst *[zorderBytes]byte) { signed(dst, int64(a.Value(i))) }, nil
	case *array.Float32:
		return func(i int, dst *[zorderBytes]byte) { float(dst, float64(a.Value(i))) }, nil
	case *array.Float64:
		return func(i int, dst *[zorderBytes]byte) { float(dst, a.Value(i)) }, nil
	case *array.Decimal128:
		return func(i int, dst *[zorderBytes]byte) {
			v := a.Value(i)
			hi, lo := v.HighBits(), v.LowBits()
			switch {
			case hi > 0 || (hi == 0 && lo > math.MaxInt64):
				signed(dst, math.MaxInt64)
			case hi < -1 || (hi == -1 && lo <= math.MaxInt64):
				signed(dst, math.MinInt64)
			default:
				signed(dst, int64(lo))
			}
		}, nil
	case *array.String:
		return func(i int, dst *[zorderBytes]byte) { prefix(dst, []byte(a.Value(i))) }, nil
	case *array.LargeString:
		return func(i int, dst *[zorderBytes]byte) { prefix(dst, []byte(a.Value(i))) }, nil
	case *array.Binary:
		return func(i int, dst *[zorderBytes]byte) { prefix(dst, a.Value(i)) }, nil
	case *array.LargeBinary:
		return func(i int, dst *[zorderBytes]byte) { prefix(dst, a.Value(i)) }, nil
	case *array.FixedSizeBinary:
		return func(i int, dst *[zorderBytes]byte) { prefix(dst, a.Value(i)) }, nil
	}
	return nil, fmt.Errorf("zorder: columns of Arrow type %s", arr.DataType())
}
