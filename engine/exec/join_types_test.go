package exec

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// TestJoinKeyTypes joins one-column inputs on keys of each kind of type,
// with the equalities PostgreSQL has: 0 = -0 and NaN = NaN for floats,
// 1.5 = 1.50 for unconstrained numeric.
func TestJoinKeyTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	floats := func(vs ...float64) func() arrow.Array {
		return func() arrow.Array {
			b := array.NewFloat64Builder(mem)
			defer b.Release()
			for _, v := range vs {
				if v == 99 {
					b.AppendNull()
				} else {
					b.Append(v)
				}
			}
			return b.NewArray()
		}
	}
	numerics := func(vs ...[2]int64) func() arrow.Array {
		return func() arrow.Array {
			b := expr.NewNumericBuilder(mem)
			defer b.Release()
			for _, v := range vs {
				b.Append(decimal128.FromI64(v[0]), int32(v[1]))
			}
			return b.NewArray()
		}
	}
	fromStrings := func(dt arrow.DataType, vs ...string) func() arrow.Array {
		return func() arrow.Array {
			b := array.NewBuilder(mem, dt)
			defer b.Release()
			for _, v := range vs {
				if v == "-" {
					b.AppendNull()
				} else if err := b.AppendValueFromString(v); err != nil {
					t.Fatal(err)
				}
			}
			return b.NewArray()
		}
	}
	uuids := func(vs ...byte) func() arrow.Array { // 0 = NULL
		return func() arrow.Array {
			b := array.NewFixedSizeBinaryBuilder(mem, expr.UUID.(*arrow.FixedSizeBinaryType))
			defer b.Release()
			for _, v := range vs {
				if v == 0 {
					b.AppendNull()
				} else {
					var u [16]byte
					u[15] = v
					b.Append(u[:])
				}
			}
			return b.NewArray()
		}
	}
	cases := []struct {
		name        string
		t           arrow.DataType
		left, right func() arrow.Array
		want        string // inner join rows, sorted, ";"-separated
	}{
		{"float8", expr.Float8, floats(0, math.NaN(), 1.5, 99), floats(math.Copysign(0, -1), math.NaN(), 2, 99),
			"0|-0;NaN|NaN"},
		{"numeric", expr.NumericType(), numerics([2]int64{15, 1}, [2]int64{2, 0}), numerics([2]int64{150, 2}, [2]int64{3, 0}),
			"1.5|1.50"},
		{"bool", expr.Bool, fromStrings(expr.Bool, "true", "false", "-"), fromStrings(expr.Bool, "true", "true", "-"),
			"t|t;t|t"},
		{"date", expr.Date, fromStrings(expr.Date, "2024-01-01", "2024-02-29"), fromStrings(expr.Date, "2024-02-29", "-"),
			"2024-02-29|2024-02-29"},
		{"uuid", expr.UUID, uuids(1, 2, 0), uuids(2, 3, 0), "00000000-0000-0000-0000-000000000002|00000000-0000-0000-0000-000000000002"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ls := arrow.NewSchema([]arrow.Field{{Name: "a", Type: c.t, Nullable: true}}, nil)
			rs := arrow.NewSchema([]arrow.Field{{Name: "b", Type: c.t, Nullable: true}}, nil)
			mk := func(s *arrow.Schema, a arrow.Array) arrow.RecordBatch {
				defer a.Release()
				return array.NewRecordBatch(s, []arrow.Array{a}, int64(a.Len()))
			}
			k := &expr.Col{Idx: 0, Name: "k", T: c.t}
			op, err := NewHashJoin(NewBatches(ls, []arrow.RecordBatch{mk(ls, c.left())}), NewBatches(rs, []arrow.RecordBatch{mk(rs, c.right())}),
				JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{k}, RightKeys: []expr.Expr{k}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(ctx, t, op)
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(sortedCopy(got), ";"); g != c.want {
				t.Errorf("got %s, want %s", g, c.want)
			}
		})
	}
}

// TestJoinNoColumns joins inputs that have rows but no columns (count(*)
// over a cross join plans like this).
func TestJoinNoColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	empty := arrow.NewSchema(nil, nil)
	src := func(sizes ...int64) *batchesOp {
		var bs []arrow.RecordBatch
		for _, n := range sizes {
			bs = append(bs, array.NewRecordBatch(empty, nil, n))
		}
		return NewBatches(empty, bs).(*batchesOp)
	}
	for _, c := range []struct {
		typ  JoinType
		want int
	}{{JoinInner, 3000 * 2}, {JoinLeft, 3000 * 2}, {JoinFull, 3000 * 2}, {JoinSemi, 3000}, {JoinMark, 3000}, {JoinAnti, 0}} {
		op, err := NewNestedLoopJoin(src(1000, 2000), src(1, 1), JoinSpec{Type: c.typ})
		if err != nil {
			t.Fatal(err)
		}
		got, err := drain(ctx, t, op)
		if err != nil || len(got) != c.want {
			t.Errorf("%s: %d rows, %v; want %d rows", c.typ, len(got), err, c.want)
		}
	}
}
