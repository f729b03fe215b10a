package exec

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

func TestValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: expr.Int4, Nullable: true},
		{Name: "b", Type: expr.Text, Nullable: true},
		{Name: "c", Type: expr.NumericType(), Nullable: true},
	}, nil)
	div := &expr.Call{Fn: "/", Args: []expr.Expr{lit(catalogDecimal("1"), &arrow.Decimal128Type{Precision: 38, Scale: 0}), lit(catalogDecimal("3"), &arrow.Decimal128Type{Precision: 38, Scale: 0})}, T: expr.NumericType()}
	cases := []struct {
		name string
		rows [][]expr.Expr
		want []string
		code string
	}{
		{"one row", [][]expr.Expr{{i4(1), lit("x", expr.Text), div}}, []string{"1|x|0.33333333333333333333"}, ""},
		{"nulls", [][]expr.Expr{{lit(nil, expr.Int4), lit(nil, arrow.Null), lit(nil, expr.NumericType())}, {call("+", i4(1), i4(2)), lit("y", expr.Text), div}},
			[]string{"NULL|NULL|NULL", "3|y|0.33333333333333333333"}, ""},
		{"no rows", nil, nil, ""},
		{"error", [][]expr.Expr{{call("/", i4(1), i4(0)), lit("x", expr.Text), div}}, nil, "22012"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op, err := NewValues(schema, c.rows)
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(ctx, t, op)
			if sqlstate(err) != c.code || (c.code == "" && err != nil) {
				t.Fatalf("error %v, want SQLSTATE %q", err, c.code)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// countingOp counts the batches pulled from it.
type countingOp struct {
	engine.Operator
	pulled int
}

func (c *countingOp) Next() (arrow.RecordBatch, error) {
	c.pulled++
	return c.Operator.Next()
}

func TestLimitStopsPulling(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	src := &countingOp{Operator: NewBatches(tableSchema, makeBatches(t, mem, tableRows(t), []int{10}))}
	got, err := drain(ctx, t, NewLimit(src, 15, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 15 || src.pulled != 2 {
		t.Errorf("got %d rows after %d pulls, want 15 rows after 2", len(got), src.pulled)
	}
}

func TestCanceled(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	builds := map[string]func(engine.Operator) (engine.Operator, error){
		"filter": func(s engine.Operator) (engine.Operator, error) { return NewFilter(s, lit(true, expr.Bool)) },
		"project": func(s engine.Operator) (engine.Operator, error) {
			return NewProject(s, []expr.Expr{col(tID)}, []string{"id"})
		},
		"aggregate": func(s engine.Operator) (engine.Operator, error) {
			return NewHashAggregate(s, []expr.Expr{col(tG)}, []AggCall{{Fn: "count"}})
		},
		"sort":  func(s engine.Operator) (engine.Operator, error) { return NewSort(s, []SortKey{{E: col(tV)}}) },
		"limit": func(s engine.Operator) (engine.Operator, error) { return NewLimit(s, 10, 0), nil },
	}
	for name, build := range builds {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(expr.WithAllocator(context.Background(), mem))
			cancel()
			op, err := build(NewBatches(tableSchema, makeBatches(t, mem, tableRows(t), []int{100})))
			if err != nil {
				t.Fatal(err)
			}
			_, err = drain(ctx, t, op)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("got %v, want context.Canceled", err)
			}
		})
	}
}

func TestAggResultType(t *testing.T) {
	cases := []struct {
		fn   string
		arg  arrow.DataType
		want string
		code string
	}{
		{"count", nil, "int64", ""},
		{"sum", expr.Int2, "int64", ""},
		{"sum", expr.Int4, "int64", ""},
		{"sum", expr.Int8, "decimal(38, 0)", ""},
		{"sum", expr.Float4, "float32", ""},
		{"sum", numeric10_2, "decimal(38, 2)", ""},
		{"avg", expr.Int4, "numeric", ""},
		{"avg", expr.Float4, "float64", ""},
		{"avg", numeric10_2, "numeric", ""},
		{"min", expr.Text, "utf8", ""},
		{"max", expr.Timestamptz, "timestamp[us, tz=UTC]", ""},
		{"sum", expr.Text, "", "42883"},
		{"avg", expr.Date, "", "42883"},
		{"max", expr.Bool, "", "42883"},
		{"median", expr.Int4, "", "42883"},
	}
	for _, c := range cases {
		got, err := AggResultType(c.fn, c.arg)
		if sqlstate(err) != c.code || (err == nil && got.String() != c.want) {
			t.Errorf("AggResultType(%s, %v) = %v, %v; want %s %s", c.fn, c.arg, got, err, c.want, c.code)
		}
	}
}

// TestProjectOverOneEmptyRow is SELECT without FROM: one row of no
// columns, projected.
func TestProjectOverOneEmptyRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	v, err := NewValues(arrow.NewSchema(nil, nil), [][]expr.Expr{{}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProject(v, []expr.Expr{call("+", i4(1), i4(1)), lit("x", expr.Text), lit(nil, expr.Int8)}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFilter(p, call(">", &expr.Col{Idx: 0, Name: "a", T: expr.Int4}, i4(1)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := drain(ctx, t, f)
	if err != nil || strings.Join(got, ";") != "2|x|NULL" {
		t.Errorf("got %q, %v; want 2|x|NULL", got, err)
	}
}

func TestFilterNullPredicate(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	for _, pred := range []expr.Expr{lit(nil, arrow.Null), lit(nil, expr.Bool)} {
		f, err := NewFilter(NewBatches(tableSchema, makeBatches(t, mem, tableRows(t), []int{100})), pred)
		if err != nil {
			t.Fatal(err)
		}
		got, err := drain(ctx, t, f)
		if err != nil || len(got) != 0 {
			t.Errorf("WHERE NULL (%s): %d rows, %v", pred.Type(), len(got), err)
		}
	}
	_, err := NewFilter(NewBatches(tableSchema, nil), i4(1))
	if sqlstate(err) != "42804" {
		t.Errorf("WHERE 1: %v, want 42804", err)
	}
}
