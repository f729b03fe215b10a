package scan

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// maxKeptRuns is the most runs of kept rows keepRows copies as slices;
// rows kept here and there (a join's runtime filter keeps one row in
// many) are gathered by index instead.
const maxKeptRuns = 16

// keepRows returns the rows of cols whose del flag is false, as new arrays.
func keepRows(mem memory.Allocator, cols []arrow.Array, del []bool) ([]arrow.Array, error) {
	type run struct{ from, to int }
	var runs []run
	for i := 0; i < len(del); {
		if del[i] {
			i++
			continue
		}
		j := i
		for j < len(del) && !del[j] {
			j++
		}
		runs = append(runs, run{i, j})
		i = j
		if len(runs) == maxKeptRuns+1 {
			// A type Take lacks goes on by slices.
			if out, err := takeKept(mem, cols, del); err == nil {
				return out, nil
			}
		}
	}
	out := make([]arrow.Array, len(cols))
	for c, col := range cols {
		parts := make([]arrow.Array, len(runs))
		for k, r := range runs {
			parts[k] = array.NewSlice(col, int64(r.from), int64(r.to))
		}
		var err error
		if len(parts) == 1 {
			out[c] = parts[0]
			continue
		}
		out[c], err = array.Concatenate(parts, mem)
		releaseAll(parts)
		if err != nil {
			releaseAll(out[:c])
			return nil, err
		}
	}
	return out, nil
}

// takeKept is keepRows by gathering the kept rows' indexes.
func takeKept(mem memory.Allocator, cols []arrow.Array, del []bool) ([]arrow.Array, error) {
	idx := make([]int32, 0, len(del))
	for i, d := range del {
		if !d {
			idx = append(idx, int32(i))
		}
	}
	out := make([]arrow.Array, len(cols))
	var idxArr arrow.Array // for compute.Take, made when first needed
	defer func() {
		if idxArr != nil {
			idxArr.Release()
		}
	}()
	for c, col := range cols {
		if a := gatherRows(mem, col, idx); a != nil {
			out[c] = a
			continue
		}
		if idxArr == nil {
			b := array.NewInt32Builder(mem)
			b.AppendValues(idx, nil)
			idxArr = b.NewArray()
			b.Release()
		}
		a, err := compute.TakeArray(compute.WithAllocator(context.Background(), mem), col, idxArr)
		if err != nil {
			releaseAll(out[:c])
			return nil, err
		}
		out[c] = a
	}
	return out, nil
}

// gatherRows returns rows idx of a fixed-width (4, 8 or 16 bytes a value)
// or string/binary array, nil for other arrays.
func gatherRows(mem memory.Allocator, a arrow.Array, idx []int32) arrow.Array {
	d := a.Data()
	if len(d.Children()) > 0 || d.Dictionary() != nil {
		return nil
	}
	off := d.Offset() // a slice of a cached column starts inside it
	n := len(idx)
	var valid *memory.Buffer
	nulls := 0
	if a.NullN() > 0 {
		valid = memory.NewResizableBuffer(mem)
		valid.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := valid.Bytes()
		clear(bits)
		for i, r := range idx {
			if a.IsValid(int(r)) {
				bitutil.SetBit(bits, i)
			} else {
				nulls++
			}
		}
	}
	release := func() {
		if valid != nil {
			valid.Release()
		}
	}
	switch a := a.(type) {
	case *array.String, *array.Binary:
		bufs := d.Buffers()
		if len(bufs) < 3 || bufs[1] == nil {
			release()
			return nil
		}
		offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off:]
		var data []byte
		if bufs[2] != nil {
			data = bufs[2].Bytes()
		}
		ob := memory.NewResizableBuffer(mem)
		ob.Resize((n + 1) * 4)
		out := arrow.Int32Traits.CastFromBytes(ob.Bytes())
		size := 0
		for i, r := range idx {
			out[i] = int32(size)
			size += int(offs[r+1] - offs[r])
		}
		out[n] = int32(size)
		db := memory.NewResizableBuffer(mem)
		db.Resize(size)
		dst := db.Bytes()
		for i, r := range idx {
			copy(dst[out[i]:out[i+1]], data[offs[r]:offs[r+1]])
		}
		res := array.NewData(a.DataType(), n, []*memory.Buffer{valid, ob, db}, nil, nulls, 0)
		release()
		ob.Release()
		db.Release()
		defer res.Release()
		return array.MakeFromData(res)
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || a.DataType().ID() == arrow.BOOL || len(d.Buffers()) != 2 || d.Buffers()[1] == nil {
		release()
		return nil
	}
	width := fw.BitWidth() / 8
	vb := memory.NewResizableBuffer(mem)
	vb.Resize(n * width)
	src, dst := d.Buffers()[1].Bytes()[off*width:], vb.Bytes()
	switch width {
	case 4:
		gatherWidth(arrow.Uint32Traits.CastFromBytes(dst), arrow.Uint32Traits.CastFromBytes(src), idx)
	case 8:
		gatherWidth(arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src), idx)
	case 16:
		gatherWidth(arrow.Decimal128Traits.CastFromBytes(dst), arrow.Decimal128Traits.CastFromBytes(src), idx)
	default:
		vb.Release()
		release()
		return nil
	}
	res := array.NewData(a.DataType(), n, []*memory.Buffer{valid, vb}, nil, nulls, 0)
	release()
	vb.Release()
	defer res.Release()
	return array.MakeFromData(res)
}

func gatherWidth[T any](dst, src []T, idx []int32) {
	dst = dst[:len(idx)]
	for i, r := range idx {
		dst[i] = src[r]
	}
}
