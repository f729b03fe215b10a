package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestJoinBuildLeftMemoryLimit checks that a join building on its left
// input counts what it holds against the memory limit (53200 under a
// small one) and gives it all back on Close.
func TestJoinBuildLeftMemoryLimit(t *testing.T) {
	rows := tableRows(t)
	input := func() engine.Operator {
		return NewBatches(tableSchema, makeBatches(t, memory.DefaultAllocator, rows, []int{50, 50, 100, 100}))
	}
	for _, typ := range []JoinType{JoinSemi, JoinAnti, JoinMark} {
		for _, tc := range []struct {
			limit int64
			fail  bool
		}{{1 << 10, true}, {1 << 30, false}} {
			lim := NewMemoryLimit(tc.limit, "statement_mem")
			op, err := NewHashJoin(input(), input(), JoinSpec{Type: typ, BuildLeft: true,
				LeftKeys: []expr.Expr{col(tID)}, RightKeys: []expr.Expr{col(tID)}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(WithMemoryLimit(context.Background(), lim), t, op)
			switch {
			case tc.fail && sqlstate(err) != pgerr.OutOfMemory:
				t.Errorf("%s, limit %d: got %d rows, err %v; want 53200", typ, tc.limit, len(got), err)
			case !tc.fail && (err != nil || typ != JoinAnti && len(got) != len(rows)):
				t.Errorf("%s, limit %d: %d rows, err %v; want %d rows", typ, tc.limit, len(got), err, len(rows))
			}
			if u := lim.Used(); u != 0 {
				t.Errorf("%s, limit %d: %d bytes still accounted after Close", typ, tc.limit, u)
			}
		}
	}
}

// TestJoinBuildLeftTypes checks which joins can build on the left input.
func TestJoinBuildLeftTypes(t *testing.T) {
	ls := joinSideSchema("l_", false)
	rs := joinSideSchema("r_", false)
	rows := genRows(5, 10, 3, 5)
	for typ := JoinInner; typ <= JoinMark; typ++ {
		for _, single := range []bool{false, true} {
			if single && typ != JoinLeft {
				continue
			}
			l := joinSource(t, memory.DefaultAllocator, ls, rows, []int{4})
			r := joinSource(t, memory.DefaultAllocator, rs, rows, []int{4})
			op, err := NewHashJoin(l, r, JoinSpec{Type: typ, Single: single, BuildLeft: true,
				LeftKeys: []expr.Expr{sideCol(ls, jK, 0)}, RightKeys: []expr.Expr{sideCol(rs, jK, 0)}})
			want := typ >= JoinSemi || single
			if (err == nil) != want {
				t.Errorf("%s single=%v: error %v, want accepted=%v", typ, single, err, want)
			}
			if err == nil {
				op.Close()
			} else {
				l.Close()
				r.Close()
			}
		}
	}
}
