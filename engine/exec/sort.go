package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/spill"
)

// SortKey is one ORDER BY item. The binder sets PostgreSQL's defaults:
// NULLS LAST for ASC, NULLS FIRST for DESC.
type SortKey struct {
	E          expr.Expr
	Desc       bool
	NullsFirst bool
}

// outBatchRows is the size of the batches sort and aggregate emit.
const outBatchRows = 1024

// sortOp is ORDER BY: it reads all input, sorts stably, and emits. With a
// limit (TopN) it keeps only the best limit rows as it reads.
type sortOp struct {
	in    engine.Operator
	keys  []SortKey
	progs []expr.Program
	limit int64 // -1 = all rows
	ctx   context.Context

	// Buffered input: batches and their key columns.
	batches []arrow.RecordBatch
	keyCols [][]arrow.Array
	rows    int64

	mem memAccount

	// bound, once a top-N's buffer was cut to its limit, is the sort keys
	// of the last row kept (arrays of one row): a later row that does
	// not sort before it cannot be among the first limit (ties go to the
	// earlier row), so the top-N drops it as it reads (beforeBound).
	bound    []arrow.Array
	boundIdx []int32 // scratch: the rows of a batch before the bound

	// After sorting: one batch in sorted order, emitted in slices.
	emit slicer
	done bool

	// Spilling (sort_spill.go): the statement's temporary files (nil:
	// the sort may not spill), the sorted runs written, their schema, the
	// merge of them that emits, and the bytes written.
	tmp       *spill.Statement
	runs      []*spill.File
	runSchema *arrow.Schema
	keyAt     []int // each sort key's column in the runs
	merger    *runMerger
	out       arrow.RecordBatch
	spilled   int64
	fanIn     int // runs merged at once; 0: mergeFanIn (tests set fewer)
}

// NewSort returns ORDER BY keys over in. opts are the session's compile
// options.
func NewSort(in engine.Operator, keys []SortKey, opts ...expr.CompileOptions) (engine.Operator, error) {
	return newSort(in, keys, -1, opts)
}

// NewTopN returns ORDER BY keys LIMIT limit over in, keeping at most about
// 2*limit rows in memory.
func NewTopN(in engine.Operator, keys []SortKey, limit int64, opts ...expr.CompileOptions) (engine.Operator, error) {
	if limit < 0 {
		return nil, fmt.Errorf("topn: negative limit %d", limit)
	}
	return newSort(in, keys, limit, opts)
}

func newSort(in engine.Operator, keys []SortKey, limit int64, opts []expr.CompileOptions) (*sortOp, error) {
	progs := make([]expr.Program, len(keys))
	for i, k := range keys {
		p, err := expr.Compile(k.E, in.Schema(), opts...)
		if err != nil {
			return nil, err
		}
		progs[i] = p
	}
	return &sortOp{in: in, keys: keys, progs: progs, limit: limit}, nil
}

func (o *sortOp) Open(ctx context.Context) error {
	o.ctx = ctx
	o.mem.release() // an operator opened again starts its account anew
	o.mem = newMemAccount(ctx, "sort")
	o.closeSpill()
	releaseAll(o.bound)
	o.bound = nil
	o.tmp = nil
	if o.limit < 0 { // TopN keeps at most about 2*limit rows: no need
		o.tmp = spill.FromContext(ctx)
	}
	return o.in.Open(ctx)
}

func (o *sortOp) Next() (arrow.RecordBatch, error) {
	if !o.done {
		if err := o.consume(); err != nil {
			return nil, err
		}
		o.done = true
	}
	if o.merger != nil {
		return o.nextMerged()
	}
	return o.emit.next(o.ctx)
}

