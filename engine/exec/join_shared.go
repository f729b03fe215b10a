package exec

import (
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// SharedBuild is the build side of a hash join that the parallel parts
// of one pipeline probe at once. Each part has a join of its own (its
// own probe state and output) made by NewHashJoinShared over the same
// SharedBuild: the first to open reads the build input and indexes it,
// the others wait for it and then only read the table, and the last to
// close releases it and closes the input.
//
// Joins that remember what each build row found (right and full joins,
// which emit the unmatched build rows at the end, and the joins building
// on their left, which emit the build rows with what they found) keep
// that state per part. As a part's probe input ends it merges its state
// here; the last part to end emits the build rows from the merged state,
// the others emit nothing more.
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

	// The merged state of the parts whose probe has ended.
	probing int     // parts whose probe has not ended
	hits    []uint8 // BuildLeft: partners of each build row, up to 2
	nullHit []bool  // BuildLeft, null-aware: a comparison was NULL
	matched []bool  // Right and Full: build rows that found a partner
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

// NewHashJoinShared joins probe with the shared build side b on equi
// keys, as NewHashJoin joins them: b's input is the right input, or with
// spec.BuildLeft the left one.
func NewHashJoinShared(probe engine.Operator, b *SharedBuild, spec JoinSpec, opts ...expr.CompileOptions) (engine.Operator, error) {
	if len(spec.LeftKeys) == 0 {
		return nil, fmt.Errorf("hash join: no equi keys")
	}
	left, right := probe, b.in
	if spec.BuildLeft {
		left, right = b.in, probe
	}
	o, err := newJoin(left, right, spec, opts)
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
		s.probing = s.users
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
	o.shared = nil
	if o.spec.BuildLeft {
		o.left = emptyClosed{o.left.Schema()}
	} else {
		o.right = emptyClosed{o.right.Schema()}
	}
	o.build = joinBuild{} // s's, released below by the last user
	o.partMem.release()
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

// openSharedBuildLeft readies a part's state of the left rows it shares
// and opens its share of the right input.
func (o *joinOp) openSharedBuildLeft() error {
	n := o.build.rows
	o.partMem.release()
	o.partMem = newMemAccount(o.ctx, "hash join")
	if err := o.partMem.grow(2 * int64(n)); err != nil {
		return err
	}
	o.bl = buildLeftState{hits: make([]uint8, n), nullHit: make([]bool, n)}
	// No left rows: nothing to emit, the right is not read.
	o.bl.rightDone = n == 0
	return o.right.Open(o.ctx)
}

// endSharedProbe merges what o's probe found into the shared state once
// its probe input has ended. It reports whether o is the last part to end,
// which then holds the merged state and emits the build rows' tail.
func (o *joinOp) endSharedProbe() (bool, error) {
	if o.tail != 0 {
		return o.tail > 0, nil
	}
	s := o.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	n := o.build.rows
	if o.spec.BuildLeft {
		if s.hits == nil {
			s.hits, s.nullHit = make([]uint8, n), make([]bool, n)
		}
		for r, h := range o.bl.hits {
			if h > 0 {
				s.hits[r] = min(s.hits[r]+h, 2)
			}
		}
		for r, null := range o.bl.nullHit {
			if null {
				s.nullHit[r] = true
			}
		}
	} else if o.rightMatched != nil {
		if s.matched == nil {
			s.matched = make([]bool, n)
		}
		for r, m := range o.rightMatched {
			if m {
				s.matched[r] = true
			}
		}
	}
	s.probing--
	if s.probing > 0 {
		o.tail = -1
		return false, nil
	}
	o.tail = 1
	if o.spec.BuildLeft {
		o.bl.hits, o.bl.nullHit, o.bl.matched = s.hits, s.nullHit, 0
		for _, h := range s.hits {
			if h > 0 {
				o.bl.matched++
			}
			if h > 1 && o.spec.Single {
				// Two parts each found one partner for the row.
				return true, pgerr.New(pgerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
			}
		}
	} else if o.rightMatched != nil {
		o.rightMatched = s.matched
	}
	return true, nil
}
