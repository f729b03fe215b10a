package exec

import (
	"context"
	"errors"
	"sort"
	"testing"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestWindowSpill: windows with PARTITION BY whose input passes a small
// statement_mem spill their rows by partition and give exactly the rows
// of the window in memory; a window that cannot be split still fails
// with 53200 and leaves nothing behind.
func TestWindowSpill(t *testing.T) {
	mem := checkedMem(t)
	input := replayable(t, mem, randomRows(30000, 5), []int{1000, 777, 1024, 3})
	two := lit(int64(2), expr.Int8)
	calls := []WindowCall{
		wcall("row_number", WindowFrame{}),
		wcall("rank", WindowFrame{}),
		wcall("sum", WindowFrame{}, col(tV)),
		wcall("avg", rows(pre(two), fol(two)), col(tX)),
		wcall("lag", WindowFrame{}, col(tS)),
		wcall("first_value", whole, col(tD)),
		wcall("count", whole),
		wcall("string_agg", rows(pre(two), cur), col(tS), lit(",", expr.Text)),
	}
	third := call("/", col(tID), lit(int32(30), col(tID).Type()))
	cases := []struct {
		name  string
		part  []expr.Expr
		order []SortKey
		small int64 // a limit that makes the partitions' files spill again
	}{
		// A tenth of the rows have NULL keys: one partition of 3000 rows,
		// which needs more than 256kB with its string_agg frames; since the
		// window counts an estimate of its computed arguments, 512kB once
		// proved too close on a loaded machine, so 768kB leaves room.
		{"int with NULLs", []expr.Expr{col(tG)}, []SortKey{asc(col(tX)), desc(col(tD))}, 768 << 10},
		{"text", []expr.Expr{col(tS)}, []SortKey{asc(col(tV))}, 256 << 10},
		{"bool and id/30", []expr.Expr{col(tB), third}, []SortKey{desc(col(tS))}, 64 << 10},
		{"no order", []expr.Expr{third}, nil, 64 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op, err := NewWindow(input(), c.part, c.order, calls)
			if err != nil {
				t.Fatal(err)
			}
			want, err := drain(context.Background(), t, op)
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(want)
			for _, limit := range []int64{c.small, 1 << 20} {
				e := newSpillEnv(t, limit, -1)
				op, err := NewWindow(input(), c.part, c.order, calls)
				if err != nil {
					t.Fatal(err)
				}
				got, err := drain(e.ctx, t, op)
				if err != nil {
					var pe *pgerr.Error
					errors.As(err, &pe)
					t.Fatalf("limit %d: %v (%s)", limit, err, pe.Detail)
				}
				if op.(spiller).SpilledBytes() == 0 {
					t.Errorf("limit %d: the window did not spill", limit)
				}
				sort.Strings(got)
				if len(got) != len(want) {
					t.Fatalf("limit %d: %d rows, want %d", limit, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("limit %d: row %s, want %s", limit, got[i], want[i])
					}
				}
				e.checkClean(t)
			}
		})
	}
	for _, c := range []struct {
		name string
		part []expr.Expr
	}{
		{"no partition", nil},
		{"one partition too large", []expr.Expr{col(tB)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newSpillEnv(t, 64<<10, -1)
			op, err := NewWindow(input(), c.part, []SortKey{asc(col(tX))}, calls[:1])
			if err != nil {
				t.Fatal(err)
			}
			_, err = drain(e.ctx, t, op)
			if sqlstate(err) != pgerr.OutOfMemory {
				t.Fatalf("err %v, want 53200", err)
			}
			op.Close()
			e.checkClean(t)
		})
	}
}

// TestWindowSpillComputedArgs: a window whose calls compute large values
// from their arguments (lag(repeat(s, 8))) counts those values with its
// rows, so it spills (deeper when needed) instead of failing with 53200
// when the arguments of a partition file pass statement_mem.
func TestWindowSpillComputedArgs(t *testing.T) {
	mem := checkedMem(t)
	input := replayable(t, mem, randomRows(30000, 8), []int{1000, 777, 1024})
	big := call("repeat", col(tS), lit(int32(8), expr.Int4))
	calls := []WindowCall{
		wcall("lag", WindowFrame{}, big),
		wcall("first_value", whole, call("upper", big)),
	}
	third := call("/", col(tID), lit(int32(30), col(tID).Type()))
	op, err := NewWindow(input(), []expr.Expr{third}, []SortKey{asc(col(tV))}, calls)
	if err != nil {
		t.Fatal(err)
	}
	want, err := drain(context.Background(), t, op)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(want)
	for _, limit := range []int64{128 << 10, 192 << 10, 256 << 10, 384 << 10, 512 << 10, 768 << 10, 1 << 20, 2 << 20} {
		e := newSpillEnv(t, limit, -1)
		op, err := NewWindow(input(), []expr.Expr{third}, []SortKey{asc(col(tV))}, calls)
		if err != nil {
			t.Fatal(err)
		}
		got, err := drain(e.ctx, t, op)
		if err != nil {
			var pe *pgerr.Error
			errors.As(err, &pe)
			t.Fatalf("limit %d: %v (%s)", limit, err, pe.Detail)
		}
		sort.Strings(got)
		if len(got) != len(want) {
			t.Fatalf("limit %d: %d rows, want %d", limit, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("limit %d: row %s, want %s", limit, got[i], want[i])
			}
		}
		e.checkClean(t)
	}
}
