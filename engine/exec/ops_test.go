package exec

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// opCase is a plan over the table source and the SQL PostgreSQL ran for
// the expected rows. Unordered cases compare sorted rows.
type opCase struct {
	name    string
	sql     string
	ordered bool
	build   func(src engine.Operator) (engine.Operator, error)
}

func catalogDecimal(s string) catalog.Decimal {
	parts := strings.SplitN(s, ".", 2)
	u, _ := new(big.Int).SetString(strings.Join(parts, ""), 10)
	scale := 0
	if len(parts) == 2 {
		scale = len(parts[1])
	}
	return catalog.Decimal{Unscaled: u, Scale: scale}
}

func i4(v int32) expr.Expr { return lit(v, expr.Int4) }
func i8(v int64) expr.Expr { return lit(v, expr.Int8) }

var opCases = []opCase{
	{
		name: "filter", ordered: true,
		sql: "SELECT * FROM t WHERE v > 0 AND s LIKE 'a%' ORDER BY id",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewFilter(src, call("and", call(">", col(tV), i8(0)), call("like", col(tS), lit("a%", expr.Text))))
		},
	},
	{
		name: "filter_null_drops", ordered: true,
		sql: "SELECT id, b FROM t WHERE b OR g = 1 ORDER BY id",
		build: func(src engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src, call("or", col(tB), call("=", col(tG), i4(1))))
			if err != nil {
				return nil, err
			}
			return NewProject(f, []expr.Expr{col(tID), col(tB)}, []string{"id", "b"})
		},
	},
	{
		name: "filter_none", ordered: true,
		sql: "SELECT * FROM t WHERE false",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewFilter(src, lit(false, expr.Bool))
		},
	},
	{
		name: "project", ordered: true,
		sql: "SELECT id, v - 1, s || '!', d / 3, x::text, coalesce(g, -1) FROM t ORDER BY id",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewProject(src, []expr.Expr{
				col(tID),
				call("-", col(tV), i8(1)),
				call("||", col(tS), lit("!", expr.Text)),
				call("/", col(tD), i4(3)),
				&expr.Cast{Arg: col(tX), T: expr.Text},
				call("coalesce", col(tG), i4(-1)),
			}, []string{"id", "v2", "s2", "d3", "xt", "g"})
		},
	},
	{
		name: "project_overflow", ordered: true,
		sql: "SELECT v * 2 FROM t",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewProject(src, []expr.Expr{call("*", col(tV), i8(2))}, []string{"v2"})
		},
	},
	{
		name: "project_error", ordered: true,
		sql: "SELECT v / (id - id) FROM t",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewProject(src, []expr.Expr{call("/", col(tV), call("-", col(tID), col(tID)))}, []string{"q"})
		},
	},
	{
		name: "aggregate",
		sql: `SELECT g, count(*), count(s), sum(v), avg(v), min(s), max(s), min(x), max(x), sum(d), avg(d),
			sum(v) FILTER (WHERE b), sum(x) FILTER (WHERE x < 1e10), avg(x) FILTER (WHERE x < 1e10),
			min(d), max(id), sum(id), avg(id)
			FROM t GROUP BY g`,
		build: func(src engine.Operator) (engine.Operator, error) {
			small := call("<", col(tX), lit(1e10, expr.Float8))
			return NewHashAggregate(src, []expr.Expr{col(tG)}, []AggCall{
				{Fn: "count"}, {Fn: "count", Arg: col(tS)}, {Fn: "sum", Arg: col(tV)}, {Fn: "avg", Arg: col(tV)},
				{Fn: "min", Arg: col(tS)}, {Fn: "max", Arg: col(tS)}, {Fn: "min", Arg: col(tX)}, {Fn: "max", Arg: col(tX)},
				{Fn: "sum", Arg: col(tD)}, {Fn: "avg", Arg: col(tD)},
				{Fn: "sum", Arg: col(tV), Filter: col(tB)},
				{Fn: "sum", Arg: col(tX), Filter: small}, {Fn: "avg", Arg: col(tX), Filter: small}, {Fn: "min", Arg: col(tD)},
				{Fn: "max", Arg: col(tID)}, {Fn: "sum", Arg: col(tID)}, {Fn: "avg", Arg: col(tID)},
			})
		},
	},
	{
		name: "aggregate_float_sum",
		sql:  "SELECT g, sum(x) FROM t GROUP BY g",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewHashAggregate(src, []expr.Expr{col(tG)}, []AggCall{{Fn: "sum", Arg: col(tX)}})
		},
	},
	{
		name: "aggregate_expr_keys",
		sql:  "SELECT g % 2, d > 0, count(*), min(d / 7), max(d / 7), sum(d * 2), avg(v * 1.5) FROM t GROUP BY 1, 2",
		build: func(src engine.Operator) (engine.Operator, error) {
			d7 := call("/", col(tD), i4(7))
			return NewHashAggregate(src, []expr.Expr{call("%", col(tG), i4(2)), call(">", col(tD), i4(0))}, []AggCall{
				{Fn: "count"}, {Fn: "min", Arg: d7}, {Fn: "max", Arg: d7}, {Fn: "sum", Arg: call("*", col(tD), i4(2))},
				{Fn: "avg", Arg: call("*", col(tV), lit(catalogDecimal("1.5"), &arrow.Decimal128Type{Precision: 38, Scale: 1}))},
			})
		},
	},
	{
		name: "aggregate_numeric_keys",
		sql:  "SELECT d / 100, count(*) FROM t GROUP BY 1",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewHashAggregate(src, []expr.Expr{call("/", col(tD), i4(100))}, []AggCall{{Fn: "count"}})
		},
	},
	{
		name: "sort_numeric_text", ordered: true,
		sql: "SELECT id, s, d / 7 FROM t ORDER BY d / 7 NULLS FIRST, s DESC NULLS LAST, id",
		build: func(src engine.Operator) (engine.Operator, error) {
			d7 := call("/", col(tD), i4(7))
			s, err := NewSort(src, []SortKey{{E: d7, NullsFirst: true}, {E: col(tS), Desc: true}})
			if err != nil {
				return nil, err
			}
			return NewProject(s, []expr.Expr{col(tID), col(tS), d7}, []string{"id", "s", "d7"})
		},
	},
	{
		name: "select_distinct",
		sql:  "SELECT DISTINCT s, b FROM t",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewHashAggregate(src, []expr.Expr{col(tS), col(tB)}, nil)
		},
	},
	{
		name: "aggregate_filters",
		sql:  "SELECT g, count(*) FILTER (WHERE v > 0), count(DISTINCT s) FILTER (WHERE b), max(s) FILTER (WHERE s LIKE 'a%') FROM t GROUP BY g",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewHashAggregate(src, []expr.Expr{col(tG)}, []AggCall{
				{Fn: "count", Filter: call(">", col(tV), i8(0))},
				{Fn: "count", Arg: col(tS), Distinct: true, Filter: col(tB)},
				{Fn: "max", Arg: col(tS), Filter: call("like", col(tS), lit("a%", expr.Text))},
			})
		},
	},
	{
		name: "aggregate_two_keys",
		sql:  "SELECT s, b, count(*), sum(DISTINCT g), max(d), count(DISTINCT s), avg(DISTINCT v) FROM t GROUP BY s, b",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewHashAggregate(src, []expr.Expr{col(tS), col(tB)}, []AggCall{
				{Fn: "count"}, {Fn: "sum", Arg: col(tG), Distinct: true}, {Fn: "max", Arg: col(tD)},
				{Fn: "count", Arg: col(tS), Distinct: true}, {Fn: "avg", Arg: col(tV), Distinct: true},
			})
		},
	},
	{
		name: "aggregate_float_keys",
		sql:  "SELECT x, count(*) FROM t GROUP BY x",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewHashAggregate(src, []expr.Expr{col(tX)}, []AggCall{{Fn: "count"}})
		},
	},
	{
		name: "aggregate_no_groups",
		sql:  "SELECT count(*), sum(v), avg(d), min(s), count(DISTINCT g) FROM t",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewHashAggregate(src, nil, []AggCall{
				{Fn: "count"}, {Fn: "sum", Arg: col(tV)}, {Fn: "avg", Arg: col(tD)}, {Fn: "min", Arg: col(tS)},
				{Fn: "count", Arg: col(tG), Distinct: true},
			})
		},
	},
	{
		name: "aggregate_empty_input",
		sql:  "SELECT count(*), sum(v), avg(v), max(s) FROM t WHERE false",
		build: func(src engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src, lit(false, expr.Bool))
			if err != nil {
				return nil, err
			}
			return NewHashAggregate(f, nil, []AggCall{
				{Fn: "count"}, {Fn: "sum", Arg: col(tV)}, {Fn: "avg", Arg: col(tV)}, {Fn: "max", Arg: col(tS)},
			})
		},
	},
	{
		name: "aggregate_empty_groups",
		sql:  "SELECT g, count(*) FROM t WHERE false GROUP BY g",
		build: func(src engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src, lit(false, expr.Bool))
			if err != nil {
				return nil, err
			}
			return NewHashAggregate(f, []expr.Expr{col(tG)}, []AggCall{{Fn: "count"}})
		},
	},
	{
		name: "sort", ordered: true,
		sql: "SELECT * FROM t ORDER BY s DESC, x NULLS FIRST, id",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewSort(src, []SortKey{{E: col(tS), Desc: true, NullsFirst: true}, {E: col(tX), NullsFirst: true}})
		},
	},
	{
		name: "sort_expr", ordered: true,
		sql: "SELECT id, d FROM t ORDER BY abs(d) DESC NULLS LAST, b, id",
		build: func(src engine.Operator) (engine.Operator, error) {
			s, err := NewSort(src, []SortKey{{E: call("abs", col(tD)), Desc: true}, {E: col(tB)}})
			if err != nil {
				return nil, err
			}
			return NewProject(s, []expr.Expr{col(tID), col(tD)}, []string{"id", "d"})
		},
	},
	{
		name: "topn", ordered: true,
		sql: "SELECT * FROM t ORDER BY v DESC, id LIMIT 10",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewTopN(src, []SortKey{{E: col(tV), Desc: true, NullsFirst: true}}, 10)
		},
	},
	{
		name: "topn_more_than_input", ordered: true,
		sql: "SELECT id, x FROM t ORDER BY x, id LIMIT 1000",
		build: func(src engine.Operator) (engine.Operator, error) {
			s, err := NewTopN(src, []SortKey{{E: col(tX)}}, 1000)
			if err != nil {
				return nil, err
			}
			return NewProject(s, []expr.Expr{col(tID), col(tX)}, []string{"id", "x"})
		},
	},
	{
		name: "limit_offset", ordered: true,
		sql: "SELECT * FROM t ORDER BY id LIMIT 5 OFFSET 7",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewLimit(src, 5, 7), nil
		},
	},
	{
		name: "offset_only", ordered: true,
		sql: "SELECT id FROM t ORDER BY id OFFSET 295",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewProject(NewLimit(src, -1, 295), []expr.Expr{col(tID)}, []string{"id"})
		},
	},
	{
		name: "limit_zero", ordered: true,
		sql: "SELECT * FROM t LIMIT 0",
		build: func(src engine.Operator) (engine.Operator, error) {
			return NewLimit(src, 0, 0), nil
		},
	},
}

