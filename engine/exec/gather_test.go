package exec

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// hugeSeries is a part that would run for a long time: a billion rows.
func hugeSeries(t testing.TB) engine.Operator {
	op, err := NewTableFunc(oneRow(t), "generate_series", []expr.Expr{i8(1), i8(1_000_000_000)}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// quarter is SELECT * FROM t WHERE id % 4 = k over its own copy of t.
func quarter(t testing.TB, mem memory.Allocator, rows [][]*string, sizes []int, k int32) engine.Operator {
	op, err := NewFilter(NewBatches(tableSchema, makeBatches(t, mem, rows, sizes)), call("=", call("%", col(tID), i4(4)), i4(k)))
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func TestGatherAllRows(t *testing.T) {
	rows := tableRows(t)
	for bname, sizes := range batchSizes() {
		t.Run(bname, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := expr.WithAllocator(context.Background(), mem)
			want, err := drain(ctx, t, NewBatches(tableSchema, makeBatches(t, mem, rows, sizes)))
			if err != nil {
				t.Fatal(err)
			}
			var parts []engine.Operator
			for k := int32(0); k < 4; k++ {
				parts = append(parts, quarter(t, mem, rows, sizes, k))
			}
			g, err := NewGather(parts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(ctx, t, g)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(sortedCopy(got), "\n") != strings.Join(sortedCopy(want), "\n") {
				t.Errorf("gathered %d rows, the table has %d\n%s", len(got), len(want), diff(sortedCopy(got), sortedCopy(want)))
			}
		})
	}
}

// An error in one part stops the others and is what Next returns; a
// canceled ctx and an early Close stop every part too.
func TestGatherStops(t *testing.T) {
	rows := tableRows(t)
	cases := []struct {
		name  string
		parts func(mem memory.Allocator) []engine.Operator
		stop  string // "error", "cancel" or "close"
		code  string
	}{
		{"error cancels the others", func(mem memory.Allocator) []engine.Operator {
			bad, err := NewProject(NewBatches(tableSchema, makeBatches(t, mem, rows, []int{7})),
				[]expr.Expr{call("/", col(tV), call("-", col(tID), col(tID)))}, []string{"q"})
			if err != nil {
				t.Fatal(err)
			}
			huge, err := NewProject(hugeSeries(t), []expr.Expr{&expr.Col{Idx: 0, Name: "generate_series", T: expr.Int8}}, []string{"q"})
			if err != nil {
				t.Fatal(err)
			}
			return []engine.Operator{huge, bad}
		}, "error", "22012"},
		{"cancel", func(memory.Allocator) []engine.Operator {
			return []engine.Operator{hugeSeries(t), hugeSeries(t), hugeSeries(t)}
		}, "cancel", ""},
		{"close early", func(memory.Allocator) []engine.Operator {
			return []engine.Operator{hugeSeries(t), hugeSeries(t)}
		}, "close", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx, cancel := context.WithCancel(expr.WithAllocator(context.Background(), mem))
			defer cancel()
			g, err := NewGather(c.parts(mem))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := g.Open(ctx); err != nil {
				t.Fatal(err)
			}
			var nextErr error
			for n := 0; ; n++ {
				if n == 5 && c.stop == "cancel" {
					cancel()
				}
				if n == 5 && c.stop == "close" {
					break
				}
				b, err := g.Next()
				if err != nil {
					nextErr = err
					break
				}
				if b == nil {
					t.Fatal("a billion rows ended early")
				}
			}
			closeErr := g.Close()
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("stopping took %s", d)
			}
			switch c.stop {
			case "error":
				if sqlstate(nextErr) != c.code {
					t.Errorf("Next: %v, want SQLSTATE %s", nextErr, c.code)
				}
			case "cancel":
				if !errors.Is(nextErr, context.Canceled) {
					t.Errorf("Next: %v, want context.Canceled", nextErr)
				}
			case "close":
				if closeErr != nil {
					t.Errorf("Close after an early stop: %v", closeErr)
				}
			}
		})
	}
}

func TestGatherSchemas(t *testing.T) {
	a := NewBatches(tableSchema, nil)
	b, err := NewProject(NewBatches(tableSchema, nil), []expr.Expr{col(tID)}, []string{"id"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewGather([]engine.Operator{a, b}); err == nil {
		t.Error("parts of different schemas were accepted")
	}
	if _, err := NewGather(nil); err == nil {
		t.Error("no parts was accepted")
	}
}
