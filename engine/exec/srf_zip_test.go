package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestZippedTableFunc checks set-returning functions evaluated in step:
// as many rows per input row as the longest, NULLs after the shorter ones
// end, over input rows of different lengths and batches longer than
// srfBatchRows.
func TestZippedTableFunc(t *testing.T) {
	ints := func(vs ...int32) expr.Expr {
		l := make([]any, len(vs))
		for i, v := range vs {
			l[i] = v
		}
		return lit(l, arrow.ListOf(expr.Int4))
	}
	texts := lit([]any{"a", "b"}, arrow.ListOf(expr.Text))
	cases := []struct {
		name       string
		fn         string
		n          []int32 // one input row per value: the series' end
		args       func(n expr.Expr) []expr.Expr
		ordinality bool
		outer      bool
		want       []string
		count      int
	}{
		{name: "series_and_unnest", fn: ZipFuncName([]string{"generate_series", "unnest"}, []int{2, 1}), n: []int32{3, 1, 0},
			args: func(n expr.Expr) []expr.Expr { return []expr.Expr{i4(1), n, texts} },
			want: []string{"3|1|a", "3|2|b", "3|3|NULL", "1|1|a", "1|NULL|b", "0|NULL|a", "0|NULL|b"}},
		{name: "multi_argument_unnest", fn: "unnest", n: []int32{1},
			args: func(expr.Expr) []expr.Expr { return []expr.Expr{ints(1, 2, 3), texts, ints()} },
			want: []string{"1|1|a|NULL", "1|2|b|NULL", "1|3|NULL|NULL"}},
		{name: "ordinality", fn: "unnest", n: []int32{1}, ordinality: true,
			args: func(expr.Expr) []expr.Expr { return []expr.Expr{ints(7), texts} },
			want: []string{"1|7|a|1", "1|NULL|b|2"}},
		{name: "all_empty_outer", fn: ZipFuncName([]string{"unnest", "unnest"}, []int{1, 1}), n: []int32{5}, outer: true,
			args: func(expr.Expr) []expr.Expr { return []expr.Expr{ints(), ints()} },
			want: []string{"5|NULL|NULL"}},
		{name: "long", fn: ZipFuncName([]string{"generate_series", "generate_series"}, []int{2, 2}), n: []int32{10000},
			args: func(n expr.Expr) []expr.Expr { return []expr.Expr{i4(1), n, i4(1), i4(5000)} }, count: 10000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: expr.Int4, Nullable: true}}, nil)
			var rows [][]expr.Expr
			for _, n := range c.n {
				rows = append(rows, []expr.Expr{i4(n)})
			}
			in, err := NewValues(schema, rows)
			if err != nil {
				t.Fatal(err)
			}
			op, err := NewTableFunc(in, c.fn, c.args(&expr.Col{Idx: 0, Name: "n", T: expr.Int4}), c.ordinality, c.outer)
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(context.Background(), t, op)
			if err != nil {
				t.Fatal(err)
			}
			if c.count > 0 {
				if len(got) != c.count || got[c.count-1] != "10000|10000|NULL" || got[4999] != "10000|5000|5000" {
					t.Errorf("%d rows, last %q", len(got), got[len(got)-1])
				}
				return
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestZippedTableFuncErrors checks argument type errors name the whole
// call, by SQLSTATE.
func TestZippedTableFuncErrors(t *testing.T) {
	_, err := TableFuncColumns("unnest", []arrow.DataType{arrow.ListOf(expr.Int4), expr.Int4})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.UndefinedFunction {
		t.Fatalf("unnest(int[], int): got %v, want 42883", err)
	}
	_, err = TableFuncColumns(ZipFuncName([]string{"generate_series"}, []int{2}), []arrow.DataType{expr.Int4})
	if err == nil {
		t.Fatal("a zipped call with the wrong number of arguments: no error")
	}
}
