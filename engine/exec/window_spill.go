package exec

import (
	"context"
	"fmt"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/spill"
)

// A window with PARTITION BY whose input passes statement_mem spills,
// when its statement may: the rows buffered so far, and every row read
// after, are written to winPartitions temporary files, each row to the
// file of its partition keys' hash, so that a window partition lies in
// one file whole. At the end of the input each file in turn is read back
// by a window of the same calls, which sorts and evaluates it in memory;
// a file still too large spills again, hashed with another seed, up to
// winMaxDepth levels. A single window partition larger than the limit,
// and a window without PARTITION BY, fail with 53200 as before.
//
// Rows still come out grouped by partition and ordered within one, but
// partitions no longer come out in ascending key order once spilled (no
// plan relies on that order; PostgreSQL promises none without ORDER BY).

const (
	winPartitions = 16
	winMaxDepth   = 4
)

// winSpill is a spilling window's partitions.
type winSpill struct {
	tmp     *spill.Statement
	seed    maphash.Seed
	scratch []byte
	spillParts
}

// spillable reports whether the window may spill in ctx.
func (o *windowOp) spillable(ctx context.Context) bool {
	return len(o.parts) > 0 && o.depth < winMaxDepth && spill.FromContext(ctx) != nil
}

// startSpill writes the buffered batches to the partitions and releases
// them.
func (o *windowOp) startSpill() error {
	o.spill = &winSpill{tmp: spill.FromContext(o.ctx), seed: maphash.MakeSeed(),
		spillParts: newSpillParts(winPartitions)}
	batches := o.batches
	o.batches = nil
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for _, b := range batches {
		if err := o.spillBatch(b); err != nil {
			return err
		}
	}
	releaseAll(o.alive)
	o.alive = nil
	o.mem.release()
	return nil
}

// spillBatch writes b's rows to the partitions of their keys' hash.
func (o *windowOp) spillBatch(b arrow.RecordBatch) error {
	sp := o.spill
	if err := o.ctx.Err(); err != nil {
		return err
	}
	rows := int(b.NumRows())
	if rows == 0 {
		return nil
	}
	ws := make([]keyWriter, len(o.parts))
	for i, p := range o.parts {
		k, err := p.Eval(o.ctx, b)
		if err != nil {
			return err
		}
		defer k.Release()
		w, err := winKeyWriter(k)
		if err != nil {
			return err
		}
		ws[i] = w
	}
	parts := hashRows(sp.seed, ws, rows, len(sp.files), nil, &sp.scratch)
	if err := sp.writeRows(o.ctx, sp.tmp, o.in.Schema(), b, parts); err != nil {
		return fmt.Errorf("window spill: %w", err)
	}
	return nil
}

// winKeyWriter is newKeyWriter, also for dictionary arrays (by value).
func winKeyWriter(a arrow.Array) (keyWriter, error) {
	d, ok := a.(*array.Dictionary)
	if !ok {
		return newKeyWriter(a)
	}
	w, err := newKeyWriter(d.Dictionary())
	if err != nil {
		return nil, err
	}
	return func(dst []byte, i int) []byte {
		if d.IsNull(i) {
			return append(dst, 0)
		}
		return w(dst, d.GetValueIndex(i))
	}, nil
}

// finishSpill ends the partitions' files.
func (o *windowOp) finishSpill() error {
	return o.spill.finish()
}

// nextSpilled emits the partitions' windows, one file at a time.
func (o *windowOp) nextSpilled() (arrow.RecordBatch, error) {
	return o.spill.next(o.schema, "window", func(f *spill.File) (engine.Operator, error) {
		w, err := NewWindow(&spillScan{file: f, schema: o.in.Schema()}, o.partExprs, o.order, o.callDefs, o.opts...)
		if err != nil {
			return nil, err
		}
		w.(*windowOp).depth = o.depth + 1
		if err := w.Open(o.ctx); err != nil {
			w.Close()
			return nil, err
		}
		return w, nil
	})
}

// closeSpill removes the partitions.
func (o *windowOp) closeSpill() {
	if o.spill == nil {
		return
	}
	o.spill.close()
	o.spilled += o.spill.bytes
	o.spill = nil
}

// SpilledBytes is what the window wrote to temporary files.
func (o *windowOp) SpilledBytes() int64 {
	if o.spill != nil {
		return o.spilled + o.spill.bytes
	}
	return o.spilled
}