// TestOperators runs every case under every batching with a checked
// allocator. ICEGATE_DUMP=1 prints the cases' SQL for regenerating the
// PostgreSQL results.
func TestOperators(t *testing.T) {
	if os.Getenv("ICEGATE_DUMP") != "" {
		for _, c := range opCases {
			fmt.Printf("CASE\t%s\t%s\n", c.name, strings.Join(strings.Fields(c.sql), " "))
		}
		return
	}
	golden := readGolden(t)
	rows := tableRows(t)
	for _, c := range opCases {
		want, ok := golden[c.name]
		if !ok {
			t.Fatalf("%s: no PostgreSQL result in testdata/ops_pg.txt", c.name)
		}
		for bname, sizes := range batchSizes() {
			t.Run(c.name+"/"+bname, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ctx := expr.WithAllocator(context.Background(), mem)
				src := NewBatches(tableSchema, makeBatches(t, mem, rows, sizes))
				op, err := c.build(src)
				if err != nil {
					src.Close()
					t.Fatal(err)
				}
				got, err := drain(ctx, t, op)
				if err != nil {
					got = []string{"ERROR " + sqlstate(err)}
				}
				w := want
				if !c.ordered {
					got, w = sortedCopy(got), sortedCopy(want)
				}
				if strings.Join(got, "\n") != strings.Join(w, "\n") {
					t.Errorf("got %d rows, PostgreSQL %d\n%s", len(got), len(w), diff(got, w))
				}
			})
		}
	}
}

// diff shows the first differing rows.
func diff(got, want []string) string {
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(got), len(want)) && shown < 5; i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			fmt.Fprintf(&b, "row %d:\n  got  %s\n  want %s\n", i, g, w)
			shown++
		}
	}
	return b.String()
}
