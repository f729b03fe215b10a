package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// takeFixed gathers rows idx (all valid) of a fixed-width array (integers,
// floats, dates, times, timestamps, decimals, fixed-size binary; not
// booleans, dictionaries or extension types) with one
// tight loop per width, skipping the generic take kernel's dispatch and
// bounds checks. It returns nil for other types.
func takeFixed(mem memory.Allocator, a arrow.Array, idx []int32) arrow.Array {
	switch a.DataType().ID() {
	case arrow.DICTIONARY, arrow.EXTENSION, arrow.BOOL:
		return nil
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 || fw.BitWidth() == 0 {
		return nil
	}
	d := a.Data()
	if len(d.Buffers()) != 2 || d.Buffers()[1] == nil {
		return nil
	}
	width := fw.BitWidth() / 8
	n := len(idx)
	vals := memory.NewResizableBuffer(mem)
	defer vals.Release()
	vals.Resize(n * width)
	src := d.Buffers()[1].Bytes()[d.Offset()*width:]
	dst := vals.Bytes()
	switch width {
	case 1:
		for i, x := range idx {
			dst[i] = src[x]
		}
	case 2:
		gatherWords(arrow.Uint16Traits.CastFromBytes(dst), arrow.Uint16Traits.CastFromBytes(src), idx)
	case 4:
		gatherWords(arrow.Uint32Traits.CastFromBytes(dst), arrow.Uint32Traits.CastFromBytes(src), idx)
	case 8:
		gatherWords(arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src), idx)
	case 16:
		s, t := arrow.Uint64Traits.CastFromBytes(src), arrow.Uint64Traits.CastFromBytes(dst)
		for i, x := range idx {
			t[2*i], t[2*i+1] = s[2*x], s[2*x+1]
		}
	default:
		for i, x := range idx {
			copy(dst[i*width:(i+1)*width], src[int(x)*width:])
		}
	}
	valid, nulls := gatherValidity(mem, a, idx)
	if valid != nil {
		defer valid.Release()
	}
	out := array.NewData(a.DataType(), n, []*memory.Buffer{valid, vals}, nil, nulls, 0)
	defer out.Release()
	return array.MakeFromData(out)
}

// takeBinary gathers rows idx (all valid) of a text or bytea array. It
// returns nil for other types.
func takeBinary(mem memory.Allocator, a arrow.Array, idx []int32) arrow.Array {
	var offs []int32
	switch a := a.(type) {
	case *array.String:
		offs = a.ValueOffsets()
	case *array.Binary:
		offs = a.ValueOffsets()
	default:
		return nil
	}
	d := a.Data()
	var src []byte
	if b := d.Buffers()[2]; b != nil {
		src = b.Bytes()
	}
	n := len(idx)
	ob := memory.NewResizableBuffer(mem)
	defer ob.Release()
	ob.Resize((n + 1) * 4)
	outOffs := arrow.Int32Traits.CastFromBytes(ob.Bytes())
	total := int32(0)
	for i, x := range idx {
		outOffs[i] = total
		total += offs[x+1] - offs[x]
	}
	outOffs[n] = total
	vb := memory.NewResizableBuffer(mem)
	defer vb.Release()
	vb.Reserve(int(total) + 32) // room to write 32 bytes at the last value
	vb.ResizeNoShrink(int(total))
	copyValues(vb.Buf(), outOffs, src, offs, idx)
	valid, nulls := gatherValidity(mem, a, idx)
	if valid != nil {
		defer valid.Release()
	}
	out := array.NewData(a.DataType(), n, []*memory.Buffer{valid, ob, vb}, nil, nulls, 0)
	defer out.Release()
	return array.MakeFromData(out)
}

// copyValues copies value idx[i] of src (offsets offs) to dst at
// outOffs[i], in order. A value of at most 32 bytes moves as one 32-byte
// block where both sides have the room (dst has 32 bytes past its last
// value): the bytes past its end land where the next value, written
// after it, goes. Names, codes and phones are that short, and a call to
// memmove per value costs more than the value.
func copyValues(dst []byte, outOffs []int32, src []byte, offs []int32, idx []int32) {
	for i, x := range idx {
		so, do := int(offs[x]), int(outOffs[i])
		l := int(offs[x+1]) - so
		if l <= 32 && so+32 <= len(src) && do+32 <= len(dst) {
			*(*[32]byte)(dst[do:]) = *(*[32]byte)(src[so:])
			continue
		}
		copy(dst[do:do+l], src[so:so+l])
	}
}

// gatherValidity is the validity bitmap of rows idx of a (nil when a has
// no NULLs) and the number of NULLs among them.
func gatherValidity(mem memory.Allocator, a arrow.Array, idx []int32) (*memory.Buffer, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(len(idx)))))
	vb := valid.Bytes()
	clear(vb)
	bm, off := a.NullBitmapBytes(), a.Data().Offset()
	nulls := 0
	for i, x := range idx {
		if bitutil.BitIsSet(bm, off+int(x)) {
			bitutil.SetBit(vb, i)
		} else {
			nulls++
		}
	}
	return valid, nulls
}

