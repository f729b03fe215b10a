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
		if isMultiDimList(dt) {
			return arrayTextMD(elemOID, dt, env)
		}
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
	if isMultiDimList(dt) {
		return arrayBinaryMD(elemOID, dt, env)
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

// mdLists reads arrays of several dimensions (nested lists, one level per
// dimension) by row: the dimension lengths and the run of the row's
// elements in the innermost values, contiguous in row-major order.
type mdLists struct {
	levels []func(int) (int, int) // bounds of list j at each level
	leaf   arrow.Array
}

// mdSplitter returns the reader of arrays of type dt and the innermost
// element type.
func mdSplitter(dt arrow.DataType) (func(arrow.Array) mdLists, arrow.DataType) {
	var splits []func(arrow.Array) (arrow.Array, func(int) (int, int))
	t := dt
	for {
		elem, split := listParts(t)
		if split == nil {
			break
		}
		splits = append(splits, split)
		t = elem
	}
	return func(arr arrow.Array) mdLists {
		var m mdLists
		for _, split := range splits {
			vals, bounds := split(arr)
			m.levels = append(m.levels, bounds)
			arr = vals
		}
		m.leaf = arr
		return m
	}, t
}

// row is row i's dimensions (appended to dims[:0]; none for an empty
// array) and element run. A ragged value, which only other writers can
// store, is read by the lengths of its first sub-arrays.
func (m mdLists) row(i int, dims []int32) ([]int32, int, int) {
	dims = dims[:0]
	s, e := m.levels[0](i)
	if s == e {
		return dims, 0, 0
	}
	dims = append(dims, int32(e-s))
	for _, bounds := range m.levels[1:] {
		fs, fe := bounds(s)
		_, le := bounds(e - 1)
		if fe == fs {
			return dims[:0], 0, 0
		}
		dims = append(dims, int32(fe-fs))
		s, e = fs, le
	}
	return dims, s, e
}

// arrayTextMD is array_out for arrays of several dimensions:
// {{1,2},{3,4}}.
func arrayTextMD(elemOID uint32, dt arrow.DataType, env *encodeEnv) (binder, error) {
	split, leafType := mdSplitter(dt)
	elem, err := textEncoder(elemOID, leafType, env)
	if err != nil {
		return nil, err
	}
	return func(arr arrow.Array) appendFunc {
		m := split(arr)
		f := elem(m.leaf)
		nulls := newNullMap(m.leaf)
		var scratch []byte
		var dims []int32
		var w pgtext.ArrayWriter
		return func(dst []byte, i int) []byte {
			var s, e int
			dims, s, e = m.row(i, dims)
			dst = w.Begin(dst, dims, nil)
			for k := s; k < e; k++ {
				dst = w.Next(dst)
				if nulls.isNull(k) {
					dst = pgtext.AppendArrayNull(dst)
					continue
				}
				scratch = f(scratch[:0], k)
				dst = pgtext.AppendArrayElement(dst, scratch)
			}
			return w.End(dst)
		}
	}, nil
}

// arrayBinaryMD is array_send for arrays of several dimensions: ndim,
// has-nulls flag, element OID, each dimension's length and lower bound 1,
// then the elements in row-major order.
func arrayBinaryMD(elemOID uint32, dt arrow.DataType, env *encodeEnv) (binder, error) {
	split, leafType := mdSplitter(dt)
	elem, err := binaryEncoder(elemOID, leafType, env)
	if err != nil {
		return nil, err
	}
	return func(arr arrow.Array) appendFunc {
		m := split(arr)
		f := elem(m.leaf)
		nulls := newNullMap(m.leaf)
		var dims []int32
		return func(dst []byte, i int) []byte {
			var s, e int
			dims, s, e = m.row(i, dims)
			hasNull := uint32(0)
			for k := s; k < e; k++ {
				if nulls.isNull(k) {
					hasNull = 1
					break
				}
			}
			dst = binary.BigEndian.AppendUint32(dst, uint32(len(dims)))
			dst = binary.BigEndian.AppendUint32(dst, hasNull)
			dst = binary.BigEndian.AppendUint32(dst, elemOID)
			for _, d := range dims {
				dst = binary.BigEndian.AppendUint32(dst, uint32(d))
				dst = binary.BigEndian.AppendUint32(dst, 1)
			}
			for k := s; k < e; k++ {
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

// isMultiDimList reports lists of lists of a type that is not itself a
// list, struct or map: the Arrow type of arrays of several dimensions.
func isMultiDimList(dt arrow.DataType) bool {
	d := 0
	for {
		elem, split := listParts(dt)
		if split == nil {
			break
		}
		d++
		dt = elem
	}
	switch dt.(type) {
	case *arrow.StructType, *arrow.MapType:
		return false
	}
	return d >= 2
}
