package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// winTakeBatch gathers rows idx of b. Strings, binaries and fixed-width
// columns are copied straight into buffers sized once; other types go
// through expr.TakeArray.
func winTakeBatch(ctx context.Context, b arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	mem := expr.Allocator(ctx)
	var ia arrow.Array
	defer func() {
		if ia != nil {
			ia.Release()
		}
	}()
	cols := make([]arrow.Array, b.NumCols())
	defer releaseAll(cols)
	for j := range cols {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a := b.Column(j)
		switch a := a.(type) {
		case *array.String:
			cols[j] = takeVarBinary(mem, a, a.Value, idx)
			continue
		case *array.Binary:
			cols[j] = takeVarBinary(mem, a, a.ValueString, idx)
			continue
		}
		if c := takeFixedWidth(mem, a, idx); c != nil {
			cols[j] = c
			continue
		}
		if ia == nil {
			ia = int32Array(mem, idx)
		}
		c, err := expr.TakeArray(ctx, a, ia)
		if err != nil {
			return nil, err
		}
		cols[j] = c
	}
	return array.NewRecordBatch(b.Schema(), cols, int64(len(idx))), nil
}

// takeValidity returns the validity bitmap of rows idx of a (nil without
// NULLs) and the number of NULLs.
func takeValidity(mem memory.Allocator, a arrow.Array, idx []int32) (*memory.Buffer, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(len(idx)))))
	bits := buf.Bytes()
	clear(bits)
	nulls := 0
	for k, i := range idx {
		if a.IsNull(int(i)) {
			nulls++
		} else {
			bitutil.SetBit(bits, k)
		}
	}
	return buf, nulls
}

func takeVarBinary(mem memory.Allocator, a arrow.Array, get func(i int) string, idx []int32) arrow.Array {
	n := len(idx)
	total := 0
	for _, i := range idx {
		total += len(get(int(i)))
	}
	valid, nulls := takeValidity(mem, a, idx)
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((n + 1) * 4)
	offs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	dataBuf := memory.NewResizableBuffer(mem)
	dataBuf.Resize(total)
	data := dataBuf.Bytes()
	pos := 0
	for k, i := range idx {
		offs[k] = int32(pos)
		pos += copy(data[pos:], get(int(i)))
	}
	offs[n] = int32(pos)
	return newArrayFromBuffers(a.DataType(), n, nulls, valid, offBuf, dataBuf)
}

// takeFixedWidth gathers rows of a primitive column of 2, 4, 8 or 16
// byte values; nil for other arrays.
func takeFixedWidth(mem memory.Allocator, a arrow.Array, idx []int32) arrow.Array {
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || len(a.Data().Children()) > 0 || len(a.Data().Buffers()) != 2 || a.DataType().ID() == arrow.DICTIONARY {
		return nil
	}
	width := fw.BitWidth() / 8
	if fw.BitWidth()%8 != 0 || (width != 2 && width != 4 && width != 8 && width != 16) {
		return nil
	}
	src := a.Data().Buffers()[1].Bytes()[a.Data().Offset()*width:]
	n := len(idx)
	valid, nulls := takeValidity(mem, a, idx)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * width)
	dst := buf.Bytes()
	switch width {
	case 2:
		takeWords(arrow.Uint16Traits.CastFromBytes(dst), arrow.Uint16Traits.CastFromBytes(src), idx)
	case 4:
		takeWords(arrow.Uint32Traits.CastFromBytes(dst), arrow.Uint32Traits.CastFromBytes(src), idx)
	case 8:
		takeWords(arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src), idx)
	case 16:
		d, s := arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src)
		for k, i := range idx {
			d[2*k], d[2*k+1] = s[2*i], s[2*i+1]
		}
	}
	return newArrayFromBuffers(a.DataType(), n, nulls, valid, buf)
}

func takeWords[T uint16 | uint32 | uint64](dst, src []T, idx []int32) {
	for k, i := range idx {
		dst[k] = src[i]
	}
}

// newArrayFromBuffers makes an array of t over the buffers (validity
// first, may be nil), taking over the caller's references.
func newArrayFromBuffers(t arrow.DataType, n, nulls int, bufs ...*memory.Buffer) arrow.Array {
	d := array.NewData(t, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer d.Release()
	return array.MakeFromData(d)
}
