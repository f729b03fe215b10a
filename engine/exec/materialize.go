package exec

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
)

// Materialized is the result of one query computed once and read by
// several readers: a WITH query that a statement refers to more than
// once (PostgreSQL's CTE Scan). The first reader to open runs the input
// to its end and keeps its batches; every reader, that one included,
// then yields them all. Readers may open in any order and from any
// goroutine: one under a hash join's build side, one in a subquery run
// before the statement starts.
//
// The kept batches count against the statement's memory limit (53200
// when over) while a reader is open under one. They are held as long as
// the Materialized is: a reader created after every earlier one closed (a
// subquery run again per outer row) replays them without running the
// input again.
type Materialized struct {
	schema *arrow.Schema
	build  func() (engine.Operator, error)

	mu      sync.Mutex
	input   engine.Operator // built, not yet run; nil once run or closed
	done    bool
	err     error // the error running the input failed with
	batches []arrow.RecordBatch
	bytes   int64
	mem     memAccount
	counted bool // bytes are accounted in mem
	readers int  // readers created and not closed
}

// NewMaterialized returns the shared result of input, whose batches have
// schema. build makes the input again if it is needed after it was closed
// unread (every reader closed before one opened; nil: input is the only
// one).
func NewMaterialized(input engine.Operator, schema *arrow.Schema, build func() (engine.Operator, error)) *Materialized {
	return &Materialized{schema: schema, input: input, build: build}
}

// Reader returns a new operator yielding every row of the result.
func (m *Materialized) Reader() engine.Operator {
	m.mu.Lock()
	m.readers++
	m.mu.Unlock()
	return &materializedReader{m: m}
}

// Rows is the number of rows held (0 before the input ran).
func (m *Materialized) Rows() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	var n int64
	for _, b := range m.batches {
		n += b.NumRows()
	}
	return n
}

// fill runs the input to its end, once, and returns the batches.
func (m *Materialized) fill(ctx context.Context) ([]arrow.RecordBatch, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.done && m.err == nil {
		m.err = m.run(ctx)
		m.done = m.err == nil
	}
	if m.err != nil {
		return nil, m.err
	}
	if !m.counted && memoryLimitOf(ctx) != nil {
		// Run where no limit applied (a subquery run before the
		// statement): account now, under the statement's limit.
		m.mem = newMemAccount(ctx, "WITH query")
		if err := m.mem.grow(m.bytes); err != nil {
			return nil, err
		}
		m.counted = true
	}
	return m.batches, nil
}

// run reads the input into m.batches; the caller holds m.mu.
func (m *Materialized) run(ctx context.Context) (err error) {
	in := m.input
	m.input = nil
	if in == nil {
		if m.build == nil {
			return fmt.Errorf("materialize: the input was closed before it ran")
		}
		if in, err = m.build(); err != nil {
			return err
		}
	}
	defer func() {
		if cerr := in.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	m.mem = newMemAccount(ctx, "WITH query")
	m.counted = m.mem.lim != nil
	if err := in.Open(ctx); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := in.Next()
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		var n int64
		for _, c := range b.Columns() {
			n += dataBytes(c.Data())
		}
		if err := m.mem.grow(n); err != nil {
			return err
		}
		m.bytes += n
		b.Retain()
		m.batches = append(m.batches, b)
	}
}

// closeReader notes that a reader closed. With the last one the input,
// if no reader ran it, is closed, and the rows held stop counting against
// the memory limit (a later reader counts them again).
func (m *Materialized) closeReader() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.readers--
	if m.readers > 0 {
		return nil
	}
	m.mem.release()
	m.counted = false
	if m.input == nil {
		return nil
	}
	in := m.input
	m.input = nil
	return in.Close()
}

// materializedReader replays a Materialized.
type materializedReader struct {
	m      *Materialized
	ctx    context.Context
	rows   []arrow.RecordBatch
	next   int
	closed bool
}

func (o *materializedReader) Open(ctx context.Context) error {
	o.ctx = ctx
	rows, err := o.m.fill(ctx)
	if err != nil {
		return err
	}
	for _, b := range rows {
		b.Retain()
	}
	o.rows = rows
	return nil
}

func (o *materializedReader) Next() (arrow.RecordBatch, error) {
	if err := o.ctx.Err(); err != nil {
		return nil, err
	}
	if o.next >= len(o.rows) {
		return nil, nil
	}
	o.next++
	return o.rows[o.next-1], nil
}

func (o *materializedReader) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	for _, b := range o.rows {
		b.Release()
	}
	o.rows = nil
	return o.m.closeReader()
}

func (o *materializedReader) Schema() *arrow.Schema { return o.m.schema }
