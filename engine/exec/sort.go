package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
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

	// After sorting: one batch in sorted order, emitted in slices.
	emit slicer
	done bool
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
	return o.in.Open(ctx)
}

func (o *sortOp) Next() (arrow.RecordBatch, error) {
	if !o.done {
		if err := o.consume(); err != nil {
			return nil, err
		}
		o.done = true
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
		b.Retain()
		o.batches = append(o.batches, b)
		o.keyCols = append(o.keyCols, keys)
		o.rows += b.NumRows()
		if err := o.mem.growBatch(b); err != nil {
			return err
		}
		for _, k := range keys {
			if err := o.mem.growArray(k); err != nil {
				return err
			}
		}
		if compactAt >= 0 && o.rows > compactAt {
			if err := o.sortBuffered(o.limit); err != nil {
				return err
			}
		}
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
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	cmp, err := rowOrder(keys, o.keys)
	if err != nil {
		return err
	}
	// Ties broken by input position: a stable order from the faster
	// unstable sort.
	if err := sortFuncCtx(o.ctx, idx, func(a, b int32) int {
		if c := cmp(int(a), int(b)); c != 0 {
			return c
		}
		return int(a - b)
	}); err != nil {
		return err
	}
	if keep >= 0 && int64(n) > keep {
		idx = idx[:keep]
	}
	sorted, err := takeBatch(o.ctx, batch, idx)
	if err != nil {
		return err
	}
	sortedKeys := make([]arrow.Array, len(keys))
	ia := int32Array(mem, idx)
	defer ia.Release()
	for k, a := range keys {
		if sortedKeys[k], err = expr.TakeArray(o.ctx, a, ia); err != nil {
			releaseAll(sortedKeys)
			sorted.Release()
			return err
		}
	}
	o.releaseBuffered()
	o.batches = []arrow.RecordBatch{sorted}
	o.keyCols = [][]arrow.Array{sortedKeys}
	o.rows = sorted.NumRows()
	o.mem.resize(o.batches, sortedKeys)
	return nil
}

// rowOrder compares two rows by the sort keys.
func rowOrder(keys []arrow.Array, spec []SortKey) (func(i, j int) int, error) {
	cmps := make([]func(i, j int) int, len(keys))
	for k, a := range keys {
		if a.DataType().ID() == arrow.NULL {
			cmps[k] = func(i, j int) int { return 0 }
			continue
		}
		c, err := expr.Comparator(a, a)
		if err != nil {
			return nil, err
		}
		cmps[k] = c
	}
	// Validity bitmaps read directly (nil = no NULLs in that key).
	bitmaps := make([][]byte, len(keys))
	offs := make([]int, len(keys))
	for k, a := range keys {
		if a.NullN() > 0 {
			bitmaps[k], offs[k] = a.NullBitmapBytes(), a.Data().Offset()
		}
	}
	isNull := func(k, i int) bool {
		j := offs[k] + i
		return bitmaps[k][j>>3]&(1<<(j&7)) == 0
	}
	return func(i, j int) int {
		for k := range keys {
			var ni, nj bool
			if bitmaps[k] != nil {
				ni, nj = isNull(k, i), isNull(k, j)
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
	o.releaseBuffered()
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
