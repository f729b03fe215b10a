package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// RowFilter evaluates a WHERE's conjuncts on batches exactly as the
// Filter operator does (the same order, NULL not kept, the same errors),
// for an operator that filters its own batches: a table scan applies the
// conjuncts that read only its columns. One RowFilter serves one
// goroutine at a time.
type RowFilter struct {
	f filterOp
	// reads marks the columns the conjuncts read.
	reads []bool
	// unread marks the columns nothing reads after the filter
	// (SetUnread); nil when none. gathered is the schema the kept rows
	// are gathered into (those columns typed Null), standIns an all-NULL
	// array of each such column, sliced for each batch.
	unread   []bool
	gathered *arrow.Schema
	standIns []arrow.Array
}

// NewRowFilter compiles pred over batches of schema; opts are the
// session's compile options. Its errors are those NewFilter gives.
func NewRowFilter(schema *arrow.Schema, pred expr.Expr, opts ...expr.CompileOptions) (*RowFilter, error) {
	conj, err := compileConjuncts(schema, pred, opts...)
	if err != nil {
		return nil, err
	}
	r := &RowFilter{f: filterOp{conj: conj, minSaved: compactMinRowsSaved, below: compactBelow, belowCostly: compactBelowCostly}}
	if len(conj) > 0 {
		r.reads = conj[0].keep
	} else {
		r.reads = make([]bool, schema.NumFields())
	}
	return r, nil
}

// GatherInto makes the batches of kept rows that Apply, ApplySkip and
// ApplyDropped return take their buffers from mem, which need not clear
// what it hands out: the gathers write every byte of the values, offsets
// and validity they return. A scan whose consumer stops reading a batch
// once it releases it gathers into its recycler, so the copies of the
// rows kept do not ask the Go heap for fresh memory batch after batch.
func (r *RowFilter) GatherInto(mem memory.Allocator) { r.f.gatherMem = mem }

// Reads reports which columns of the schema the conjuncts read: a batch
// given to Select may hold Null arrays (of a schema with those columns
// typed Null) in the others.
func (r *RowFilter) Reads() []bool { return r.reads }

// Apply returns the rows of b the conjuncts keep: b itself when all are,
// nil when none is, else a new batch the caller releases (b stays the
// caller's).
func (r *RowFilter) Apply(ctx context.Context, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	r.f.ctx = ctx
	if r.unread != nil {
		idx, all, err := r.f.keptRows(b, nil)
		return r.keptUnread(b, idx, all, err)
	}
	return r.f.apply(b)
}

// Select evaluates the conjuncts on the rows of b whose skip flag is
// false (the others are neither evaluated nor kept) and sets the flag of
// every row they do not keep; it returns the rows kept.
func (r *RowFilter) Select(ctx context.Context, b arrow.RecordBatch, skip []bool) (int, error) {
	r.f.ctx = ctx
	kept, all, err := r.f.keptRows(b, skip)
	if err != nil {
		return 0, err
	}
	if all {
		return len(skip), nil
	}
	next := 0
	for _, k := range kept {
		for i := next; i < int(k); i++ {
			skip[i] = true
		}
		next = int(k) + 1
	}
	for i := next; i < len(skip); i++ {
		skip[i] = true
	}
	return len(kept), nil
}
