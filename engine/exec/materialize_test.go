package exec

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// countedInput counts how often an input is opened and closed.
type countedInput struct {
	engine.Operator
	opens, closes *int
	fail          error // returned by Next after the first batch
	n             int
}

func (c *countedInput) Open(ctx context.Context) error {
	*c.opens++
	return c.Operator.Open(ctx)
}

func (c *countedInput) Next() (arrow.RecordBatch, error) {
	if c.fail != nil && c.n > 0 {
		return nil, c.fail
	}
	c.n++
	return c.Operator.Next()
}

func (c *countedInput) Close() error {
	*c.closes++
	return c.Operator.Close()
}

// materializedFixture is a Materialized over the 300 test rows whose
// input counts its opens and closes.
type materializedFixture struct {
	m             *Materialized
	opens, closes int
	want          []string
}

func newMaterializedFixture(t *testing.T, fail error) *materializedFixture {
	t.Helper()
	f := &materializedFixture{}
	rows := tableRows(t)
	input := func() (engine.Operator, error) {
		src := NewBatches(tableSchema, makeBatches(t, memory.DefaultAllocator, rows, []int{50, 50, 100, 100}))
		return &countedInput{Operator: src, opens: &f.opens, closes: &f.closes, fail: fail}, nil
	}
	in, _ := input()
	f.m = NewMaterialized(in, tableSchema, input)
	want, err := drain(context.Background(), t, NewBatches(tableSchema, makeBatches(t, memory.DefaultAllocator, rows, []int{300})))
	if err != nil {
		t.Fatal(err)
	}
	f.want = want
	return f
}

