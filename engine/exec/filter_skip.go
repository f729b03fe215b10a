package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

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
	return r.f.keptBatch(b, idx, all, err)
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
