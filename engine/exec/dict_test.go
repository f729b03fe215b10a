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
)

// Scans may hand over dictionary-encoded strings; every operator must
// take them as plain text.
func TestDictionaryColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: dt, Nullable: true}, {Name: "n", Type: expr.Int4, Nullable: true}}, nil)
	mk := func(vals []string, nums []int32) arrow.RecordBatch {
		db := array.NewDictionaryBuilder(mem, dt).(*array.BinaryDictionaryBuilder)
		defer db.Release()
		for _, v := range vals {
			if v == "-" {
				db.AppendNull()
			} else if err := db.AppendString(v); err != nil {
				t.Fatal(err)
			}
		}
		a := db.NewArray()
		defer a.Release()
		ib := array.NewInt32Builder(mem)
		defer ib.Release()
		ib.AppendValues(nums, nil)
		n := ib.NewArray()
		defer n.Release()
		return array.NewRecordBatch(schema, []arrow.Array{a, n}, int64(len(nums)))
	}
	src := func() engine.Operator {
		return NewBatches(schema, []arrow.RecordBatch{mk([]string{"b", "a", "-"}, []int32{1, 2, 3}), mk([]string{"a", "c"}, []int32{4, 5})})
	}
	s := &expr.Col{Idx: 0, Name: "s", T: dt}
	n := &expr.Col{Idx: 1, Name: "n", T: expr.Int4}
	cases := []struct {
		name  string
		build func() (engine.Operator, error)
		want  string
	}{
		{"project", func() (engine.Operator, error) {
			return NewProject(src(), []expr.Expr{s, call("||", &expr.Cast{Arg: s, T: expr.Text}, lit("!", expr.Text))}, []string{"s", "x"})
		}, "b|b!;a|a!;NULL|NULL;a|a!;c|c!"},
		{"filter", func() (engine.Operator, error) {
			return NewFilter(src(), call("=", &expr.Cast{Arg: s, T: expr.Text}, lit("a", expr.Text)))
		}, "a|2;a|4"},
		{"sort", func() (engine.Operator, error) {
			return NewSort(src(), []SortKey{{E: s, Desc: true, NullsFirst: true}})
		}, "NULL|3;c|5;b|1;a|2;a|4"},
		{"aggregate", func() (engine.Operator, error) {
			return NewHashAggregate(src(), []expr.Expr{s}, []AggCall{{Fn: "sum", Arg: n}, {Fn: "max", Arg: s}})
		}, "b|1|b;a|6|a;NULL|3|NULL;c|5|c"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op, err := c.build()
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(ctx, t, op)
			if err != nil || strings.Join(got, ";") != c.want {
				t.Errorf("got %q, %v; want %s", strings.Join(got, ";"), err, c.want)
			}
		})
	}
}
