package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
)

// limitOp skips offset rows, then passes at most limit rows.
type limitOp struct {
	in     engine.Operator
	limit  int64 // -1 = none
	offset int64
	ctx    context.Context
	seen   int64 // rows emitted
	skip   int64 // rows still to skip
	out    arrow.RecordBatch
}

// NewLimit returns LIMIT limit OFFSET offset over in (limit -1 = no
// limit). It stops pulling from in once the limit is reached.
func NewLimit(in engine.Operator, limit int64, offset int64) engine.Operator {
	return &limitOp{in: in, limit: limit, offset: max(offset, 0)}
}

func (o *limitOp) Open(ctx context.Context) error {
	o.ctx = ctx
	o.skip = o.offset
	return o.in.Open(ctx)
}

func (o *limitOp) Next() (arrow.RecordBatch, error) {
	o.release()
	for {
		if o.limit >= 0 && o.seen >= o.limit {
			return nil, nil
		}
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.in.Next()
		if err != nil || b == nil {
			return nil, err
		}
		n := b.NumRows()
		start := int64(0)
		if o.skip > 0 {
			if o.skip >= n {
				o.skip -= n
				continue
			}
			start = o.skip
			o.skip = 0
		}
		end := n
		if o.limit >= 0 && end-start > o.limit-o.seen {
			end = start + o.limit - o.seen
		}
		o.seen += end - start
		if start == 0 && end == n {
			return b, nil
		}
		o.out = b.NewSlice(start, end)
		return o.out, nil
	}
}

func (o *limitOp) release() {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
}

func (o *limitOp) Close() error {
	o.release()
	return o.in.Close()
}

func (o *limitOp) Schema() *arrow.Schema { return o.in.Schema() }
