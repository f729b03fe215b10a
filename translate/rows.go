package translate

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
)

// operatorRows streams the batches of an operator tree. The tree is opened
// on the first Next, with that call's context.
type operatorRows struct {
	op     engine.Operator
	tag    string
	opened bool
	done   bool
	closed bool
	// timeout is statement_timeout (0 = none); cancel ends the context the
	// operators were opened with.
	timeout time.Duration
	cancel  context.CancelFunc
	octx    context.Context // the operators' context, once opened
	// notices are sent when the rows end (a hint's, hints.go).
	notices []Notice
}

var _ Rows = (*operatorRows)(nil)

func newOperatorRows(op engine.Operator, tag string) *operatorRows {
	return &operatorRows{op: op, tag: tag}
}

func (r *operatorRows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.done || r.closed {
		return nil, nil
	}
	if !r.opened {
		r.opened = true
		// The operators keep the context they are opened with; it must
		// outlive this call (portals resume later) but end with the rows.
		octx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		if r.timeout > 0 {
			octx, cancel = context.WithTimeoutCause(context.WithoutCancel(ctx), r.timeout, errStatementTimeout)
		}
		r.cancel, r.octx = cancel, octx
		if err := r.op.Open(octx); err != nil {
			r.done = true
			return nil, r.mapErr(err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, r.cancel)
	defer stop()
	for {
		b, err := r.op.Next()
		if err != nil {
			r.done = true
			return nil, r.mapErr(err)
		}
		if b == nil {
			r.done = true
			return nil, nil
		}
		if b.NumRows() > 0 {
			return b, nil
		}
	}
}

func (r *operatorRows) Tag(rowsSent int64) string {
	return r.tag + " " + strconv.FormatInt(rowsSent, 10)
}

func (r *operatorRows) Notices() []Notice { return r.notices }

func (r *operatorRows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.op.Close()
	if r.cancel != nil {
		r.cancel()
	}
	return err
}

// mapErr reports a statement timeout as PostgreSQL does. Only the
// timeout's own cause says "statement timeout": a CancelRequest or a
// client gone while a timeout is set also ends the operators' context,
// and wire reports those as canceled "due to user request".
func (r *operatorRows) mapErr(err error) error {
	if r.octx == nil || !errors.Is(context.Cause(r.octx), errStatementTimeout) {
		return err
	}
	return statementErr(r.octx, err)
}

// emptyRows is the result of a statement without rows (SET, BEGIN...).
type emptyRows struct {
	tag     string
	notices []Notice
}

func (r *emptyRows) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (r *emptyRows) Tag(int64) string                                { return r.tag }
func (r *emptyRows) Notices() []Notice                               { return r.notices }
func (r *emptyRows) Close() error                                    { return nil }

// batchRows returns prepared batches (SHOW, EXPLAIN).
type batchRows struct {
	batches []arrow.RecordBatch
	next    int
	tag     string
	notices []Notice
}

func (r *batchRows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.next >= len(r.batches) {
		return nil, nil
	}
	r.next++
	return r.batches[r.next-1], nil
}

func (r *batchRows) Tag(int64) string { return r.tag }

func (r *batchRows) Notices() []Notice { return r.notices }

func (r *batchRows) Close() error {
	for _, b := range r.batches {
		b.Release()
	}
	r.batches = nil
	return nil
}

// textRows is one text column of the given values.
func textRows(name string, values []string, tag string) (Rows, error) {
	return textTable([]string{name}, [][]string{values}, tag)
}

// textTable is a batch of text columns (cols[i] holds column i's values).
func textTable(names []string, cols [][]string, tag string) (Rows, error) {
	fields := make([]arrow.Field, len(names))
	arrs := make([]arrow.Array, len(names))
	n := 0
	for i, name := range names {
		fields[i] = arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}
		b := array.NewStringBuilder(memory.DefaultAllocator)
		b.AppendValues(cols[i], nil)
		arrs[i] = b.NewArray()
		b.Release()
		n = len(cols[i])
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	r := &batchRows{tag: tag}
	if n > 0 {
		r.batches = []arrow.RecordBatch{rec}
	} else {
		rec.Release()
	}
	return r, nil
}