// TestMaterializedReaders reads one result through several readers in
// different orders: every reader sees every row, the input runs once.
func TestMaterializedReaders(t *testing.T) {
	ctx := context.Background()
	t.Run("one after the other", func(t *testing.T) {
		f := newMaterializedFixture(t, nil)
		a, b := f.m.Reader(), f.m.Reader()
		for _, r := range []engine.Operator{a, b} {
			got, err := drain(ctx, t, r)
			if err != nil || !slices.Equal(got, f.want) {
				t.Fatalf("reader: %d rows, err %v; want %d rows", len(got), err, len(f.want))
			}
		}
		if f.opens != 1 || f.closes != 1 {
			t.Fatalf("input opened %d, closed %d times; want 1, 1", f.opens, f.closes)
		}
	})
	t.Run("interleaved", func(t *testing.T) {
		f := newMaterializedFixture(t, nil)
		a, b := f.m.Reader(), f.m.Reader()
		if err := b.Open(ctx); err != nil {
			t.Fatal(err)
		}
		if err := a.Open(ctx); err != nil {
			t.Fatal(err)
		}
		var na, nb int64
		for {
			ba, err := a.Next()
			if err != nil {
				t.Fatal(err)
			}
			bb, err := b.Next()
			if err != nil {
				t.Fatal(err)
			}
			if ba == nil || bb == nil {
				if ba != bb {
					t.Fatal("one reader ended before the other")
				}
				break
			}
			na, nb = na+ba.NumRows(), nb+bb.NumRows()
		}
		a.Close()
		b.Close()
		if na != 300 || nb != 300 || f.opens != 1 {
			t.Fatalf("rows %d and %d, input opened %d times; want 300, 300, 1", na, nb, f.opens)
		}
	})
	t.Run("both sides of a hash join", func(t *testing.T) {
		f := newMaterializedFixture(t, nil)
		j, err := NewHashJoin(f.m.Reader(), f.m.Reader(), JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{col(tID)}, RightKeys: []expr.Expr{col(tID)}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := drain(ctx, t, j)
		if err != nil || len(got) == 0 {
			t.Fatalf("join: %d rows, err %v", len(got), err)
		}
		if f.opens != 1 {
			t.Fatalf("input opened %d times, want 1", f.opens)
		}
	})
	t.Run("a reader after every other closed", func(t *testing.T) {
		f := newMaterializedFixture(t, nil)
		if _, err := drain(ctx, t, f.m.Reader()); err != nil {
			t.Fatal(err)
		}
		got, err := drain(ctx, t, f.m.Reader())
		if err != nil || !slices.Equal(got, f.want) || f.opens != 1 {
			t.Fatalf("later reader: %d rows, err %v, input opened %d times", len(got), err, f.opens)
		}
	})
	t.Run("no reader opens", func(t *testing.T) {
		f := newMaterializedFixture(t, nil)
		a, b := f.m.Reader(), f.m.Reader()
		a.Close()
		if f.closes != 0 {
			t.Fatal("input closed while a reader is left")
		}
		b.Close()
		if f.opens != 0 || f.closes != 1 {
			t.Fatalf("input opened %d, closed %d times; want 0, 1", f.opens, f.closes)
		}
		// A reader made later builds the input again.
		got, err := drain(ctx, t, f.m.Reader())
		if err != nil || !slices.Equal(got, f.want) || f.opens != 1 || f.closes != 2 {
			t.Fatalf("later reader: %d rows, err %v, input opened %d closed %d times", len(got), err, f.opens, f.closes)
		}
	})
	t.Run("concurrent readers", func(t *testing.T) {
		f := newMaterializedFixture(t, nil)
		readers := []engine.Operator{f.m.Reader(), f.m.Reader(), f.m.Reader()}
		got := make([][]string, len(readers))
		errs := make([]error, len(readers))
		var wg sync.WaitGroup
		for i, r := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = drain(ctx, t, r)
			}()
		}
		wg.Wait()
		for i := range readers {
			if errs[i] != nil || !slices.Equal(got[i], f.want) {
				t.Fatalf("reader %d: %d rows, err %v", i, len(got[i]), errs[i])
			}
		}
		if f.opens != 1 {
			t.Fatalf("input opened %d times, want 1", f.opens)
		}
	})
	t.Run("input error", func(t *testing.T) {
		boom := pgerr.New(pgerr.DivisionByZero, "division by zero")
		f := newMaterializedFixture(t, boom)
		for i := 0; i < 2; i++ {
			if _, err := drain(ctx, t, f.m.Reader()); !errors.Is(err, boom) && sqlstate(err) != pgerr.DivisionByZero {
				t.Fatalf("reader %d: err %v, want 22012", i, err)
			}
		}
		if f.opens != 1 || f.closes != 1 {
			t.Fatalf("input opened %d, closed %d times; want 1, 1", f.opens, f.closes)
		}
	})
}

// TestMaterializedMemoryLimit: the rows held count against the
// statement's limit while a reader is open, also when they were computed
// where no limit applied.
func TestMaterializedMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		name     string
		limit    int64
		prefill  bool // run the input first without a limit
		wantFail bool
	}{
		{"over", 1 << 10, false, true},
		{"over, computed without a limit", 1 << 10, true, true},
		{"under", 1 << 30, false, false},
		{"under, computed without a limit", 1 << 30, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newMaterializedFixture(t, nil)
			keep := f.m.Reader() // keeps the result alive across the cases
			if tc.prefill {
				if _, err := drain(context.Background(), t, f.m.Reader()); err != nil {
					t.Fatal(err)
				}
			}
			lim := NewMemoryLimit(tc.limit, "statement_mem")
			ctx := WithMemoryLimit(context.Background(), lim)
			got, err := drain(ctx, t, f.m.Reader())
			if tc.wantFail {
				if sqlstate(err) != pgerr.OutOfMemory {
					t.Fatalf("%d rows, err %v; want 53200", len(got), err)
				}
			} else if err != nil || len(got) != 300 {
				t.Fatalf("%d rows, err %v", len(got), err)
			}
			keep.Close()
			if u := lim.Used(); u != 0 {
				t.Fatalf("%d bytes still accounted after every reader closed", u)
			}
		})
	}
}
