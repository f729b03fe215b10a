package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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

// bigTextInput is n batches of 1000 rows of 1000-byte text: about n MB.
func bigTextInput(n int) engine.Operator {
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: expr.Text, Nullable: true}, {Name: "g", Type: expr.Int4}}, nil)
	val := strings.Repeat("x", 1000)
	var batches []arrow.RecordBatch
	for range n {
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		ib := array.NewInt32Builder(memory.DefaultAllocator)
		for i := range 1000 {
			sb.Append(val)
			ib.Append(int32(i % 3))
		}
		s, g := sb.NewArray(), ib.NewArray()
		batches = append(batches, array.NewRecordBatch(schema, []arrow.Array{s, g}, 1000))
		s.Release()
		g.Release()
		sb.Release()
		ib.Release()
	}
	return NewBatches(schema, batches)
}

// TestMemoryLimitAggregateValues: aggregates that keep their input values
// (string_agg, array_agg, ordered and ordered-set aggregates) count them
// against the statement's memory limit, with and without GROUP BY.
func TestMemoryLimitAggregateValues(t *testing.T) {
	s, g := &expr.Col{Idx: 0, Name: "s", T: expr.Text}, &expr.Col{Idx: 1, Name: "g", T: expr.Int4}
	comma := &expr.Lit{V: ",", T: expr.Text}
	calls := map[string]AggCall{
		"string_agg":          {Fn: "string_agg", Arg: s, Args: []expr.Expr{comma}},
		"array_agg":           {Fn: "array_agg", Arg: s},
		"array_agg order by":  {Fn: "array_agg", Arg: s, OrderBy: []SortKey{{E: s}}},
		"string_agg distinct": {Fn: "string_agg", Arg: call("||", s, &expr.Cast{Arg: g, T: expr.Text}), Args: []expr.Expr{comma}, Distinct: true},
		"mode":                {Fn: "mode", OrderBy: []SortKey{{E: s}}},
	}
	for name, c := range calls {
		for _, groups := range [][]expr.Expr{nil, {g}} {
			lim := NewMemoryLimit(4<<20, "statement_mem")
			op, err := NewHashAggregate(bigTextInput(20), groups, []AggCall{c})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			_, err = drain(WithMemoryLimit(context.Background(), lim), t, op)
			if name == "string_agg distinct" {
				// Three distinct values: nothing grows.
				if err != nil {
					t.Errorf("%s, %d group keys: %v", name, len(groups), err)
				}
			} else if sqlstate(err) != pgerr.OutOfMemory {
				t.Errorf("%s, %d group keys, 20MB of values under 4MB: err %v, want 53200", name, len(groups), err)
			}
			if u := lim.Used(); u != 0 {
				t.Errorf("%s: %d bytes still accounted after Close", name, u)
			}
		}
	}
}

// TestMemoryLimitExpressionValues: the values an expression builds for a
// batch count against the statement's memory limit (53200), before they
// are built when their size is known (repeat, lpad).
func TestMemoryLimitExpressionValues(t *testing.T) {
	s := &expr.Col{Idx: 0, Name: "s", T: expr.Text}
	big := &expr.Lit{V: int32(8 << 20), T: expr.Int4}
	for name, e := range map[string]expr.Expr{
		"repeat":  call("repeat", s, &expr.Lit{V: int32(8 << 10), T: expr.Int4}),
		"lpad":    call("lpad", s, big),
		"||":      call("||", call("||", s, s), call("||", s, s)),
		"concat":  call("concat", s, s, s, s, s, s),
		"replace": call("replace", s, &expr.Lit{V: "x", T: expr.Text}, &expr.Lit{V: "yyyyyyyy", T: expr.Text}),
	} {
		lim := NewMemoryLimit(2<<20, "statement_mem")
		op, err := NewProject(bigTextInput(2), []expr.Expr{e}, []string{"v"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = drain(WithMemoryLimit(context.Background(), lim), t, op)
		if sqlstate(err) != pgerr.OutOfMemory {
			t.Errorf("%s: err %v, want 53200", name, err)
		}
	}
}

// TestMemoryLimitWindowAggregateValues: string_agg and array_agg over
// moving frames keep the values of every frame, charged to the
// statement's memory limit.
func TestMemoryLimitWindowAggregateValues(t *testing.T) {
	s, g := &expr.Col{Idx: 0, Name: "s", T: expr.Text}, &expr.Col{Idx: 1, Name: "g", T: expr.Int4}
	comma := &expr.Lit{V: ",", T: expr.Text}
	for _, w := range []WindowCall{
		{Fn: "string_agg", Args: []expr.Expr{s, comma}, Name: "w", Frame: WindowFrame{Mode: FrameRows, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}},
		{Fn: "array_agg", Args: []expr.Expr{s}, Name: "w", Frame: WindowFrame{Mode: FrameRows, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}},
	} {
		lim := NewMemoryLimit(16<<20, "statement_mem")
		op, err := NewWindow(bigTextInput(1), nil, []SortKey{{E: g}}, []WindowCall{w})
		if err != nil {
			t.Fatalf("%s: %v", w.Fn, err)
		}
		_, err = drain(WithMemoryLimit(context.Background(), lim), t, op)
		if sqlstate(err) != pgerr.OutOfMemory {
			t.Errorf("%s over growing frames of 1000 rows of 1000 bytes (500MB) under 16MB: %v; want 53200", w.Fn, err)
		}
		if u := lim.Used(); u != 0 {
			t.Errorf("%s: %d bytes still accounted after Close", w.Fn, u)
		}
	}
}

// TestArrayAggLimits: one array_agg array stops at PostgreSQL's limits of
// an array - its elements and its bytes - with 54000, counted per group
// (the limits are lowered here to stay small).
func TestArrayAggLimits(t *testing.T) {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	for range 100 {
		sb.Append("0123456789")
	}
	vals := sb.NewArray()
	sb.Release()
	defer vals.Release()
	twoGroups := make([]int32, 100)
	for i := range twoGroups {
		twoGroups[i] = int32(i % 2)
	}
	for _, tc := range []struct {
		name            string
		maxElems, bytes int64
		want            string
	}{
		{"within both", 50, 500, ""},
		{"too many elements", 49, 1 << 30, "array size exceeds the maximum allowed (49)"},
		{"too many bytes", 1 << 20, 499, "array size exceeds the maximum allowed (499)"},
	} {
		s := &arrayAggState{ctx: context.Background(), elem: expr.Text}
		s.grow(2)
		err := s.countElems(twoGroups, vals, tc.maxElems, tc.bytes)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (sqlstate(err) != pgerr.ProgramLimitExceeded || err.Error() != tc.want):
			t.Errorf("%s: %v; want 54000 %s", tc.name, err, tc.want)
		}
		s.release()
	}
}
