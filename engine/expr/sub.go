package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Evaluation over some rows of a batch. CASE arms and the later operands
// of AND and OR run over the rows that still need them only: a context
// over those rows (subEval) reads a column by taking the selected rows of
// the parent's column the first time a node asks for it, so a subtree
// pays only for the columns it reads and the rows it sees.

// subEval is a context over rows sel of ev (positions of ev's rows, in
// increasing order). The caller releases it.
func subEval(ev *evalCtx, sel []int32) *evalCtx {
	return &evalCtx{ctx: ev.ctx, mem: ev.mem, batch: ev.batch, n: len(sel), budget: ev.budget, live: ev.live, parent: ev, sel: sel}
}

// release drops the columns a sub context took.
func (ev *evalCtx) release() {
	for i, c := range ev.cols {
		if c != nil {
			c.Release()
			ev.cols[i] = nil
		}
	}
	if ev.selIdx != nil {
		ev.selIdx.Release()
		ev.selIdx = nil
	}
}

// column returns column j of the context's rows, retained (dictionary
// columns stay dictionary-encoded).
func (ev *evalCtx) column(j int) (arrow.Array, error) {
	if ev.parent == nil {
		a := ev.batch.Column(j)
		a.Retain()
		return a, nil
	}
	if ev.cols == nil {
		ev.cols = make([]arrow.Array, ev.batch.NumCols())
	}
	if a := ev.cols[j]; a != nil {
		a.Retain()
		return a, nil
	}
	pa, err := ev.parent.column(j)
	if err != nil {
		return nil, err
	}
	defer pa.Release()
	a, err := ev.take(pa)
	if err != nil {
		return nil, err
	}
	ev.cols[j] = a
	a.Retain()
	return a, nil
}

// take gathers the context's rows of a, an array of the parent's rows.
func (ev *evalCtx) take(a arrow.Array) (arrow.Array, error) {
	if out, ok := takeFixed(ev.mem, a, ev.sel); ok {
		return out, nil
	}
	if ev.selIdx == nil {
		ib := array.NewInt32Builder(ev.mem)
		ib.AppendValues(ev.sel, nil)
		ev.selIdx = ib.NewArray()
		ib.Release()
	}
	if d, ok := a.(*array.Dictionary); ok {
		idx, err := takeArray(ev.ctx, ev.mem, d.Indices(), ev.selIdx)
		if err != nil {
			return nil, err
		}
		defer idx.Release()
		return array.NewDictionaryArray(d.DataType(), idx, d.Dictionary()), nil
	}
	return takeArray(ev.ctx, ev.mem, a, ev.selIdx)
}

// takeFixed gathers rows sel of a fixed-width array of 2, 4, 8 or 16
// bytes a value (integers, floats, dates, timestamps, decimals) without
// the generic take; ok is false for other types.
func takeFixed(mem memory.Allocator, a arrow.Array, sel []int32) (arrow.Array, bool) {
	switch a.DataType().ID() {
	case arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DECIMAL128:
	default:
		return nil, false
	}
	n := len(sel)
	var vbuf *memory.Buffer
	switch a.DataType().(arrow.FixedWidthDataType).BitWidth() {
	case 16:
		vbuf = gatherValues[int16](mem, a, sel)
	case 32:
		vbuf = gatherValues[int32](mem, a, sel)
	case 64:
		vbuf = gatherValues[int64](mem, a, sel)
	case 128:
		vbuf = gatherValues[[2]uint64](mem, a, sel)
	default:
		return nil, false
	}
	var valid *memory.Buffer
	nulls := 0
	if a.NullN() > 0 {
		bm := a.NullBitmapBytes()
		off := a.Data().Offset()
		var w []uint64
		valid, w = newWords(mem, n)
		clear(w)
		for p, r := range sel {
			j := off + int(r)
			if bm[j>>3]&(1<<(j&7)) != 0 {
				w[p>>6] |= 1 << (p & 63)
			}
		}
		nulls = n - CountWords(w)
		if nulls == 0 {
			valid.Release()
			valid = nil
		}
	}
	return makeFixed(a.DataType(), n, valid, nulls, vbuf), true
}

func gatherValues[T any](mem memory.Allocator, a arrow.Array, sel []int32) *memory.Buffer {
	src := values[T](a)
	buf, out := outBuf[T](mem, len(sel))
	for p, r := range sel {
		out[p] = src[r]
	}
	return buf
}
