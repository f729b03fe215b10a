package exec

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// openCounter counts the times its input is opened and closed.
type openCounter struct {
	engine.Operator
	opens, closes *atomic.Int32
}

func (c openCounter) Open(ctx context.Context) error { c.opens.Add(1); return c.Operator.Open(ctx) }
func (c openCounter) Close() error                   { c.closes.Add(1); return c.Operator.Close() }

// TestJoinShared: parts probing one shared build side, each with its
// share of the probe rows, gathered, give the rows of the one join over
// all of them, for every join type with keys, building on either side:
// right and full joins and those building on their left emit the build
// rows once, from what every part found. The build input is opened and
// closed once, and every buffer is released.
func TestJoinShared(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	ran := 0
	for _, c := range joinCases() {
		if len(c.keys.cols) == 0 {
			continue
		}
		for _, buildLeft := range []bool{false, true} {
			ls := joinSideSchema("l_", c.data.ldict)
			rs := joinSideSchema("r_", c.data.rdict)
			spec := c.spec(ls, rs)
			if buildLeft && !buildsLeft(spec) {
				continue
			}
			spec.BuildLeft = buildLeft
			name := fmt.Sprintf("%s/%s/keys=%s/res=%s/nullaware=%v/single=%v/buildleft=%v", c.data.name, c.typ, c.keys.name, c.res.name, c.nullAware, c.single, buildLeft)
			ran += runShared(t, ctx, mem, c, spec, name)
		}
	}
	if ran < 300 {
		t.Fatalf("only %d cases ran", ran)
	}
}

// runShared runs case c with its probe side's rows dealt to three parts
// over one shared build side, and checks the answer.
func runShared(t *testing.T, ctx context.Context, mem memory.Allocator, c joinCase, spec JoinSpec, name string) int {
	want, wantErr := c.reference()
	ls := joinSideSchema("l_", c.data.ldict)
	rs := joinSideSchema("r_", c.data.rdict)
	build, probe, sizes, ps := c.data.right, c.data.left, c.data.lsizes, ls
	bs, bsizes := rs, c.data.rsizes
	if spec.BuildLeft {
		build, probe, sizes, ps = c.data.left, c.data.right, c.data.rsizes, rs
		bs, bsizes = ls, c.data.lsizes
	}
	var opens, closes atomic.Int32
	b := NewSharedBuild(openCounter{joinSource(t, mem, bs, build, bsizes), &opens, &closes})
	const parts = 3
	var ops []engine.Operator
	for k := range parts {
		// Part k takes every third probe row.
		var share []jrow
		for i := k; i < len(probe); i += parts {
			share = append(share, probe[i])
		}
		op, err := NewHashJoinShared(joinSource(t, mem, ps, share, sizes), b, spec)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ops = append(ops, op)
	}
	{
		g, err := NewGather(ops)
		if err != nil {
			t.Fatal(err)
		}
		got, err := drain(ctx, t, g)
		if o, c := opens.Load(), closes.Load(); o != 1 || c != 1 {
			t.Errorf("%s: build input opened %d times, closed %d times; want once each", name, o, c)
		}
		if wantErr != "" || err != nil {
			if sqlstate(err) != wantErr {
				t.Errorf("%s: error %v (SQLSTATE %q), want SQLSTATE %q", name, err, sqlstate(err), wantErr)
			}
			return 1
		}
		if g, w := strings.Join(sortedCopy(got), "\n"), strings.Join(sortedCopy(want), "\n"); g != w {
			t.Errorf("%s: got %d rows, want %d\n%s", name, len(got), len(want), diffRows(got, want))
		}
	}
	return 1
}

// TestJoinSharedFallsBack: a shared build side past statement_mem, which
// a join of its own would spill, makes SerialFallback run the serial plan
// instead, whose join spills: the answer is the serial one, and nothing
// stays accounted or on disk.
func TestJoinSharedFallsBack(t *testing.T) {
	mem := checkedMem(t)
	left := replayable(t, mem, randomRows(6000, 4), []int{1000, 333})
	right := replayable(t, mem, randomRows(6000, 5), []int{700, 1024})
	rcol := &expr.Col{Idx: tS, Name: "s_r", T: tableSchema.Field(tS).Type}
	spec := JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{col(tS)}, RightKeys: []expr.Expr{rcol}}
	count := func(in engine.Operator) engine.Operator {
		op, err := NewHashAggregate(in, nil, []AggCall{{Fn: "count", Name: "count"}})
		if err != nil {
			t.Fatal(err)
		}
		return op
	}
	serial := func() (engine.Operator, error) {
		j, err := NewHashJoin(left(), right(), spec)
		if err != nil {
			return nil, err
		}
		return count(j), nil
	}
	op, err := serial()
	if err != nil {
		t.Fatal(err)
	}
	want, err := drain(context.Background(), t, op)
	if err != nil {
		t.Fatal(err)
	}
	parallel := func() engine.Operator {
		b := NewSharedBuild(right())
		var parts []engine.Operator
		for range 2 {
			j, err := NewHashJoinShared(left(), b, spec)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, j)
		}
		g, err := NewGather(parts)
		if err != nil {
			t.Fatal(err)
		}
		return count(g)
	}
	// Enough memory: the shared build side answers (each part sees all
	// left rows, so twice the count).
	got, err := drain(context.Background(), t, NewSerialFallback(parallel(), serial))
	if err != nil {
		t.Fatal(err)
	}
	var n, n2 int
	fmt.Sscan(want[0], &n)
	fmt.Sscan(got[0], &n2)
	if n2 != 2*n {
		t.Fatalf("shared: %d rows, want %d", n2, 2*n)
	}
	// Little memory: the serial plan answers.
	e := newSpillEnv(t, 48<<10, -1)
	got, err = drain(e.ctx, t, NewSerialFallback(parallel(), serial))
	if err != nil {
		var big *errSharedBuildTooLarge
		t.Fatalf("%v (%T, shared overflow %v)", err, err, errors.As(err, &big))
	}
	if got[0] != want[0] {
		t.Fatalf("after falling back: %s, want %s", got[0], want[0])
	}
	e.checkClean(t)
	// Without temporary files the serial join cannot spill either: the
	// statement_mem error stands.
	lim := NewMemoryLimit(48<<10, "statement_mem")
	_, err = drain(WithMemoryLimit(context.Background(), lim), t, NewSerialFallback(parallel(), func() (engine.Operator, error) {
		t.Error("fell back with nowhere to spill")
		return serial()
	}))
	var big *errSharedBuildTooLarge
	if sqlstate(err) != "53200" || errors.As(err, &big) {
		t.Fatalf("got %v, want 53200", err)
	}
	if u := lim.Used(); u != 0 {
		t.Errorf("%d bytes still accounted", u)
	}
}
