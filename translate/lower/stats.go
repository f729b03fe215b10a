package lower

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icegate/icegate/engine"
)

// OpStats is what one operator did during EXPLAIN ANALYZE: the rows and
// batches it returned, how often it was opened, and the time spent in it
// and below it, in all and until its first rows.
type OpStats struct {
	rows, batches int64
	opens         int64
	dur, first    time.Duration
	spilled       int64  // bytes written to temporary files
	Extra         string // what a scan pruned
	// filtered, for a scan that applied its filter's conjuncts, count the
	// rows they removed (Rows counts them: the filter's input).
	filtered []func() int64
}

// Spilled is the bytes the operator wrote to temporary files (a sort
// past statement_mem), over all its loops.
func (s *OpStats) Spilled() int64 { return s.spilled }

func (s *OpStats) String() string {
	out := fmt.Sprintf("(actual rows=%d batches=%d time=%.3f ms)", s.Rows(), s.batches, float64(s.dur.Microseconds())/1000)
	if s.Extra != "" {
		out += " (" + s.Extra + ")"
	}
	return out
}

// Rows is the rows the operator returned; for a scan that applied its
// filter's conjuncts, the rows it read, which the filter then saw.
func (s *OpStats) Rows() int64 {
	n := s.rows
	for _, f := range s.filtered {
		n += f()
	}
	return n
}

// Opens is how many times the operator was opened: PostgreSQL's loops.
func (s *OpStats) Opens() int64 { return s.opens }

// Time is the time spent in the operator and below it.
func (s *OpStats) Time() time.Duration { return s.dur }

// FirstTime is the time spent until the operator returned its first
// batch (all of it when it returned none).
func (s *OpStats) FirstTime() time.Duration {
	if s.batches == 0 {
		return s.dur
	}
	return s.first
}

// statsOp counts what passes through an operator.
type statsOp struct {
	engine.Operator
	st *OpStats
}

func (o *statsOp) Open(ctx context.Context) error {
	t := time.Now()
	err := o.Operator.Open(ctx)
	o.st.dur += time.Since(t)
	o.st.opens++
	return err
}

func (o *statsOp) Next() (arrow.RecordBatch, error) {
	t := time.Now()
	b, err := o.Operator.Next()
	o.st.dur += time.Since(t)
	if b != nil {
		if o.st.batches == 0 {
			o.st.first = o.st.dur
		}
		o.st.rows += b.NumRows()
		o.st.batches++
	}
	return b, err
}

// spiller is an operator that may write temporary files.
type spiller interface{ SpilledBytes() int64 }

// SpilledBytes passes on what the operator wrote: a node lowered to its
// input's operator (a filter on a mark join that is an anti join) counts
// that operator's files.
func (o *statsOp) SpilledBytes() int64 {
	if sp, ok := o.Operator.(spiller); ok {
		return sp.SpilledBytes()
	}
	return 0
}

func (o *statsOp) Close() error {
	if sp, ok := o.Operator.(spiller); ok {
		o.st.spilled += sp.SpilledBytes()
	}
	return o.Operator.Close()
}
