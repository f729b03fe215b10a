package exec

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/internal/pgerr"
)

// randomRows are n rows of the test table's columns with NULLs in every
// column, many duplicates (to check ties keep input order) and NaN.
func randomRows(n int, seed int64) [][]*string {
	r := rand.New(rand.NewSource(seed))
	str := func(s string) *string { return &s }
	rows := make([][]*string, n)
	for i := range rows {
		row := make([]*string, 7)
		row[tID] = str(fmt.Sprint(i))
		if r.Intn(10) > 0 {
			row[tG] = str(fmt.Sprint(r.Intn(50) - 10))
		}
		if r.Intn(10) > 0 {
			row[tS] = str(fmt.Sprintf("%c%d", 'a'+r.Intn(26), r.Intn(100)))
		}
		if r.Intn(10) > 0 {
			row[tV] = str(fmt.Sprint(r.Int63n(1<<40) - 1<<39))
		}
		switch k := r.Intn(20); {
		case k == 0:
		case k == 1:
			row[tX] = str("NaN")
		default:
			row[tX] = str(fmt.Sprint(float64(r.Intn(1000)) / 8))
		}
		if r.Intn(10) > 0 {
			row[tD] = str(fmt.Sprintf("%d.%02d", r.Intn(2000)-1000, r.Intn(100)))
		}
		if r.Intn(10) > 0 {
			row[tB] = str(fmt.Sprint(r.Intn(2) == 0))
		}
		rows[i] = row
	}
	return rows
}

// spillEnv is a statement's context with a memory limit and temporary
// files under a test directory.
type spillEnv struct {
	lim *MemoryLimit
	dir *spill.Dir
	st  *spill.Statement
	ctx context.Context
}

func newSpillEnv(t *testing.T, memLimit, fileLimit int64) *spillEnv {
	t.Helper()
	d, err := spill.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	e := &spillEnv{lim: NewMemoryLimit(memLimit, "statement_mem"), dir: d, st: d.Statement(fileLimit)}
	e.ctx = spill.WithStatement(WithMemoryLimit(context.Background(), e.lim), e.st)
	return e
}

