package exec

import (
	"context"
	"slices"
)

// Long loops inside one batch check for interrupts (a CancelRequest,
// statement_timeout, a client gone) the way PostgreSQL's
// CHECK_FOR_INTERRUPTS does: every so many steps, not only between
// batches. A sort of ten million rows runs for seconds inside one call.

// interruptEvery is how many comparisons a sort makes between two checks
// of its context: a few hundred microseconds of work.
const interruptEvery = 1 << 13

// interrupted carries a context's error out of a comparison function.
type interrupted struct{ err error }

// sortFuncCtx is slices.SortFunc that stops with ctx's error when ctx ends
// while it sorts (s is then in some permutation of its rows).
func sortFuncCtx[T any](ctx context.Context, s []T, cmp func(a, b T) int) (err error) {
	if ctx.Done() == nil {
		slices.SortFunc(s, cmp)
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			i, ok := r.(interrupted)
			if !ok {
				panic(r)
			}
			err = i.err
		}
	}()
	n := 0
	slices.SortFunc(s, func(a, b T) int {
		if n++; n == interruptEvery {
			n = 0
			if err := ctx.Err(); err != nil {
				panic(interrupted{err})
			}
		}
		return cmp(a, b)
	})
	return nil
}
