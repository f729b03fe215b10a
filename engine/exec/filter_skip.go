package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// NewRowFilterOf is NewRowFilter over the conjuncts parts, of which there
// may be none (every row passes).
func NewRowFilterOf(schema *arrow.Schema, parts []expr.Expr, opts ...expr.CompileOptions) (*RowFilter, error) {
	switch len(parts) {
	case 0:
		f := filterOp{minSaved: compactMinRowsSaved, below: compactBelow, belowCostly: compactBelowCostly}
		return &RowFilter{f: f, reads: make([]bool, schema.NumFields())}, nil
	case 1:
		return NewRowFilter(schema, parts[0], opts...)
	}
	return NewRowFilter(schema, &expr.Call{Fn: "and", Args: parts, T: expr.Bool}, opts...)
}

// ApplySkip is Apply over the rows of b whose skip flag is false: the
// others are neither kept nor evaluated by a conjunct that can fail (those
// that cannot may see them, and their results are ignored). It returns b
// itself when every row is kept, nil when none is, else a new batch the
// caller releases.
func (r *RowFilter) ApplySkip(ctx context.Context, b arrow.RecordBatch, skip []bool) (arrow.RecordBatch, error) {
	r.f.ctx = ctx
	idx, all, err := r.f.keptRows(b, skip)
	return r.f.keptBatch(b, idx, all, err)
}

// ApplyDropped is ApplySkip with the skip flags as bits: row i is skipped
// when bit i%64 of drop[i/64] is set (bits past the batch's rows are
// ignored).
func (r *RowFilter) ApplyDropped(ctx context.Context, b arrow.RecordBatch, drop []uint64) (arrow.RecordBatch, error) {
	r.f.ctx = ctx
	r.f.alive = notWords(r.f.alive, drop, int(b.NumRows()))
	idx, all, err := r.f.keptAlive(b, true)
	if r.unread != nil {
		return r.keptUnread(b, idx, all, err)
	}
	return r.f.keptBatch(b, idx, all, err)
}

// SetUnread flags the columns of the batches that nothing reads after
// the filter (a table scan's columns only its conjuncts read): the
// batches Apply and ApplyDropped return hold all-NULL arrays of their
// type there, and the values of the rows kept are not gathered. The
// batches then are new ones even when every row is kept. nil, or no flag
// set, gathers every column.
func (r *RowFilter) SetUnread(schema *arrow.Schema, unread []bool) {
	r.unread, r.gathered, r.standIns = nil, nil, nil
	if !slices.Contains(unread, true) {
		return
	}
	r.unread = slices.Clone(unread)
	keep := make([]bool, len(unread))
	for i, u := range unread {
		keep[i] = !u
	}
	r.gathered = nullSchema(schema, keep)
	r.standIns = make([]arrow.Array, len(unread))
}

// keptUnread is keptBatch for a filter with unread columns: the rows kept
// of the others, and all-NULL arrays in those.
func (r *RowFilter) keptUnread(b arrow.RecordBatch, idx []int32, all bool, err error) (arrow.RecordBatch, error) {
	switch {
	case err != nil:
		return nil, err
	case !all && len(idx) == 0:
		return nil, nil
	}
	src := b
	if !all {
		keep := make([]bool, len(r.unread))
		for i, u := range r.unread {
			keep[i] = !u
		}
		g, err := gatherBatch(r.f.ctx, r.f.gatherAllocator(), b, idx, r.gathered, keep)
		if err != nil {
			return nil, err
		}
		defer g.Release()
		src = g
	}
	n := int(src.NumRows())
	cols := make([]arrow.Array, src.NumCols())
	for j := range cols {
		if j >= len(r.unread) || !r.unread[j] {
			cols[j] = src.Column(j)
			cols[j].Retain()
			continue
		}
		if c := r.standIns[j]; c == nil || c.Len() < n {
			if c != nil {
				c.Release()
			}
			// from the Go heap: stand-ins live as long as the filter, which
			// has no end of its own
			r.standIns[j] = nullArray(memory.DefaultAllocator, b.Schema().Field(j).Type, max(n, 8192))
		}
		cols[j] = array.NewSlice(r.standIns[j], 0, int64(n))
	}
	out := array.NewRecordBatch(b.Schema(), cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// notWords is the bit words of the n rows whose bit in drop is clear.
func notWords(dst, drop []uint64, n int) []uint64 {
	nw := (n + 63) / 64
	if cap(dst) < nw {
		dst = make([]uint64, nw)
	}
	dst = dst[:nw]
	for i := range dst {
		dst[i] = ^drop[i]
	}
	if r := n & 63; r != 0 {
		dst[nw-1] &= 1<<uint(r) - 1
	}
	return dst
}
