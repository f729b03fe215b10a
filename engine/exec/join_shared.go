package exec

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// SharedBuild is the build side of a hash join that the parallel parts
// of one pipeline probe at once. Each part has a join of its own (its
// own probe state and output) made by NewHashJoinShared over the same
// SharedBuild: the first to open reads the build input and indexes it,
// the others wait for it and then only read the table, and the last to
// close releases it and closes the input.
//
// A shared build side does not spill. Past statement_mem it fails with
// an error SerialFallback recognizes, which runs the plan again serially,
// where the join can spill.
type SharedBuild struct {
	in engine.Operator

	mu    sync.Mutex
	users int  // joins made over it and not yet closed
	done  bool // the build was attempted
	err   error
	build joinBuild
}

// NewSharedBuild makes a build side over in for joins to share. It takes
// in over: the last join to close closes it (Abandon, if none was made).
func NewSharedBuild(in engine.Operator) *SharedBuild { return &SharedBuild{in: in} }

// Schema is the build input's schema.
func (s *SharedBuild) Schema() *arrow.Schema { return s.in.Schema() }

// Abandon closes the input of a shared build side no join was made
// over (the lowering failed before one was).
func (s *SharedBuild) Abandon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.users == 0 && s.in != nil {
		s.in.Close()
		s.in = nil
	}
}

// NewHashJoinShared joins left with the shared build side b on equi
// keys, as NewHashJoin joins left with b's input. Only the joins whose
// build side is only read while probing take it: inner, left (not
// BuildLeft), semi, anti and mark joins with at least one key.
func NewHashJoinShared(left engine.Operator, b *SharedBuild, spec JoinSpec, opts ...expr.CompileOptions) (engine.Operator, error) {
	if len(spec.LeftKeys) == 0 {
		return nil, fmt.Errorf("hash join: no equi keys")
	}
	if spec.BuildLeft {
		return nil, fmt.Errorf("hash join: a shared build side is the right input")
	}
	switch spec.Type {
	case JoinInner, JoinLeft, JoinSemi, JoinAnti, JoinMark:
	default:
		return nil, fmt.Errorf("hash join: a %s join cannot share its build side", spec.Type)
	}
	o, err := newJoin(left, b.in, spec, opts)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.users++
	b.mu.Unlock()
	o.shared = b
	return o, nil
}

// errSharedBuildTooLarge wraps the statement_mem error of a shared build
// side that, built by one join alone, would have spilled.
type errSharedBuildTooLarge struct{ err error }

func (e *errSharedBuildTooLarge) Error() string { return e.err.Error() }
func (e *errSharedBuildTooLarge) Unwrap() error { return e.err }

// overBudget is the error of a build side past statement_mem that cannot
// spill: for a shared one that could have spilled alone, marked for
// SerialFallback.
func (o *joinOp) overBudget(err error) error {
	if o.shared != nil && o.spillable(o.ctx) {
		return &errSharedBuildTooLarge{err}
	}
	return err
}

// openShared gives o the shared build side, building it if no join has.
func (o *joinOp) openShared() error {
	s := o.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.done {
		s.done = true
		s.err = o.buildShared()
	}
	if s.err != nil {
		return s.err
	}
	o.build = s.build
	return nil
}

// buildShared reads and indexes the shared build side into s.build.
func (o *joinOp) buildShared() error {
	s := o.shared
	o.build = joinBuild{mem: newMemAccount(o.ctx, "hash join build side")}
	if err := s.in.Open(o.ctx); err != nil {
		o.build.release()
		return err
	}
	if err := o.buildSide(); err != nil {
		o.build.release()
		return err
	}
	s.build, o.build = o.build, joinBuild{}
	return nil
}

// leaveShared drops o's use of the shared build side; the last join
// releases it and closes the input.
func (o *joinOp) leaveShared() error {
	s := o.shared
	// A second Close finds nothing shared left to drop.
	o.shared, o.right = nil, emptyClosed{o.right.Schema()}
	o.build = joinBuild{} // s's, released below by the last user
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users--
	if s.users > 0 || s.in == nil {
		return nil
	}
	s.build.release()
	err := s.in.Close()
	s.in = nil
	return err
}

// NewSerialFallback runs primary, a parallel plan whose parts share build
// sides, and, if a shared build side went past statement_mem where its
// join alone would have spilled, closes it and runs the plan serial
// makes instead. primary must emit nothing before it has read all its
// input (an aggregation): the fallback happens at its first batch.
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
