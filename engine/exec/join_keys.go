package exec

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// keyEncoder encodes the join keys of many rows at once into one buffer,
// so that two rows get equal bytes exactly when their keys are equal (NULL
// = NULL for null-safe keys, 0 = -0, NaN = NaN, 1.5 = 1.50). It works a
// column at a time with one loop per type: no call per row.
//
// Each key is a marker byte (0 NULL, 1 value) and then a fixed-width
// payload (zero for NULL), or for text and bytea a 4-byte length and the
// bytes.
type keyEncoder struct {
	buf  []byte
	offs []int32 // row i is buf[offs[i]:offs[i+1]]
	pos  []int32 // where the next key of each row goes
	ints []uint64
}

// row returns the encoding of row i.
func (e *keyEncoder) row(i int) []byte { return e.buf[e.offs[i]:e.offs[i+1]] }

// keyWidth is the payload width of a fixed-width key type, -1 for text and
// bytea, and false for types that cannot be keys.
func keyWidth(t arrow.DataType) (int, bool) {
	if expr.IsNumericType(t) {
		return 17, true
	}
	if isIntKeyType(t) {
		return 8, true
	}
	switch t := t.(type) {
	case *arrow.NullType:
		return 0, true
	case *arrow.BooleanType:
		return 1, true
	case *arrow.Float32Type, *arrow.Float64Type:
		return 8, true
	case *arrow.Decimal128Type, *arrow.MonthDayNanoIntervalType:
		return 16, true
	case *arrow.FixedSizeBinaryType:
		return t.ByteWidth, true
	case *arrow.StringType, *arrow.BinaryType:
		return -1, true
	}
	return 0, false
}

// checkJoinKeyType reports a key type the encoder cannot take.
func checkJoinKeyType(t arrow.DataType) error {
	if _, ok := keyWidth(t); !ok {
		return pgerr.Unsupported("joining on type %s", expr.PGTypeName(t))
	}
	return nil
}

// encode encodes rows 0..n-1 of keys (each of length n).
func (e *keyEncoder) encode(keys []arrow.Array, n int) {
	e.offs = resize(e.offs, n+1)
	e.pos = resize(e.pos, n)
	clear(e.pos)
	fixed := 0
	for _, k := range keys {
		w, _ := keyWidth(k.DataType())
		if w >= 0 {
			fixed += 1 + w
			continue
		}
		offs := binaryOffsets(k)
		v := validity{k.NullBitmapBytes(), k.Data().Offset(), k.NullN() > 0}
		for i := range e.pos {
			e.pos[i] += 5
			if v.at(i) {
				e.pos[i] += offs[i+1] - offs[i]
			}
		}
	}
	total := int32(0)
	for i := range e.pos {
		e.offs[i] = total
		total += int32(fixed) + e.pos[i]
		e.pos[i] = e.offs[i]
	}
	e.offs[n] = total
	e.buf = resize(e.buf, int(total))
	for _, k := range keys {
		e.put(k, n)
	}
}

// binaryOffsets are the value offsets of a text or bytea array.
func binaryOffsets(a arrow.Array) []int32 {
	switch a := a.(type) {
	case *array.String:
		return a.ValueOffsets()
	case *array.Binary:
		return a.ValueOffsets()
	}
	return nil
}

// put appends the key of every row of one column.
func (e *keyEncoder) put(k arrow.Array, n int) {
	w, _ := keyWidth(k.DataType())
	buf, pos := e.buf, e.pos
	v := validity{k.NullBitmapBytes(), k.Data().Offset(), k.NullN() > 0}
	if _, ok := k.(*array.Null); ok {
		for i := range pos {
			buf[pos[i]] = 0
			pos[i]++
		}
		return
	}
	// The marker, and a zero payload for NULLs.
	for i := range pos {
		p := pos[i]
		if v.at(i) {
			buf[p] = 1
		} else {
			buf[p] = 0
			if w > 0 {
				clear(buf[p+1 : p+1+int32(w)])
			}
		}
		pos[i]++
	}
	switch a := k.(type) {
	case *array.Boolean:
		for i := range pos {
			buf[pos[i]] = 0
			if v.at(i) && a.Value(i) {
				buf[pos[i]] = 1
			}
			pos[i]++
		}
	case *array.Float32:
		for i, x := range a.Float32Values() {
			if v.at(i) {
				binary.LittleEndian.PutUint64(buf[pos[i]:], floatKey(float64(x)))
			}
			pos[i] += 8
		}
	case *array.Float64:
		for i, x := range a.Float64Values() {
			if v.at(i) {
				binary.LittleEndian.PutUint64(buf[pos[i]:], floatKey(x))
			}
			pos[i] += 8
		}
	case *array.Decimal128:
		for i, x := range a.Values() {
			if v.at(i) {
				binary.LittleEndian.PutUint64(buf[pos[i]:], x.LowBits())
				binary.LittleEndian.PutUint64(buf[pos[i]+8:], uint64(x.HighBits()))
			}
			pos[i] += 16
		}
	case *array.MonthDayNanoInterval:
		// Intervals PostgreSQL calls equal ('1 mon', '30 days') share a
		// key: their span in whole days and microseconds.
		for i := range pos {
			if v.at(i) {
				days, us := expr.IntervalSpan(a.Value(i))
				binary.LittleEndian.PutUint64(buf[pos[i]:], uint64(days))
				binary.LittleEndian.PutUint64(buf[pos[i]+8:], uint64(us))
			}
			pos[i] += 16
		}
	case *expr.NumericArray:
		for i := range pos {
			if v.at(i) {
				u, s := expr.NumericNormalize(a.Value(i))
				binary.LittleEndian.PutUint64(buf[pos[i]:], u.LowBits())
				binary.LittleEndian.PutUint64(buf[pos[i]+8:], uint64(u.HighBits()))
				buf[pos[i]+16] = byte(s)
			}
			pos[i] += 17
		}
	case *array.FixedSizeBinary:
		for i := range pos {
			if v.at(i) {
				copy(buf[pos[i]:pos[i]+int32(w)], a.Value(i))
			}
			pos[i] += int32(w)
		}
	case *array.String, *array.Binary:
		offs := binaryOffsets(k)
		data := k.Data().Buffers()[2]
		var bytes []byte
		if data != nil {
			bytes = data.Bytes()
		}
		for i := range pos {
			l := offs[i+1] - offs[i]
			if !v.at(i) {
				l = 0
			}
			binary.LittleEndian.PutUint32(buf[pos[i]:], uint32(l))
			copy(buf[pos[i]+4:pos[i]+4+l], bytes[offs[i]:offs[i+1]])
			pos[i] += 4 + l
		}
	default:
		e.ints = resize(e.ints, n)
		intKeys(k, e.ints)
		for i, x := range e.ints {
			if v.at(i) {
				binary.LittleEndian.PutUint64(buf[pos[i]:], x)
			}
			pos[i] += 8
		}
	}
}

// validity reads an array's validity bitmap.
type validity struct {
	bm    []byte
	off   int
	nulls bool
}

func (v validity) at(i int) bool { return !v.nulls || bitutil.BitIsSet(v.bm, v.off+i) }
