package wire

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
)

// listParts splits a list-like array into its values and per-row bounds.
func listParts(dt arrow.DataType) (arrow.DataType, func(arrow.Array) (arrow.Array, func(int) (int, int))) {
	switch t := dt.(type) {
	case *arrow.ListType:
		return t.Elem(), func(arr arrow.Array) (arrow.Array, func(int) (int, int)) {
			a := arr.(*array.List)
			return a.ListValues(), func(i int) (int, int) { s, e := a.ValueOffsets(i); return int(s), int(e) }
		}
	case *arrow.LargeListType:
		return t.Elem(), func(arr arrow.Array) (arrow.Array, func(int) (int, int)) {
			a := arr.(*array.LargeList)
			return a.ListValues(), func(i int) (int, int) { s, e := a.ValueOffsets(i); return int(s), int(e) }
		}
	case *arrow.FixedSizeListType:
		n := int(t.Len())
		return t.Elem(), func(arr arrow.Array) (arrow.Array, func(int) (int, int)) {
			a := arr.(*array.FixedSizeList)
			off := a.Data().Offset()
			return a.ListValues(), func(i int) (int, int) { return (off + i) * n, (off + i + 1) * n }
		}
	}
	return nil, nil
}

// arrayText is array_out for one-dimensional arrays: {a,b,NULL}, elements
// double-quoted when empty, "NULL" in any case, or containing braces,
// commas, quotes, backslashes or white space.
func arrayText(elemOID uint32, dt arrow.DataType, env *encodeEnv) (binder, error) {
	elemType, split := listParts(dt)
	if split == nil {
		if b := stringText(dt); b != nil {
			return b, nil
		}
		return nil, unsupportedEncoding(pgtypes.ArrayOf(elemOID), dt, formatText)
	}
	if _, nested := listParts(elemType); nested != nil {
		return nil, unsupportedEncoding(pgtypes.ArrayOf(elemOID), dt, formatText)
	}
	elem, err := textEncoder(elemOID, elemType, env)
	if err != nil {
		return nil, err
	}
	return func(arr arrow.Array) appendFunc {
		values, bounds := split(arr)
		f := elem(values)
		nulls := newNullMap(values)
		var scratch []byte
		return func(dst []byte, i int) []byte {
			start, end := bounds(i)
			dst = append(dst, '{')
			for k := start; k < end; k++ {
				if k > start {
					dst = append(dst, ',')
				}
				if nulls.isNull(k) {
					dst = pgtext.AppendArrayNull(dst)
					continue
				}
				scratch = f(scratch[:0], k)
				dst = pgtext.AppendArrayElement(dst, scratch)
			}
			return append(dst, '}')
		}
	}, nil
}

// arrayBinary is array_send for one-dimensional arrays: ndim, has-nulls
// flag, element OID, dimension size and lower bound 1, then each element
// length-prefixed (-1 for NULL).
func arrayBinary(elemOID uint32, dt arrow.DataType, env *encodeEnv) (binder, error) {
	elemType, split := listParts(dt)
	if split == nil {
		return nil, unsupportedEncoding(pgtypes.ArrayOf(elemOID), dt, formatBinary)
	}
	elem, err := binaryEncoder(elemOID, elemType, env)
	if err != nil {
		return nil, err
	}
	return func(arr arrow.Array) appendFunc {
		values, bounds := split(arr)
		f := elem(values)
		nulls := newNullMap(values)
		return func(dst []byte, i int) []byte {
			start, end := bounds(i)
			if start == end {
				dst = binary.BigEndian.AppendUint32(dst, 0)
				dst = binary.BigEndian.AppendUint32(dst, 0)
				return binary.BigEndian.AppendUint32(dst, elemOID)
			}
			hasNull := uint32(0)
			for k := start; k < end; k++ {
				if nulls.isNull(k) {
					hasNull = 1
					break
				}
			}
			dst = binary.BigEndian.AppendUint32(dst, 1)
			dst = binary.BigEndian.AppendUint32(dst, hasNull)
			dst = binary.BigEndian.AppendUint32(dst, elemOID)
			dst = binary.BigEndian.AppendUint32(dst, uint32(end-start))
			dst = binary.BigEndian.AppendUint32(dst, 1)
			for k := start; k < end; k++ {
				if nulls.isNull(k) {
					dst = append(dst, 0xff, 0xff, 0xff, 0xff)
					continue
				}
				lenPos := len(dst)
				dst = append(dst, 0, 0, 0, 0)
				dst = f(dst, k)
				binary.BigEndian.PutUint32(dst[lenPos:], uint32(len(dst)-lenPos-4))
			}
			return dst
		}
	}, nil
}
