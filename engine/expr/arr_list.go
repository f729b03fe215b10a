package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// PostgreSQL's one-dimensional arrays are Arrow lists. The kernels read a
// list argument row by row as bounds into its values array and build list
// results as a gather of element positions over the values they draw from.

// listElem is the element type of a list type; ok is false for other types.
func listElem(t arrow.DataType) (arrow.DataType, bool) {
	if lt, ok := t.(*arrow.ListType); ok {
		return lt.Elem(), true
	}
	return nil, false
}

// listVec reads a list vector (or a Null-typed one, all NULL) by row.
type listVec struct {
	l     *array.List
	vals  arrow.Array
	valid bitmap
	m     int
}

func readListVec(v vec) listVec {
	lv := listVec{valid: nullableValidity(v), m: v.idx()}
	if l, ok := v.arr.(*array.List); ok {
		lv.l = l
		lv.vals = l.ListValues()
	}
	return lv
}

// null reports whether row i is NULL.
func (lv listVec) null(i int) bool { return lv.l == nil || !lv.valid.valid(i) }

// bounds are row i's element positions [start, end) in vals.
func (lv listVec) bounds(i int) (int, int) {
	s, e := lv.l.ValueOffsets(i & lv.m)
	return int(s), int(e)
}

// elemNull reports whether element j of vals is NULL.
func (lv listVec) elemNull(j int) bool { return lv.vals.IsNull(j) }

// listOut builds a list result: per row either NULL or a run of element
// positions into a source array (-1 for a NULL element).
type listOut struct {
	n     int
	offs  []int32
	valid []byte
	nulls int
	idx   *array.Int32Builder
}

func newListOut(mem memory.Allocator, n int) *listOut {
	o := &listOut{n: n, offs: make([]int32, 1, n+1), valid: make([]byte, bitutil.BytesForBits(int64(n)))}
	o.idx = array.NewInt32Builder(mem)
	return o
}

// elem appends element position j of the source (-1: NULL element).
func (o *listOut) elem(j int) {
	if j < 0 {
		o.idx.AppendNull()
		return
	}
	o.idx.Append(int32(j))
}

// endRow closes the current row: a list of the elements appended since
// the last endRow, or NULL.
func (o *listOut) endRow(null bool) {
	row := len(o.offs) - 1
	if null {
		o.nulls++
	} else {
		bitutil.SetBit(o.valid, row)
	}
	o.offs = append(o.offs, int32(o.idx.Len()))
}

// finish gathers the elements from src into a list array of type t. src
// may be nil when no element was appended.
func (o *listOut) finish(ev *evalCtx, t *arrow.ListType, src arrow.Array) (arrow.Array, error) {
	defer o.idx.Release()
	idx := o.idx.NewArray()
	defer idx.Release()
	var child arrow.Array
	if src == nil || idx.Len() == 0 {
		child = makeNulls(ev.mem, t.Elem(), 0)
	} else {
		var err error
		child, err = takeArray(ev.ctx, ev.mem, src, idx)
		if err != nil {
			return nil, fmt.Errorf("gather array elements: %w", err)
		}
	}
	defer child.Release()
	offBuf, offs := outBuf[int32](ev.mem, len(o.offs))
	copy(offs, o.offs)
	defer offBuf.Release()
	var validBuf *memory.Buffer
	if o.nulls > 0 {
		validBuf = memory.NewResizableBuffer(ev.mem)
		validBuf.Resize(len(o.valid))
		copy(validBuf.Bytes(), o.valid)
		defer validBuf.Release()
	}
	d := array.NewData(t, o.n, []*memory.Buffer{validBuf, offBuf}, []arrow.ArrayData{child.Data()}, o.nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// arrSubEval is an evaluation context of n rows for kernels run over a list's
// values rather than over the batch.
func arrSubEval(ev *evalCtx, n int) *evalCtx {
	return &evalCtx{ctx: ev.ctx, mem: ev.mem, batch: ev.batch, n: n}
}

// withElems converts the list arguments at positions at to lists of elem
// (the common element type Resolve chose) before k runs.
func (c *compiler) withElems(elem arrow.DataType, ts []arrow.DataType, at []int, k kernelFn) kernelFn {
	casts := map[int]kernelFn{}
	for _, j := range at {
		if e, ok := listElem(ts[j]); ok && !arrow.TypeEqual(e, elem) {
			ck, _, err := listCastKernel(ts[j], arrow.ListOf(elem), c.tz)
			if err != nil {
				return func(*evalCtx, []vec) (vec, error) { return vec{}, err }
			}
			casts[j] = ck
		}
	}
	if len(casts) == 0 {
		return k
	}
	return func(ev *evalCtx, args []vec) (vec, error) {
		conv := append([]vec(nil), args...)
		var done []int
		defer func() {
			for _, j := range done {
				conv[j].arr.Release()
			}
		}()
		for j, ck := range casts {
			v, err := ck(ev, args[j:j+1])
			if err != nil {
				return vec{}, err
			}
			conv[j] = v
			done = append(done, j)
		}
		return k(ev, conv)
	}
}

// arrConcat concatenates element sources of one type (nil entries and
// Null-typed arrays skipped) and returns each one's base position.
func arrConcat(mem memory.Allocator, srcs ...arrow.Array) (arrow.Array, []int, error) {
	base := make([]int, len(srcs))
	var parts []arrow.Array
	off := 0
	for j, s := range srcs {
		base[j] = -1
		if s == nil || s.DataType().ID() == arrow.NULL {
			continue
		}
		base[j] = off
		parts = append(parts, s)
		off += s.Len()
	}
	switch len(parts) {
	case 0:
		return nil, base, nil
	case 1:
		parts[0].Retain()
		return parts[0], base, nil
	}
	all, err := concat(mem, parts)
	if err != nil {
		return nil, nil, fmt.Errorf("concatenate array elements: %w", err)
	}
	return all, base, nil
}