func gatherWords[T uint16 | uint32 | uint64](dst, src []T, idx []int32) {
	dst = dst[:len(idx)]
	for i, x := range idx {
		dst[i] = src[x]
	}
}

// gatherPairs is the batch of rows li of the left columns lcols beside
// rows ri of the right columns rcols. For the join's output (out), the
// columns nothing reads come out all NULL (JoinSpec.Unused).
func (o *joinOp) gatherPairs(lcols []arrow.Array, li []int32, rcols []arrow.Array, ri []int32, out bool) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, o.pairSchema.NumFields())
	defer func() { releaseAll(cols) }()
	var skipL, skipR []bool
	if out {
		skipL, skipR = o.skipL, o.skipR
	}
	cols, err := o.emitCols(cols, lcols, li, skipL, 0)
	if err != nil {
		return nil, err
	}
	if cols, err = o.emitCols(cols, rcols, ri, skipR, len(lcols)); err != nil {
		return nil, err
	}
	return array.NewRecordBatch(o.pairSchema, cols, int64(len(li))), nil
}

// emitCols is takeCols for output columns: the columns flagged in skip
// (indexed like src, whose first column is pair column first) come out
// all NULL, not gathered.
func (o *joinOp) emitCols(dst, src []arrow.Array, idx []int32, skip []bool, first int) ([]arrow.Array, error) {
	if skip == nil || len(src) == 0 {
		return o.takeCols(dst, src, idx)
	}
	n := len(idx)
	if idx == nil {
		n = src[0].Len()
	}
	for j := range src {
		if skip[j] {
			dst = append(dst, o.nullColumn(first+j, n))
			continue
		}
		var err error
		if dst, err = o.takeCols(dst, src[j:j+1], idx); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// nullColumn is an all-NULL array of n rows of pair column j, a slice of
// one kept for the column.
func (o *joinOp) nullColumn(j, n int) arrow.Array {
	if o.standIns == nil {
		o.standIns = make([]arrow.Array, o.pairSchema.NumFields())
	}
	if c := o.standIns[j]; c == nil || c.Len() < n {
		if c != nil {
			c.Release()
		}
		o.standIns[j] = nullArray(expr.Allocator(o.ctx), o.pairSchema.Field(j).Type, max(n, joinChunkRows))
	}
	return array.NewSlice(o.standIns[j], 0, int64(n))
}

// takeCols appends rows idx of every column of src to dst, decoding
// dictionaries. An identity selection (or nil idx) shares the columns.
func (o *joinOp) takeCols(dst, src []arrow.Array, idx []int32) ([]arrow.Array, error) {
	if len(src) == 0 {
		return dst, nil
	}
	all := idx == nil || isIdentity(idx, src[0].Len())
	mem := expr.Allocator(o.ctx)
	var ia arrow.Array
	defer func() {
		if ia != nil {
			ia.Release()
		}
	}()
	for _, c := range src {
		if d, ok := c.(*array.Dictionary); ok {
			t, err := o.takeDict(d, idx, all)
			if err != nil {
				return dst, err
			}
			dst = append(dst, t)
			continue
		}
		if all {
			c.Retain()
			dst = append(dst, c)
			continue
		}
		if t := takeFixed(mem, c, idx); t != nil {
			dst = append(dst, t)
			continue
		}
		if t := takeBinary(mem, c, idx); t != nil {
			dst = append(dst, t)
			continue
		}
		if ia == nil {
			ia = int32Array(mem, idx)
		}
		t, err := expr.TakeArray(o.ctx, c, ia)
		if err != nil {
			return dst, fmt.Errorf("join: %w", err)
		}
		dst = append(dst, t)
	}
	return dst, nil
}

// takeDict gathers rows idx (all of them) of a dictionary array as plain
// values: the indices first, then their values.
func (o *joinOp) takeDict(d *array.Dictionary, idx []int32, all bool) (arrow.Array, error) {
	ix := d.Indices()
	if all {
		ix.Retain()
	} else if ix = takeFixed(expr.Allocator(o.ctx), ix, idx); ix == nil {
		return nil, fmt.Errorf("join: dictionary indices of type %s", d.Indices().DataType())
	}
	defer ix.Release()
	v, err := expr.TakeArray(o.ctx, d.Dictionary(), ix)
	if err != nil {
		return nil, fmt.Errorf("join: decode dictionary: %w", err)
	}
	return v, nil
}

func isIdentity(idx []int32, n int) bool {
	if len(idx) != n {
		return false
	}
	for i, x := range idx {
		if x != int32(i) {
			return false
		}
	}
	return true
}
