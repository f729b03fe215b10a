package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestMemoryLimit runs each buffering operator over the 300-row table
// under a limit far below what it holds (53200) and far above it (all
// rows), and checks the account is back to zero after Close.
func TestMemoryLimit(t *testing.T) {
	rows := tableRows(t)
	input := func() engine.Operator {
		return NewBatches(tableSchema, makeBatches(t, memory.DefaultAllocator, rows, []int{50, 50, 100, 100}))
	}
	cases := []struct {
		name string
		op   func() (engine.Operator, error)
	}{
		{"sort", func() (engine.Operator, error) {
			return NewSort(input(), []SortKey{{E: col(tS)}})
		}},
		{"window", func() (engine.Operator, error) {
			return NewWindow(input(), []expr.Expr{col(tG)}, []SortKey{{E: col(tID)}}, []WindowCall{{Fn: "row_number", Name: "rn"}})
		}},
		{"hash aggregation", func() (engine.Operator, error) {
			return NewHashAggregate(input(), []expr.Expr{col(tID), col(tS)}, []AggCall{{Fn: "count", Name: "n"}})
		}},
		{"hash join", func() (engine.Operator, error) {
			return NewHashJoin(input(), input(), JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{col(tID)}, RightKeys: []expr.Expr{col(tID)}})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, tc := range []struct {
				limit int64
				fail  bool
			}{{1 << 10, true}, {1 << 30, false}, {0, false}} {
				lim := NewMemoryLimit(tc.limit, "statement_mem")
				op, err := c.op()
				if err != nil {
					t.Fatal(err)
				}
				ctx := WithMemoryLimit(context.Background(), lim)
				got, err := drain(ctx, t, op)
				if tc.fail {
					if sqlstate(err) != pgerr.OutOfMemory {
						t.Fatalf("limit %d: got %d rows, err %v; want 53200", tc.limit, len(got), err)
					}
				} else if err != nil || len(got) == 0 {
					t.Fatalf("limit %d: %d rows, err %v", tc.limit, len(got), err)
				}
				if u := lim.Used(); u != 0 {
					t.Fatalf("limit %d: %d bytes still accounted after Close", tc.limit, u)
				}
			}
		})
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{4 << 30: "4GB", 512 << 20: "512MB", 64 << 10: "64kB", 1000: "1000B", 3 << 40: "3TB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %s, want %s", n, got, want)
		}
	}
}

// TestMemoryLimitCountsSlices checks that slices of one batch count their
// own rows, not the whole buffers they share: a sort over 100 slices of a
// batch fits a limit of a few times that batch's size.
func TestMemoryLimitCountsSlices(t *testing.T) {
	rows := tableRows(t)
	whole := makeBatches(t, memory.DefaultAllocator, rows, []int{len(rows)})[0]
	defer whole.Release()
	full := int64(0)
	for _, c := range whole.Columns() {
		full += dataBytes(c.Data())
	}
	var parts []arrow.RecordBatch
	for i := int64(0); i < whole.NumRows(); i += 3 {
		parts = append(parts, whole.NewSlice(i, min(i+3, whole.NumRows())))
	}
	op, err := NewSort(NewBatches(tableSchema, parts), []SortKey{{E: col(tS)}})
	if err != nil {
		t.Fatal(err)
	}
	lim := NewMemoryLimit(4*full, "statement_mem")
	got, err := drain(WithMemoryLimit(context.Background(), lim), t, op)
	if err != nil || len(got) != len(rows) {
		t.Fatalf("sort of %d slices under %d bytes: %d rows, %v", len(parts), 4*full, len(got), err)
	}
}
