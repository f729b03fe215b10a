package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
)

// batchesOp emits a fixed list of batches.
type batchesOp struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	next    int
	ctx     context.Context
}

// NewBatches returns an operator that emits the given batches in order
// (empty ones are skipped). It takes over the caller's references: Close
// releases every batch.
func NewBatches(schema *arrow.Schema, batches []arrow.RecordBatch) engine.Operator {
	return &batchesOp{schema: schema, batches: batches}
}

func (o *batchesOp) Open(ctx context.Context) error {
	o.ctx = ctx
	return nil
}

func (o *batchesOp) Next() (arrow.RecordBatch, error) {
	for o.next < len(o.batches) {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		b := o.batches[o.next]
		o.next++
		if b != nil && b.NumRows() > 0 {
			return b, nil
		}
	}
	return nil, nil
}

func (o *batchesOp) Close() error {
	for i, b := range o.batches {
		if b != nil {
			b.Release()
			o.batches[i] = nil
		}
	}
	return nil
}

func (o *batchesOp) Schema() *arrow.Schema { return o.schema }
