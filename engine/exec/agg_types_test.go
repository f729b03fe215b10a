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

// The result types are PostgreSQL's (pg_aggregate / \da), the errors its
// SQLSTATEs.
func TestAggResultTypeN(t *testing.T) {
	dec := &arrow.Decimal128Type{Precision: 10, Scale: 2}
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	cases := []struct {
		fn   string
		args []arrow.DataType
		want string
		code string
	}{
		{"count", nil, "int64", ""},
		{"count", []arrow.DataType{expr.Text}, "int64", ""},
		{"sum", []arrow.DataType{expr.Int4}, "int64", ""},
		{"bool_and", []arrow.DataType{expr.Bool}, "bool", ""},
		{"every", []arrow.DataType{expr.Bool}, "bool", ""},
		{"bool_or", []arrow.DataType{expr.Int4}, "", "42883"},
		{"string_agg", []arrow.DataType{expr.Text, expr.Text}, "utf8", ""},
		{"string_agg", []arrow.DataType{dict, expr.Text}, "utf8", ""},
		{"string_agg", []arrow.DataType{expr.Bytea, expr.Bytea}, "binary", ""},
		{"string_agg", []arrow.DataType{expr.Text, expr.Bytea}, "", "42883"},
		{"string_agg", []arrow.DataType{expr.Text}, "", "42883"},
		{"array_agg", []arrow.DataType{expr.Int8}, "list<item: int64, nullable>", ""},
		{"array_agg", []arrow.DataType{dict}, "list<item: utf8, nullable>", ""},
		{"stddev", []arrow.DataType{expr.Int4}, "numeric", ""},
		{"var_pop", []arrow.DataType{dec}, "numeric", ""},
		{"variance", []arrow.DataType{expr.Float4}, "float64", ""},
		{"stddev_samp", []arrow.DataType{expr.Text}, "", "42883"},
		{"percentile_cont", []arrow.DataType{expr.Float8, expr.Int4}, "float64", ""},
		{"percentile_disc", []arrow.DataType{expr.Float8, expr.Text}, "utf8", ""},
		{"percentile_disc", []arrow.DataType{expr.Float8, dec}, "decimal(10, 2)", ""},
		{"percentile_cont", []arrow.DataType{expr.Float8, expr.Text}, "", "42883"},
		{"mode", []arrow.DataType{expr.Date}, "date32", ""},
		{"median", []arrow.DataType{expr.Int4}, "", "42883"},
	}
	for _, c := range cases {
		rt, err := AggResultTypeN(c.fn, c.args)
		if sqlstate(err) != c.code || c.code == "" && err != nil {
			t.Errorf("%s%v: %v, want SQLSTATE %q", c.fn, c.args, err, c.code)
			continue
		}
		if err == nil && rt.String() != c.want {
			t.Errorf("%s%v = %s, want %s", c.fn, c.args, rt, c.want)
		}
	}
}

// Calls the aggregate cannot run are refused when the plan is built.
func TestAggCallErrors(t *testing.T) {
	cases := []struct {
		name string
		call AggCall
		code string
	}{
		{"ordered-set without WITHIN GROUP", AggCall{Fn: "percentile_cont", Args: []expr.Expr{f8(0.5)}}, "42809"},
		{"fraction from a column", AggCall{Fn: "percentile_disc", Args: []expr.Expr{col(tX)}, OrderBy: []SortKey{{E: col(tX)}}}, "0A000"},
		{"string_agg of a number", AggCall{Fn: "string_agg", Arg: col(tID), Args: []expr.Expr{txt(",")}}, "42883"},
		{"mode of two keys", AggCall{Fn: "mode", OrderBy: []SortKey{{E: col(tX)}, {E: col(tID)}}}, "42809"},
	}
	for _, c := range cases {
		_, err := NewHashAggregate(NewBatches(tableSchema, nil), nil, []AggCall{c.call})
		if sqlstate(err) != c.code {
			t.Errorf("%s: %v, want SQLSTATE %s", c.name, err, c.code)
		}
	}
}

// Where PostgreSQL's exact result has more than 38 digits (inputs of
// large scale), the last fractional digits are rounded off. The wanted
// values are PostgreSQL's, rounded to 38 digits:
//
//	SELECT stddev(d / 7) FROM t WHERE g = 0;  -- 42.6743143139165112925670234813039010095134
//	SELECT variance(d / 1000) FROM t WHERE id < 40 AND s = 'Berry'; -- 0.0876395757100000000000000000000000000000
func TestVarianceWideScale(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	cases := []struct {
		name  string
		where expr.Expr
		agg   AggCall
		want  string
	}{
		{"stddev", call("=", col(tG), i4(0)), AggCall{Fn: "stddev", Arg: call("/", col(tD), i4(7))}, "42.674314313916511292567023481303901010"},
		{"variance", call("and", call("<", col(tID), i4(40)), call("=", col(tS), txt("Berry"))),
			AggCall{Fn: "variance", Arg: call("/", col(tD), i4(1000))}, "0.087639575710000000000000000000000000000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := NewFilter(NewBatches(tableSchema, makeBatches(t, mem, tableRows(t), []int{50})), c.where)
			if err != nil {
				t.Fatal(err)
			}
			op, err := NewHashAggregate(f, nil, []AggCall{c.agg})
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(ctx, t, op)
			if err != nil || strings.Join(got, ";") != c.want {
				t.Errorf("got %q, %v; want %s", got, err, c.want)
			}
		})
	}
}

// array_agg and string_agg over dictionary-encoded text.
func TestAggDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: dt, Nullable: true}}, nil)
	s := &expr.Col{Idx: 0, Name: "s", T: dt}
	cases := []struct {
		name string
		aggs []AggCall
		want string
	}{
		{"array_agg", []AggCall{{Fn: "array_agg", Arg: s, OrderBy: []SortKey{{E: s, Desc: true, NullsFirst: true}}}}, `{NULL,c,b,a,a}`},
		{"string_agg", []AggCall{{Fn: "string_agg", Arg: s, Args: []expr.Expr{txt("+")}}}, "b+a+a+c"},
		{"mode", []AggCall{{Fn: "mode", OrderBy: []SortKey{{E: s}}}}, "a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := dictBatches(t, mem, schema, []string{"b", "a", "-"}, []string{"a", "c"})
			op, err := NewHashAggregate(in, nil, c.aggs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := drainText(ctx, t, op)
			if err != nil || strings.Join(got, ";") != c.want {
				t.Errorf("got %q, %v; want %s", got, err, c.want)
			}
		})
	}
}

// dictBatches is a source of one dictionary-encoded text column, one batch
// per list of values ("-" is NULL).
func dictBatches(t testing.TB, mem memory.Allocator, schema *arrow.Schema, batches ...[]string) engine.Operator {
	dt := schema.Field(0).Type.(*arrow.DictionaryType)
	var out []arrow.RecordBatch
	for _, vals := range batches {
		db := array.NewDictionaryBuilder(mem, dt).(*array.BinaryDictionaryBuilder)
		for _, v := range vals {
			if v == "-" {
				db.AppendNull()
			} else if err := db.AppendString(v); err != nil {
				t.Fatal(err)
			}
		}
		a := db.NewArray()
		db.Release()
		out = append(out, array.NewRecordBatch(schema, []arrow.Array{a}, int64(len(vals))))
		a.Release()
	}
	return NewBatches(schema, out)
}
