package lower

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/icegate/icegate/engine"
)

// OpStats is what one operator did during EXPLAIN ANALYZE: the rows and
// batches it returned and the time spent in it and below it.
type OpStats struct {
	rows, batches int64
	dur           time.Duration
	Extra         string // what a scan pruned
}

func (s *OpStats) String() string {
	out := fmt.Sprintf("(actual rows=%d batches=%d time=%.3f ms)", s.rows, s.batches, float64(s.dur.Microseconds())/1000)
	if s.Extra != "" {
		out += " (" + s.Extra + ")"
	}
	return out
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
	return err
}

func (o *statsOp) Next() (arrow.RecordBatch, error) {
	t := time.Now()
	b, err := o.Operator.Next()
	o.st.dur += time.Since(t)
	if b != nil {
		o.st.rows += b.NumRows()
		o.st.batches++
	}
	return b, err
}
