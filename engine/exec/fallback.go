package exec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
)

// NewSerialFallback runs primary, a parallel plan whose parts share build
// sides, and, if a shared build side went past statement_mem where its
// join alone would have spilled, closes it and runs the plan serial
// makes instead. It falls back only before primary's first batch, so
// primary must not overflow after it: an aggregation reads all its input
// first, and the parts of a join build every shared side before they
// emit.
func NewSerialFallback(primary engine.Operator, serial func() (engine.Operator, error)) engine.Operator {
	return &serialFallback{cur: primary, serial: serial}
}

type serialFallback struct {
	cur     engine.Operator
	serial  func() (engine.Operator, error)
	ctx     context.Context
	emitted bool
	retried bool
}

func (o *serialFallback) Schema() *arrow.Schema { return o.cur.Schema() }

func (o *serialFallback) Open(ctx context.Context) error {
	o.ctx, o.emitted = ctx, false
	return o.retry(o.cur.Open(ctx))
}

func (o *serialFallback) Next() (arrow.RecordBatch, error) {
	for {
		b, err := o.cur.Next()
		if err == nil {
			o.emitted = true
			return b, nil
		}
		if err = o.retry(err); err != nil {
			return nil, err
		}
	}
}

// retry switches to the serial plan on a shared build side's overflow
// before anything was emitted; it returns err otherwise.
func (o *serialFallback) retry(err error) error {
	var big *errSharedBuildTooLarge
	if err == nil || o.emitted || o.retried || !errors.As(err, &big) {
		return err
	}
	o.retried = true
	// The abandoned plan's Close reports its parts' errors again: the
	// overflow, or the cancellations it caused.
	o.cur.Close()
	op, serr := o.serial()
	if serr != nil {
		o.cur = emptyClosed{o.cur.Schema()}
		return serr
	}
	o.cur = op
	return o.cur.Open(o.ctx)
}

func (o *serialFallback) Close() error { return o.cur.Close() }

// emptyClosed stands in for an operator already closed.
type emptyClosed struct{ schema *arrow.Schema }

func (e emptyClosed) Schema() *arrow.Schema            { return e.schema }
func (e emptyClosed) Open(context.Context) error       { return nil }
func (e emptyClosed) Next() (arrow.RecordBatch, error) { return nil, nil }
func (e emptyClosed) Close() error                     { return nil }