// consume reads the whole input and hands it, sorted, to o.emit.
func (o *sortOp) consume() error {
	compactAt := int64(-1)
	if o.limit >= 0 {
		compactAt = max(2*o.limit, 4096)
	}
	for {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		b, err := o.in.Next()
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		keys := make([]arrow.Array, len(o.progs))
		for i, p := range o.progs {
			k, err := p.Eval(o.ctx, b)
			if err != nil {
				releaseAll(keys)
				return err
			}
			keys[i] = k
		}
		if o.bound != nil {
			var err error
			if b, keys, err = o.beforeBound(b, keys); err != nil {
				return err
			}
			if b == nil {
				continue
			}
		} else {
			b.Retain()
		}
		o.batches = append(o.batches, b)
		o.keyCols = append(o.keyCols, keys)
		o.rows += b.NumRows()
		if o.mem.lim == nil {
			// Nothing to account.
		} else if err := o.mem.growTo(batchBytes(b)+arraysBytes(keys), o.tmp != nil); err != nil {
			if o.tmp == nil {
				return err
			}
			// Past statement_mem: the buffered rows become a sorted run
			// on disk and the buffer starts again.
			if err := o.spillRun(); err != nil {
				return err
			}
		}
		if compactAt >= 0 && o.rows > compactAt {
			if err := o.sortBuffered(o.limit); err != nil {
				return err
			}
		}
	}
	if len(o.runs) > 0 {
		return o.startMerge()
	}
	if len(o.batches) == 0 {
		return nil
	}
	keep := int64(-1)
	if o.limit >= 0 {
		keep = o.limit
	}
	if err := o.sortBuffered(keep); err != nil {
		return err
	}
	o.emit.set(o.batches[0])
	o.batches = nil
	releaseAll(o.keyCols[0])
	o.keyCols = nil
	return nil
}

// sortBuffered sorts the buffered rows and replaces the buffer with one
// sorted batch of at most keep rows (-1 = all).
func (o *sortOp) sortBuffered(keep int64) error {
	mem := expr.Allocator(o.ctx)
	schema := o.in.Schema()
	batch, err := concatBatches(mem, schema, o.batches)
	if err != nil {
		return err
	}
	defer batch.Release()
	keys := make([]arrow.Array, len(o.progs))
	defer releaseAll(keys)
	for k := range o.progs {
		parts := make([]arrow.Array, len(o.keyCols))
		for b := range o.keyCols {
			parts[b] = o.keyCols[b][k]
		}
		if keys[k], err = concatArrays(mem, parts); err != nil {
			return err
		}
	}
	n := int(batch.NumRows())
	var idx []int32
	if len(keys) == 0 {
		idx = make([]int32, n)
		for i := range idx {
			idx[i] = int32(i)
		}
	} else if idx, err = sortIndices(o.ctx, keys, o.keys); err != nil {
		// Ties broken by input position: a stable order.
		return err
	}
	if keep >= 0 && int64(n) > keep {
		idx = idx[:keep]
	}
	sorted, sortedKeys, err := takeRows(o.ctx, batch, keys, idx)
	if err != nil {
		return err
	}
	o.releaseBuffered()
	o.batches = []arrow.RecordBatch{sorted}
	o.keyCols = [][]arrow.Array{sortedKeys}
	o.rows = sorted.NumRows()
	o.mem.resize(o.batches, sortedKeys)
	if keep > 0 && o.rows == keep {
		releaseAll(o.bound)
		o.bound = make([]arrow.Array, len(sortedKeys))
		for k, a := range sortedKeys {
			o.bound[k] = array.NewSlice(a, keep-1, keep)
		}
	}
	return nil
}

// beforeBound keeps the rows of batch b (of the input, keys its sort
// keys) that sort before o.bound: b itself (retained) when all do, a new
// batch of them, or nil when none does. It takes over keys, returning
// those of the rows kept.
func (o *sortOp) beforeBound(b arrow.RecordBatch, keys []arrow.Array) (arrow.RecordBatch, []arrow.Array, error) {
	cmp, err := rowOrder2(keys, o.bound, o.keys)
	if err != nil {
		releaseAll(keys)
		return nil, nil, err
	}
	n := int(b.NumRows())
	idx := o.boundIdx[:0]
	for i := range n {
		if cmp(i, 0) < 0 {
			idx = append(idx, int32(i))
		}
	}
	o.boundIdx = idx
	switch len(idx) {
	case n:
		b.Retain()
		return b, keys, nil
	case 0:
		releaseAll(keys)
		return nil, nil, nil
	}
	defer releaseAll(keys)
	return takeRows(o.ctx, b, keys, idx)
}