// checkClean fails when memory is still accounted or a temporary file is
// left once the operator closed, and after the statement ended.
func (e *spillEnv) checkClean(t *testing.T) {
	t.Helper()
	if u := e.lim.Used(); u != 0 {
		t.Errorf("%d bytes still accounted after Close", u)
	}
	if u := e.st.Used(); u != 0 {
		t.Errorf("%d bytes of temporary files left after Close", u)
	}
	if err := e.st.Close(); err != nil {
		t.Error(err)
	}
	es, err := os.ReadDir(e.dir.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 0 {
		t.Errorf("%d entries left in the temporary directory", len(es))
	}
}

type spiller interface{ SpilledBytes() int64 }

// TestSortSpill: sorts forced to spill under a small statement_mem give
// exactly the rows, in exactly the order, of the sort in memory.
func TestSortSpill(t *testing.T) {
	mem := checkedMem(t)
	rows := randomRows(30000, 1)
	input := replayable(t, mem, rows, []int{1000, 777, 1024, 3})
	cases := []struct {
		name string
		keys []SortKey
	}{
		{"int", []SortKey{{E: col(tG)}}},
		{"text desc nulls last", []SortKey{{E: col(tS), Desc: true}}},
		{"float nulls first", []SortKey{{E: col(tX), NullsFirst: true}}},
		{"numeric desc, bool", []SortKey{{E: col(tD), Desc: true}, {E: col(tB)}}},
		{"bool, text, int8", []SortKey{{E: col(tB)}, {E: col(tS)}, {E: col(tV), Desc: true, NullsFirst: true}}},
		{"expression", []SortKey{{E: call("+", col(tG), col(tG))}, {E: col(tS)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op, err := NewSort(input(), c.keys)
			if err != nil {
				t.Fatal(err)
			}
			want, err := drain(context.Background(), t, op)
			if err != nil {
				t.Fatal(err)
			}
			// 64kB forces tens of runs (with a fan-in of 3, several merge
			// passes), 1MB a few.
			for _, tc := range []struct {
				limit int64
				fanIn int
			}{{64 << 10, 0}, {64 << 10, 3}, {1 << 20, 0}} {
				limit := tc.limit
				e := newSpillEnv(t, limit, -1)
				op, err := NewSort(input(), c.keys)
				if err != nil {
					t.Fatal(err)
				}
				op.(*sortOp).fanIn = tc.fanIn
				got, err := drain(e.ctx, t, op)
				if err != nil {
					t.Fatalf("limit %d: %v", limit, err)
				}
				if op.(spiller).SpilledBytes() == 0 {
					t.Errorf("limit %d: the sort did not spill", limit)
				}
				if len(got) != len(want) {
					t.Fatalf("limit %d: %d rows, want %d", limit, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("limit %d: row %d is %s, want %s", limit, i, got[i], want[i])
					}
				}
				e.checkClean(t)
			}
		})
	}
}

// cancelAfter cancels a context after n batches of its input went by.
type cancelAfter struct {
	engine.Operator
	n      int
	cancel context.CancelFunc
}

func (o *cancelAfter) Next() (arrow.RecordBatch, error) {
	if o.n--; o.n == 0 {
		o.cancel()
	}
	return o.Operator.Next()
}

// TestSortSpillLimits: past temp_file_limit a spilling sort fails with
// 53400, a cancel mid-spill ends it, and in both cases no temporary file
// is left.
func TestSortSpillLimits(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := randomRows(20000, 2)
	keys := []SortKey{{E: col(tS)}, {E: col(tID)}}
	t.Run("temp_file_limit", func(t *testing.T) {
		e := newSpillEnv(t, 64<<10, 100<<10)
		op, err := NewSort(NewBatches(tableSchema, makeBatches(t, mem, rows, []int{1000})), keys)
		if err != nil {
			t.Fatal(err)
		}
		_, err = drain(e.ctx, t, op)
		if sqlstate(err) != pgerr.ConfigurationLimitExceeded {
			t.Fatalf("err %v, want 53400", err)
		}
		op.Close()
		e.checkClean(t)
	})
	t.Run("cancel", func(t *testing.T) {
		e := newSpillEnv(t, 64<<10, -1)
		ctx, cancel := context.WithCancel(e.ctx)
		defer cancel()
		in := &cancelAfter{Operator: NewBatches(tableSchema, makeBatches(t, mem, rows, []int{1000})), n: 10, cancel: cancel}
		op, err := NewSort(in, keys)
		if err != nil {
			t.Fatal(err)
		}
		_, err = drain(ctx, t, op)
		if err != context.Canceled {
			t.Fatalf("err %v, want canceled", err)
		}
		op.Close()
		if e.st.Files() == 0 {
			t.Errorf("nothing was spilled before the cancel")
		}
		e.checkClean(t)
	})
	t.Run("no temporary files", func(t *testing.T) {
		// Without a place to spill the limit fails as before.
		lim := NewMemoryLimit(64<<10, "statement_mem")
		op, err := NewSort(NewBatches(tableSchema, makeBatches(t, mem, rows, []int{1000})), keys)
		if err != nil {
			t.Fatal(err)
		}
		_, err = drain(WithMemoryLimit(context.Background(), lim), t, op)
		if sqlstate(err) != pgerr.OutOfMemory {
			t.Fatalf("err %v, want 53200", err)
		}
		op.Close()
	})
}

// TestAggSpill: hash aggregations forced to spill under a small
// statement_mem give exactly the groups of the aggregation in memory, in
// one phase and as a parallel plan's partial and final phases.
func TestAggSpill(t *testing.T) {
	mem := checkedMem(t)
	rows := randomRows(30000, 3)
	// Many groups: id / 3 gives 10000.
	input := replayable(t, mem, rows, []int{1000, 777, 1024, 3})
	aggs := []AggCall{
		{Fn: "count", Name: "n"},
		{Fn: "count", Arg: col(tX), Name: "nx"},
		{Fn: "sum", Arg: col(tV), Name: "sv"},
		{Fn: "sum", Arg: col(tG), Name: "sg", Filter: col(tB)},
		{Fn: "avg", Arg: col(tD), Name: "ad"},
		{Fn: "min", Arg: col(tS), Name: "mins"},
		{Fn: "max", Arg: col(tX), Name: "maxx"},
		{Fn: "stddev", Arg: col(tX), Name: "sdx"},
		{Fn: "variance", Arg: col(tD), Name: "vd"},
		{Fn: "bool_and", Arg: col(tB), Name: "ba"},
	}
	third := call("/", col(tID), lit(int32(3), col(tID).Type()))
	cases := []struct {
		name   string
		groups []expr.Expr
	}{
		{"int", []expr.Expr{third}},
		{"text and int", []expr.Expr{col(tS), col(tG)}},
		{"numeric, bool, int8", []expr.Expr{col(tD), col(tB), call("%", col(tV), lit(int64(100), col(tV).Type()))}},
	}
	phases := []struct {
		name string
		make func(in engine.Operator, groups []expr.Expr) (engine.Operator, error)
	}{
		{"whole", func(in engine.Operator, groups []expr.Expr) (engine.Operator, error) {
			return NewHashAggregate(in, groups, aggs)
		}},
		{"partial and final", func(in engine.Operator, groups []expr.Expr) (engine.Operator, error) {
			p, err := NewHashAggregatePartial(in, groups, aggs)
			if err != nil {
				return nil, err
			}
			return NewHashAggregateFinal(p, len(groups), aggs)
		}},
	}
	for _, c := range cases {
		for _, ph := range phases {
			t.Run(c.name+"/"+ph.name, func(t *testing.T) {
				op, err := ph.make(input(), c.groups)
				if err != nil {
					t.Fatal(err)
				}
				want, err := drain(context.Background(), t, op)
				if err != nil {
					t.Fatal(err)
				}
				sort.Strings(want)
				// 32kB makes partitions spill again (a second level).
				for _, limit := range []int64{32 << 10, 256 << 10} {
					e := newSpillEnv(t, limit, -1)
					op, err := ph.make(input(), c.groups)
					if err != nil {
						t.Fatal(err)
					}
					got, err := drain(e.ctx, t, op)
					if err != nil {
						t.Fatalf("limit %d: %v", limit, err)
					}
					if op.(spiller).SpilledBytes() == 0 && e.st.Files() == 0 {
						t.Errorf("limit %d: the aggregation did not spill", limit)
					}
					sort.Strings(got)
					if len(got) != len(want) {
						t.Fatalf("limit %d: %d groups, want %d", limit, len(got), len(want))
					}
					for i := range got {
						if !sameGroup(got[i], want[i], len(c.groups)+7) {
							t.Fatalf("limit %d: group %s, want %s", limit, got[i], want[i])
						}
					}
					e.checkClean(t)
				}
			})
		}
	}
	t.Run("not splittable", func(t *testing.T) {
		// string_agg keeps its values and has no partial state: without
		// groups its input rows cannot be split either, 53200 as before
		// (grouped, it spills its input rows: TestAggSpillByInput).
		e := newSpillEnv(t, 32<<10, -1)
		op, err := NewHashAggregate(input(), nil, []AggCall{{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{lit(",", expr.Text)}}})
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

// sameGroup compares two rendered rows exactly, but for column approx, a
// float8 aggregate: merging partial states adds in another order, and
// float addition is not associative (PostgreSQL's parallel aggregates
// differ from its serial ones in the last digits the same way).
func sameGroup(got, want string, approx int) bool {
	g, w := strings.Split(got, "|"), strings.Split(want, "|")
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if g[i] == w[i] {
			continue
		}
		if i != approx {
			return false
		}
		x, err1 := strconv.ParseFloat(g[i], 64)
		y, err2 := strconv.ParseFloat(w[i], 64)
		if err1 != nil || err2 != nil || math.Abs(x-y) > 1e-12*math.Max(math.Abs(x), math.Abs(y)) {
			return false
		}
	}
	return true
}

// TestJoinSpill: hash joins of every type whose build side passes a small
// statement_mem run as grace hash joins and give exactly the rows of the
// join in memory.
func TestJoinSpill(t *testing.T) {
	mem := checkedMem(t)
	left := replayable(t, mem, randomRows(12000, 4), []int{1000, 333})
	right := replayable(t, mem, randomRows(6000, 5), []int{700, 1024})
	rcol := func(i int) expr.Expr {
		f := tableSchema.Field(i)
		return &expr.Col{Idx: i, Name: f.Name + "_r", T: f.Type}
	}
	pairCol := func(i int) expr.Expr {
		f := tableSchema.Field(i)
		return &expr.Col{Idx: len(tableSchema.Fields()) + i, Name: f.Name + "_r", T: f.Type}
	}
	half := call("/", col(tID), lit(int32(2), expr.Int4))
	shifted := call("-", rcol(tID), lit(int32(2000), expr.Int4))
	keys := []struct {
		name        string
		left, right []expr.Expr
		residual    expr.Expr
	}{
		{"int", []expr.Expr{half}, []expr.Expr{shifted}, nil},
		{"text", []expr.Expr{col(tS)}, []expr.Expr{rcol(tS)}, nil},
		{"text and bool with residual", []expr.Expr{col(tS), col(tB)}, []expr.Expr{rcol(tS), rcol(tB)}, call("<", col(tX), pairCol(tX))},
	}
	types := []struct {
		typ       JoinType
		single    bool
		buildLeft bool
	}{{JoinInner, false, false}, {JoinLeft, false, false}, {JoinRight, false, false}, {JoinFull, false, false},
		{JoinSemi, false, false}, {JoinAnti, false, false}, {JoinMark, false, false}, {JoinLeft, true, false},
		{JoinSemi, false, true}, {JoinAnti, false, true}, {JoinMark, false, true}, {JoinLeft, true, true}}
	for _, k := range keys {
		for _, ty := range types {
			if ty.single && k.name != "int" {
				continue // only the int keys are unique on the right
			}
			name := ty.typ.String()
			if ty.single {
				name = "single"
			}
			if ty.buildLeft {
				name += " building left"
			}
			t.Run(k.name+"/"+name, func(t *testing.T) {
				spec := JoinSpec{Type: ty.typ, LeftKeys: k.left, RightKeys: k.right, Residual: k.residual, Single: ty.single, BuildLeft: ty.buildLeft}
				op, err := NewHashJoin(left(), right(), spec)
				if err != nil {
					t.Fatal(err)
				}
				want, err := drain(context.Background(), t, op)
				if err != nil {
					t.Fatal(err)
				}
				sort.Strings(want)
				e := newSpillEnv(t, 48<<10, -1)
				op, err = NewHashJoin(left(), right(), spec)
				if err != nil {
					t.Fatal(err)
				}
				got, err := drain(e.ctx, t, op)
				if err != nil {
					if pe := pgerr.As(err); pe != nil {
						t.Fatalf("%v: %s", err, pe.Detail)
					}
					t.Fatal(err)
				}
				if op.(spiller).SpilledBytes() == 0 {
					t.Errorf("the join did not spill")
				}
				sort.Strings(got)
				if len(got) != len(want) {
					t.Fatalf("%d rows, want %d", len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("row %s, want %s", got[i], want[i])
					}
				}
				e.checkClean(t)
			})
		}
	}
}

// TestJoinSpillNullAware: NOT IN and IN (null-aware anti and mark joins)
// whose build side passes a small statement_mem spill and keep their
// answers: a NULL key on the right side, a NULL key on the left with a
// non-empty right side, and an empty right side each decide rows the
// partitions alone cannot.
func TestJoinSpillNullAware(t *testing.T) {
	mem := checkedMem(t)
	left := replayable(t, mem, randomRows(12000, 6), []int{1000, 333})
	right := replayable(t, mem, randomRows(6000, 7), []int{700, 1024})
	rcol := func(i int) expr.Expr {
		f := tableSchema.Field(i)
		return &expr.Col{Idx: i, Name: f.Name + "_r", T: f.Type}
	}
	half := call("/", col(tID), lit(int32(2), expr.Int4))
	shifted := call("-", rcol(tID), lit(int32(2000), expr.Int4))
	cases := []struct {
		name        string
		left, right expr.Expr
		rightRows   func() engine.Operator // nil: an empty right side
		residual    expr.Expr
		spills      bool // false: fails with 53200
	}{
		{"no NULL keys", half, shifted, right, nil, true},
		{"NULL keys on the left", col(tG), rcol(tID), right, nil, true},
		{"NULL keys on both sides", col(tS), rcol(tS), right, nil, true},
		{"empty right side", col(tG), rcol(tID), nil, nil, true},
		{"with a residual", col(tG), rcol(tID), right, call("<", col(tX), &expr.Col{Idx: len(tableSchema.Fields()) + tX, Name: "x_r", T: expr.Float8}), false},
	}
	for _, c := range cases {
		for _, typ := range []JoinType{JoinAnti, JoinMark} {
			for _, buildLeft := range []bool{false, true} {
				if c.rightRows == nil && !buildLeft {
					continue // an empty build side does not spill
				}
				name := c.name + "/" + typ.String()
				if buildLeft {
					name += " building left"
				}
				rightOp := func() engine.Operator {
					if c.rightRows == nil {
						return NewBatches(tableSchema, nil)
					}
					return c.rightRows()
				}
				t.Run(name, func(t *testing.T) {
					spec := JoinSpec{Type: typ, NullAware: true, LeftKeys: []expr.Expr{c.left}, RightKeys: []expr.Expr{c.right},
						Residual: c.residual, BuildLeft: buildLeft}
					op, err := NewHashJoin(left(), rightOp(), spec)
					if err != nil {
						t.Fatal(err)
					}
					want, err := drain(context.Background(), t, op)
					if err != nil {
						t.Fatal(err)
					}
					sort.Strings(want)
					e := newSpillEnv(t, 48<<10, -1)
					op, err = NewHashJoin(left(), rightOp(), spec)
					if err != nil {
						t.Fatal(err)
					}
					got, err := drain(e.ctx, t, op)
					if !c.spills {
						if sqlstate(err) != pgerr.OutOfMemory {
							t.Fatalf("err %v, want 53200", err)
						}
						op.Close()
						e.checkClean(t)
						return
					}
					if err != nil {
						if pe := pgerr.As(err); pe != nil {
							t.Fatalf("%v: %s", err, pe.Detail)
						}
						t.Fatal(err)
					}
					if op.(spiller).SpilledBytes() == 0 {
						t.Errorf("the join did not spill")
					}
					sort.Strings(got)
					if len(got) != len(want) {
						t.Fatalf("%d rows, want %d", len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("row %s, want %s", got[i], want[i])
						}
					}
					e.checkClean(t)
				})
			}
		}
	}
}
