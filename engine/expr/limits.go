package expr

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// Limits on what kernels build. PostgreSQL refuses a single value over 1GB
// (54000); icegate also charges the values a kernel builds for a batch to
// the statement's memory limit (statement_mem, 53200), so that a function
// whose output grows with its arguments - repeat, lpad, replace,
// regexp_replace, ||, format... - cannot take the server's memory past it.

// MemoryBudget is the statement's memory limit as kernels see it: Fits
// reports whether n bytes more than the operators hold fit in it (53200
// when not). exec.MemoryLimit implements it.
type MemoryBudget interface {
	Fits(n int64, what string) error
}

type budgetKey struct{}

// WithMemoryBudget returns a context whose programs check what they build
// against b.
func WithMemoryBudget(ctx context.Context, b MemoryBudget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b)
}

func budgetOf(ctx context.Context) MemoryBudget {
	b, _ := ctx.Value(budgetKey{}).(MemoryBudget)
	return b
}

// MaxValueBytes is the largest text, bytea or array value the engine
// builds: PostgreSQL's MaxAllocSize less a value's 4-byte header.
const MaxValueBytes = maxTextBytes

// budgetStep is how many bytes a kernel builds between two checks of the
// budget (and of interrupts).
const budgetStep = 1 << 20

// valueTooLarge is PostgreSQL's error for a string buffer that would pass
// 1GB.
func valueTooLarge(have, more int64) error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "out of memory").
		WithDetail("Cannot enlarge string buffer containing %d bytes by %d more bytes.", have, more)
}

// reserve checks that a kernel may build n bytes for one value when it has
// built done bytes for the batch so far: a value over 1GB is 54000
// "requested length too large" (before anything is allocated for it), a
// batch's values past the statement's memory limit 53200. It also checks
// for interrupts, since building n bytes takes time.
func (ev *evalCtx) reserve(done, n int64) error {
	if n > MaxValueBytes {
		return errTooLong
	}
	if err := ev.ctx.Err(); err != nil {
		return err
	}
	if ev.budget != nil {
		return ev.budget.Fits(ev.live+done+n, "values of its expressions")
	}
	return nil
}

// built is a kernel's running count of the bytes it built for a batch,
// checked every budgetStep bytes and at every value over budgetStep.
type built struct {
	ev    *evalCtx
	total int64
	next  int64 // the next total to check at
}

// add counts a value of n bytes that is built (or is about to be).
func (b *built) add(n int) error {
	if n > MaxValueBytes {
		return valueTooLarge(0, int64(n))
	}
	b.total += int64(n)
	if b.ev == nil || b.total < b.next {
		return nil
	}
	b.next = b.total + budgetStep
	return b.ev.reserve(b.total, 0)
}

// varBytes is what the values of a variable-width array take (0 for
// other arrays, whose size follows the batch's).
func varBytes(a arrow.Array) int64 {
	if a == nil || a.Len() == 0 {
		return 0
	}
	switch a := a.(type) {
	case *array.String:
		return int64(a.ValueOffset(a.Len()-1) + len(a.Value(a.Len()-1)) - a.ValueOffset(0))
	case *array.Binary:
		o := a.ValueOffsets()
		return int64(o[len(o)-1] - o[0])
	case *array.List:
		start, _ := a.ValueOffsets(0)
		_, end := a.ValueOffsets(a.Len() - 1)
		n := (end - start) * 8 // a word per element at least
		if end > start {
			// Text and bytea elements: their bytes.
			elems := array.NewSlice(a.ListValues(), start, end)
			n += varBytes(elems)
			elems.Release()
		}
		return n
	}
	return 0
}

// checkOutput checks the array a kernel returned, for the kernels that do
// not count as they build: its values, with its arguments', against the
// statement's memory limit, and a single value against 1GB.
func (ev *evalCtx) checkOutput(a arrow.Array) error {
	if a == nil || ev.budget == nil && a.Len() != 1 {
		return nil
	}
	n := varBytes(a)
	if n < budgetStep {
		return nil
	}
	if n > MaxValueBytes && a.Len() == 1 {
		return valueTooLarge(0, n)
	}
	return ev.reserve(n, 0)
}

// Folding a constant expression runs at compile time, outside the
// statement's context and memory limit: it builds only small values
// (foldBudget) and does not match regular expressions over long ones.
// What it leaves runs with the statement, interruptible and accounted.
var foldContext = context.WithValue(context.Background(), foldingKey{}, true)

type foldingKey struct{}

// foldBudget refuses values over budgetStep, so that the expression is
// left to run.
type foldBudget struct{}

var errFoldTooLarge = errors.New("constant too large to fold")

func (foldBudget) Fits(n int64, _ string) error {
	if n > budgetStep {
		return errFoldTooLarge
	}
	return nil
}

// checkBroadcast checks the array of ev.n copies of the constant c before
// it is built: a long constant repeated over a batch takes its length
// times the batch's rows.
func (ev *evalCtx) checkBroadcast(c arrow.Array) error {
	var n int64
	switch c := c.(type) {
	case *array.String:
		n = int64(len(c.Value(0)))
	case *array.Binary:
		n = int64(len(c.Value(0)))
	case *array.List:
		start, end := c.ValueOffsets(0)
		n = (end - start) * 8
	default:
		return nil
	}
	if n*int64(ev.n) < budgetStep {
		return nil
	}
	return ev.reserve(n*int64(ev.n), 0)
}