// takeRows gathers rows idx of batch b and of its sort keys.
func takeRows(ctx context.Context, b arrow.RecordBatch, keys []arrow.Array, idx []int32) (arrow.RecordBatch, []arrow.Array, error) {
	rows, err := takeBatch(ctx, b, idx)
	if err != nil {
		return nil, nil, err
	}
	out := make([]arrow.Array, len(keys))
	var ia arrow.Array
	defer func() {
		if ia != nil {
			ia.Release()
		}
	}()
	for k, a := range keys {
		if out[k], err = takeTyped(ctx, a, idx, &ia); err != nil {
			releaseAll(out)
			rows.Release()
			return nil, nil, err
		}
	}
	return rows, out, nil
}

// rowOrder compares two rows by the sort keys.
func rowOrder(keys []arrow.Array, spec []SortKey) (func(i, j int) int, error) {
	return rowOrder2(keys, keys, spec)
}

// rowOrder2 compares row i of the keys left with row j of the keys right
// (arrays of the same types).
func rowOrder2(left, right []arrow.Array, spec []SortKey) (func(i, j int) int, error) {
	keys := left
	cmps := make([]func(i, j int) int, len(keys))
	for k, a := range keys {
		if a.DataType().ID() == arrow.NULL {
			cmps[k] = func(i, j int) int { return 0 }
			continue
		}
		c, err := expr.Comparator(a, right[k])
		if err != nil {
			return nil, err
		}
		cmps[k] = c
	}
	// Validity bitmaps read directly (nil = no NULLs in that key).
	lbits, rbits := make([][]byte, len(keys)), make([][]byte, len(keys))
	loffs, roffs := make([]int, len(keys)), make([]int, len(keys))
	for k := range keys {
		if a := left[k]; a.NullN() > 0 {
			lbits[k], loffs[k] = a.NullBitmapBytes(), a.Data().Offset()
		}
		if a := right[k]; a.NullN() > 0 {
			rbits[k], roffs[k] = a.NullBitmapBytes(), a.Data().Offset()
		}
	}
	isNull := func(bits []byte, off, i int) bool {
		if bits == nil {
			return false
		}
		j := off + i
		return bits[j>>3]&(1<<(j&7)) == 0
	}
	return func(i, j int) int {
		for k := range keys {
			var ni, nj bool
			if lbits[k] != nil || rbits[k] != nil {
				ni, nj = isNull(lbits[k], loffs[k], i), isNull(rbits[k], roffs[k], j)
			}
			var c int
			switch {
			case ni && nj:
				continue
			case ni || nj:
				c = 1 // NULL sorts after by default
				if nj {
					c = -1
				}
				if spec[k].NullsFirst {
					c = -c
				}
				return c
			}
			c = cmps[k](i, j)
			if c != 0 {
				if spec[k].Desc {
					return -c
				}
				return c
			}
		}
		return 0
	}, nil
}

func (o *sortOp) releaseBuffered() {
	for _, b := range o.batches {
		b.Release()
	}
	for _, ks := range o.keyCols {
		releaseAll(ks)
	}
	o.batches, o.keyCols, o.rows = nil, nil, 0
}

func (o *sortOp) Close() error {
	o.closeSpill()
	o.releaseBuffered()
	releaseAll(o.bound)
	o.bound = nil
	o.mem.release()
	o.emit.release()
	return o.in.Close()
}

func (o *sortOp) Schema() *arrow.Schema { return o.in.Schema() }

func releaseAll(as []arrow.Array) {
	for i, a := range as {
		if a != nil {
			a.Release()
			as[i] = nil
		}
	}
}
