package exec

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// TestProjectColumns checks projections of bare columns, which take the
// input's arrays without a program (and, for every column in order under
// its name, the input's batches): the rows, the output fields and the
// memory given back are those of evaluated projections.
func TestProjectColumns(t *testing.T) {
	names := func(idx ...int) []string {
		out := make([]string, len(idx))
		for i, j := range idx {
			out[i] = tableSchema.Field(j).Name
		}
		return out
	}
	all := []int{0, 1, 2, 3, 4, 5, 6}
	cases := []struct {
		name  string
		cols  []int // input columns; -1 is id + 1
		names []string
		same  bool // the output schema is the input's
	}{
		{"every column in order", all, names(all...), true},
		{"every column, one renamed", all, append(names(0, 1, 2, 3, 4, 5), "renamed"), false},
		{"reordered", []int{6, 5, 4, 3, 2, 1, 0}, names(6, 5, 4, 3, 2, 1, 0), false},
		{"a subset, one twice", []int{3, 0, 3}, names(3, 0, 3), false},
		{"columns and an expression", []int{2, -1, 0}, []string{"s", "next", "id"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := expr.WithAllocator(context.Background(), mem)
			rows := tableRows(t)
			src := func() engine.Operator {
				return NewBatches(tableSchema, makeBatches(t, mem, rows, []int{100, 1, 37, 1000}))
			}
			in, err := drain(ctx, t, src())
			if err != nil {
				t.Fatal(err)
			}
			var exprs []expr.Expr
			for _, j := range tc.cols {
				if j < 0 {
					exprs = append(exprs, call("+", col(0), i4(1)))
				} else {
					exprs = append(exprs, col(j))
				}
			}
			p, err := NewProject(src(), exprs, tc.names)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Schema().Equal(tableSchema); got != tc.same {
				t.Errorf("schema %s equal to the input's: %v, want %v", p.Schema(), got, tc.same)
			}
			for i, j := range tc.cols {
				f := p.Schema().Field(i)
				if f.Name != tc.names[i] || j >= 0 && (!arrow.TypeEqual(f.Type, tableSchema.Field(j).Type) || f.Nullable != tableSchema.Field(j).Nullable) {
					t.Errorf("field %d is %s, want %s of input column %d", i, f, tc.names[i], j)
				}
			}
			got, err := drain(ctx, t, p)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range in {
				cells := strings.Split(r, "|")
				var out []string
				for _, j := range tc.cols {
					if j < 0 {
						next := "NULL"
						if cells[0] != "NULL" {
							next = itoaPlusOne(t, cells[0])
						}
						out = append(out, next)
					} else {
						out = append(out, cells[j])
					}
				}
				want = append(want, strings.Join(out, "|"))
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %d rows, want %d; first %q, want %q", len(got), len(want), first(got), first(want))
			}
		})
	}
}

func itoaPlusOne(t *testing.T, s string) string {
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("id %q: %v", s, err)
	}
	return strconv.Itoa(v + 1)
}

func first(rows []string) string {
	if len(rows) == 0 {
		return ""
	}
	return rows[0]
}
