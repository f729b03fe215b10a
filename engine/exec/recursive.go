package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
)

// WorkTable holds the rows a recursive query's previous iteration
// produced; the recursive term reads them through NewWorkTableScan.
type WorkTable struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

// NewWorkTable returns an empty work table of the given schema.
func NewWorkTable(schema *arrow.Schema) *WorkTable { return &WorkTable{schema: schema} }

// NewWorkTableScan yields the rows the work table holds when it is
// opened.
func NewWorkTableScan(wt *WorkTable) engine.Operator { return &workTableScan{wt: wt} }

type workTableScan struct {
	wt   *WorkTable
	rows []arrow.RecordBatch
	next int
	ctx  context.Context
}

func (o *workTableScan) Open(ctx context.Context) error {
	o.ctx = ctx
	o.rows = o.wt.batches
	for _, b := range o.rows {
		b.Retain()
	}
	return nil
}

func (o *workTableScan) Next() (arrow.RecordBatch, error) {
	if err := o.ctx.Err(); err != nil {
		return nil, err
	}
	if o.next >= len(o.rows) {
		return nil, nil
	}
	o.next++
	return o.rows[o.next-1], nil
}

func (o *workTableScan) Close() error {
	for _, b := range o.rows {
		b.Release()
	}
	o.rows = nil
	return nil
}

func (o *workTableScan) Schema() *arrow.Schema { return o.wt.schema }

// recursiveOp is WITH RECURSIVE's union: the anchor's rows, then the
// rows of the recursive term run again and again over the previous
// iteration's rows (the work table) until an iteration adds none. With
// distinct (UNION), rows seen before are dropped, so every row comes out
// once and the recursion ends when nothing new appears. Inputs carry no
// dictionary columns (the planner projects them decoded).
type recursiveOp struct {
	anchor    engine.Operator
	wt        *WorkTable
	recursive func() (engine.Operator, error)
	distinct  bool
	ctx       context.Context

	cur     engine.Operator // the input being read: anchor or an iteration
	next    []arrow.RecordBatch
	seen    map[string]struct{}
	keyBuf  []byte
	last    arrow.RecordBatch
	started bool
}

// NewRecursiveUnion returns the union of anchor and the iterations of
// the recursive term; recursive builds a fresh operator for an iteration
// (it reads wt). The anchor and the iterations have the same column
// types.
func NewRecursiveUnion(anchor engine.Operator, wt *WorkTable, recursive func() (engine.Operator, error), distinct bool) (engine.Operator, error) {
	if anchor.Schema().NumFields() != wt.schema.NumFields() {
		return nil, fmt.Errorf("recursive union: anchor has %d columns, work table %d", anchor.Schema().NumFields(), wt.schema.NumFields())
	}
	return &recursiveOp{anchor: anchor, wt: wt, recursive: recursive, distinct: distinct, seen: map[string]struct{}{}}, nil
}

func (o *recursiveOp) Open(ctx context.Context) error {
	o.ctx = ctx
	o.cur = o.anchor
	o.started = true
	return o.anchor.Open(ctx)
}

func (o *recursiveOp) Next() (arrow.RecordBatch, error) {
	if o.last != nil {
		o.last.Release()
		o.last = nil
	}
	for o.cur != nil {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.cur.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			if err := o.advance(); err != nil {
				return nil, err
			}
			continue
		}
		if o.distinct {
			if b, err = o.newRows(b); err != nil {
				return nil, err
			}
			if b == nil {
				continue
			}
		} else {
			b.Retain()
		}
		o.next = append(o.next, b)
		b.Retain()
		o.last = b
		return b, nil
	}
	return nil, nil
}

// advance ends the current input and starts the next iteration over the
// rows just produced, or ends the union when there were none.
func (o *recursiveOp) advance() error {
	err := o.cur.Close()
	if o.cur == o.anchor {
		o.anchor = nil
	}
	o.cur = nil
	if err != nil {
		return err
	}
	for _, b := range o.wt.batches {
		b.Release()
	}
	o.wt.batches, o.next = o.next, nil
	if len(o.wt.batches) == 0 {
		return nil
	}
	op, err := o.recursive()
	if err != nil {
		return err
	}
	if err := op.Open(o.ctx); err != nil {
		op.Close()
		return err
	}
	o.cur = op
	return nil
}

// newRows returns the rows of b not seen before (a new batch the caller
// owns), or nil when there are none.
func (o *recursiveOp) newRows(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	writers := make([]keyWriter, b.NumCols())
	for j := range writers {
		w, err := newKeyWriter(b.Column(j))
		if err != nil {
			return nil, err
		}
		writers[j] = w
	}
	var keep []int32
	for i := 0; i < int(b.NumRows()); i++ {
		k := o.keyBuf[:0]
		for _, w := range writers {
			k = w(k, i)
		}
		o.keyBuf = k
		if _, ok := o.seen[string(k)]; ok {
			continue
		}
		o.seen[string(k)] = struct{}{}
		keep = append(keep, int32(i))
	}
	if len(keep) == 0 {
		return nil, nil
	}
	if len(keep) == int(b.NumRows()) {
		b.Retain()
		return b, nil
	}
	return takeBatch(o.ctx, b, keep)
}

func (o *recursiveOp) Close() error {
	var err error
	if o.last != nil {
		o.last.Release()
		o.last = nil
	}
	if o.cur != nil {
		err = o.cur.Close()
		if o.cur == o.anchor {
			o.anchor = nil
		}
		o.cur = nil
	}
	if o.anchor != nil {
		if cerr := o.anchor.Close(); err == nil {
			err = cerr
		}
		o.anchor = nil
	}
	for _, b := range o.next {
		b.Release()
	}
	o.next = nil
	for _, b := range o.wt.batches {
		b.Release()
	}
	o.wt.batches = nil
	return err
}

func (o *recursiveOp) Schema() *arrow.Schema { return o.wt.schema }
