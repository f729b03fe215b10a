package exec

import (
	"context"
	"errors"
	"math/rand"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// endingCtx is a context that is live for its first live calls of Err and
// canceled from then on: it ends in the middle of whatever checks it.
type endingCtx struct {
	context.Context
	live  int64
	calls atomic.Int64
	done  chan struct{}
}

func newEndingCtx(live int64) *endingCtx {
	return &endingCtx{Context: context.Background(), live: live, done: make(chan struct{})}
}

func (c *endingCtx) Done() <-chan struct{} { return c.done }

func (c *endingCtx) Err() error {
	if c.calls.Add(1) > c.live {
		return context.Canceled
	}
	return nil
}

func (c *endingCtx) Deadline() (time.Time, bool) { return time.Time{}, false }

// TestSortFuncCtx checks that a sort notices its context ending while it
// compares, not only before or after, and sorts as slices.SortFunc when
// the context stays live.
func TestSortFuncCtx(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	vals := make([]float64, 200_000)
	for i := range vals {
		vals[i] = rng.Float64()
	}
	cmp := func(a, b float64) int {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	// Live at the check before sorting, ended at the first check inside.
	s := slices.Clone(vals)
	ctx := newEndingCtx(1)
	if err := sortFuncCtx(ctx, s, cmp); !errors.Is(err, context.Canceled) {
		t.Fatalf("sort with a context ending inside it: err %v, want context.Canceled", err)
	}
	if ctx.calls.Load() != 2 {
		t.Fatalf("the sort checked its context %d times, want 2 (it stops at the first check that fails)", ctx.calls.Load())
	}
	s = slices.Clone(vals)
	if err := sortFuncCtx(newEndingCtx(1<<40), s, cmp); err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(s) {
		t.Fatal("not sorted")
	}
	// A panic of the comparison that is not an interrupt goes on.
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the comparison's own panic", r)
		}
	}()
	_ = sortFuncCtx(newEndingCtx(1<<40), slices.Clone(vals), func(a, b float64) int { panic("boom") })
}
