package exec

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
)

var _ engine.Operator = (*gatherOp)(nil)

// gatherOp runs parallel pipelines: each part is opened, drained and
// closed by its own goroutine, which hands its batches (retained) over a
// channel; Next yields them in arrival order. The first error cancels the
// other parts.
type gatherOp struct {
	parts  []engine.Operator
	schema *arrow.Schema

	ctx     context.Context
	cancel  context.CancelFunc
	batches chan arrow.RecordBatch
	wg      sync.WaitGroup
	done    chan struct{} // closed when every part has finished

	mu       sync.Mutex
	err      error // the first error of a part
	reported bool  // Next returned err
	closing  bool  // Close canceled the parts: their errors are moot

	out     arrow.RecordBatch
	started bool
	owned   bool // NewGatherOwned
}

// NewGather runs each part in its own goroutine and yields their batches as
// they come (in no particular order). All parts must have the same column
// types; the schema is the first part's. Errors from any part cancel the
// others; Close cancels what still runs and waits for every goroutine.
// The allocator in the ctx given to Open is used from several goroutines
// at once, so it must be safe for that (memory.DefaultAllocator and
// memory.CheckedAllocator are).
func NewGather(parts []engine.Operator) (engine.Operator, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("gather: no parts")
	}
	first := parts[0].Schema()
	for i, p := range parts[1:] {
		s := p.Schema()
		if s.NumFields() != first.NumFields() {
			return nil, fmt.Errorf("gather: part %d has %d columns, part 0 has %d", i+1, s.NumFields(), first.NumFields())
		}
		for j := range s.Fields() {
			if !arrow.TypeEqual(s.Field(j).Type, first.Field(j).Type) {
				return nil, fmt.Errorf("gather: part %d column %d is %s, part 0 has %s", i+1, j, s.Field(j).Type, first.Field(j).Type)
			}
		}
	}
	return &gatherOp{parts: parts, schema: first}, nil
}

// NewGatherOwned is NewGather whose parts copy each batch before handing
// it over: their scans may recycle the buffers of the batches they
// release (scan.Options.RecycleBuffers), and the consumer may keep views
// of a batch's values past its release.
func NewGatherOwned(parts []engine.Operator) (engine.Operator, error) {
	op, err := NewGather(parts)
	if err != nil {
		return nil, err
	}
	op.(*gatherOp).owned = true
	return op, nil
}

// ownedCopy copies b's columns onto the heap.
func ownedCopy(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, b.NumCols())
	defer releaseAll(cols)
	for j, c := range b.Columns() {
		cp, err := array.Concatenate([]arrow.Array{c}, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("gather: copy a batch: %w", err)
		}
		cols[j] = cp
	}
	return array.NewRecordBatch(b.Schema(), cols, b.NumRows()), nil
}

func (o *gatherOp) Open(ctx context.Context) error {
	o.ctx, o.cancel = context.WithCancel(ctx)
	o.batches = make(chan arrow.RecordBatch, len(o.parts))
	o.done = make(chan struct{})
	o.started = true
	for _, p := range o.parts {
		o.wg.Add(1)
		go o.run(p)
	}
	go func() {
		o.wg.Wait()
		close(o.done)
	}()
	return nil
}

// run drives one part to its end in this goroutine.
func (o *gatherOp) run(p engine.Operator) {
	defer o.wg.Done()
	err := o.drive(p)
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		o.fail(err)
	}
}

func (o *gatherOp) drive(p engine.Operator) error {
	if err := p.Open(o.ctx); err != nil {
		return err
	}
	for {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		b, err := p.Next()
		if err != nil || b == nil {
			return err
		}
		if o.owned {
			if b, err = ownedCopy(b); err != nil {
				return err
			}
		} else {
			b.Retain()
		}
		select {
		case o.batches <- b:
		case <-o.ctx.Done():
			b.Release()
			return o.ctx.Err()
		}
	}
}

// fail records the first error of a part and stops the others. Errors
// that only echo the cancellation are not recorded over the cause.
func (o *gatherOp) fail(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil && !o.closing && !(errors.Is(err, context.Canceled) && o.ctx.Err() != nil) {
		o.err = err
	}
	o.cancel()
}

func (o *gatherOp) firstErr() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// nextErr is firstErr for Next: an error Next returned is not returned
// again by Close.
func (o *gatherOp) nextErr() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		o.reported = true
	}
	return o.err
}

func (o *gatherOp) Next() (arrow.RecordBatch, error) {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	for {
		if err := o.nextErr(); err != nil {
			return nil, err
		}
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		select {
		case b := <-o.batches:
			o.out = b
			return b, nil
		case <-o.done:
			// Every part ended; batches sent before that are still queued.
			select {
			case b := <-o.batches:
				o.out = b
				return b, nil
			default:
			}
			if err := o.nextErr(); err != nil {
				return nil, err
			}
			return nil, o.ctx.Err()
		case <-o.ctx.Done():
			if err := o.nextErr(); err != nil {
				return nil, err
			}
			return nil, o.ctx.Err()
		}
	}
}

func (o *gatherOp) Close() error {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	if !o.started {
		// Never opened: the parts are closed here, not by goroutines.
		var first error
		for _, p := range o.parts {
			if err := p.Close(); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	o.mu.Lock()
	o.closing = true
	o.mu.Unlock()
	o.cancel()
	// Drain while the goroutines wind down so none blocks on a send.
	for {
		select {
		case b := <-o.batches:
			b.Release()
			continue
		case <-o.done:
		}
		break
	}
	for {
		select {
		case b := <-o.batches:
			b.Release()
			continue
		default:
		}
		break
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.reported {
		return nil
	}
	return o.err
}

func (o *gatherOp) Schema() *arrow.Schema { return o.schema }
