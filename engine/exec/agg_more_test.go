package exec

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// srcCase is a plan over fresh copies of table t (src makes one per call)
// and the SQL PostgreSQL ran for the expected rows, kept in
// testdata/more_pg.txt in the format of ops_pg.txt. ICEGATE_DUMP=1 go test
// -run TestMoreOperators prints the cases' SQL.
type srcCase struct {
	name    string
	sql     string
	ordered bool
	build   func(src func() engine.Operator) (engine.Operator, error)
}

func f8(v float64) expr.Expr { return lit(v, expr.Float8) }
func txt(s string) expr.Expr { return lit(s, expr.Text) }

// aggBy groups t by g (nil keys: one group).
func aggBy(src engine.Operator, keys []expr.Expr, aggs ...AggCall) (engine.Operator, error) {
	return NewHashAggregate(src, keys, aggs)
}

var byG = []expr.Expr{col(tG)}

var aggCases = []srcCase{
	{
		name: "agg_bool",
		sql:  "SELECT g, bool_and(b), bool_or(b), every(b), bool_and(v > 500), bool_or(x > 0) FROM t GROUP BY g",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			return aggBy(src(), byG, AggCall{Fn: "bool_and", Arg: col(tB)}, AggCall{Fn: "bool_or", Arg: col(tB)},
				AggCall{Fn: "every", Arg: col(tB)}, AggCall{Fn: "bool_and", Arg: call(">", col(tV), i8(500))},
				AggCall{Fn: "bool_or", Arg: call(">", col(tX), f8(0))})
		},
	},
	{
		name: "agg_variance_numeric",
		sql: `SELECT g, stddev(v), stddev_samp(id), stddev_pop(id), variance(d), var_samp(d), var_pop(d),
			var_pop(g), stddev(d * 1.5), var_samp(v / 3) FILTER (WHERE id < 50) FROM t GROUP BY g`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			return aggBy(src(), byG, AggCall{Fn: "stddev", Arg: col(tV)}, AggCall{Fn: "stddev_samp", Arg: col(tID)},
				AggCall{Fn: "stddev_pop", Arg: col(tID)}, AggCall{Fn: "variance", Arg: col(tD)},
				AggCall{Fn: "var_samp", Arg: col(tD)}, AggCall{Fn: "var_pop", Arg: col(tD)}, AggCall{Fn: "var_pop", Arg: col(tG)},
				AggCall{Fn: "stddev", Arg: call("*", col(tD), lit(catalogDecimal("1.5"), &arrow.Decimal128Type{Precision: 2, Scale: 1}))},
				AggCall{Fn: "var_samp", Arg: call("/", col(tV), i8(3)), Filter: call("<", col(tID), i4(50))})
		},
	},
	{
		name: "agg_variance_small",
		sql:  "SELECT s, stddev(d), stddev_pop(d), var_samp(id), variance(d * 0.001) FROM t WHERE id < 40 GROUP BY s",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src(), call("<", col(tID), i4(40)))
			if err != nil {
				return nil, err
			}
			return aggBy(f, []expr.Expr{col(tS)}, AggCall{Fn: "stddev", Arg: col(tD)}, AggCall{Fn: "stddev_pop", Arg: col(tD)},
				AggCall{Fn: "var_samp", Arg: col(tID)}, AggCall{Fn: "variance", Arg: call("*", col(tD), lit(catalogDecimal("0.001"), &arrow.Decimal128Type{Precision: 3, Scale: 3}))})
		},
	},
	{
		name: "agg_variance_float",
		sql: `SELECT g, stddev(x), var_pop(x), stddev_pop(x::float4), variance(x) FILTER (WHERE id < 150)
			FROM t WHERE x < 1e10 GROUP BY g`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src(), call("<", col(tX), f8(1e10)))
			if err != nil {
				return nil, err
			}
			return aggBy(f, byG, AggCall{Fn: "stddev", Arg: col(tX)}, AggCall{Fn: "var_pop", Arg: col(tX)},
				AggCall{Fn: "stddev_pop", Arg: &expr.Cast{Arg: col(tX), T: expr.Float4}},
				AggCall{Fn: "variance", Arg: col(tX), Filter: call("<", col(tID), i4(150))})
		},
	},
	{
		name: "agg_variance_float_nan",
		sql:  "SELECT g, stddev(x), var_samp(x) FILTER (WHERE id < 30) FROM t WHERE x < 1e10 OR x = 'NaN' GROUP BY g",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src(), call("or", call("<", col(tX), f8(1e10)), call("=", col(tX), f8(nan()))))
			if err != nil {
				return nil, err
			}
			return aggBy(f, byG, AggCall{Fn: "stddev", Arg: col(tX)},
				AggCall{Fn: "var_samp", Arg: col(tX), Filter: call("<", col(tID), i4(30))})
		},
	},
	{
		name: "agg_variance_overflow",
		sql:  "SELECT var_pop(x * 1e10) FROM t WHERE x < 1e299 AND x > -1e299 OR x = 1e300",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src(), call("or", call("and", call("<", col(tX), f8(1e299)), call(">", col(tX), f8(-1e299))),
				call("=", col(tX), f8(1e300))))
			if err != nil {
				return nil, err
			}
			return aggBy(f, nil, AggCall{Fn: "var_pop", Arg: call("*", col(tX), f8(1e10))})
		},
	},
	{
		name: "agg_string",
		sql: `SELECT g, string_agg(s, '-' ORDER BY s DESC), string_agg(s, s ORDER BY id),
			string_agg(s, NULL ORDER BY v, id) FILTER (WHERE b) FROM t GROUP BY g`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			return aggBy(src(), byG,
				AggCall{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{txt("-")}, OrderBy: []SortKey{{E: col(tS), Desc: true, NullsFirst: true}}},
				AggCall{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{col(tS)}, OrderBy: []SortKey{{E: col(tID)}}},
				AggCall{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{lit(nil, expr.Text)}, Filter: col(tB),
					OrderBy: []SortKey{{E: col(tV)}, {E: col(tID)}}})
		},
	},
	{
		name: "agg_array",
		sql: `SELECT g, array_agg(id ORDER BY id DESC), array_agg(s ORDER BY v, id), array_agg(d ORDER BY id) FILTER (WHERE b),
			array_agg(x ORDER BY x NULLS FIRST, id), array_agg(d / 7 ORDER BY id) FILTER (WHERE id < 40) FROM t GROUP BY g`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			return aggBy(src(), byG, AggCall{Fn: "array_agg", Arg: col(tID), OrderBy: []SortKey{{E: col(tID), Desc: true, NullsFirst: true}}},
				AggCall{Fn: "array_agg", Arg: col(tS), OrderBy: []SortKey{{E: col(tV)}, {E: col(tID)}}},
				AggCall{Fn: "array_agg", Arg: col(tD), Filter: col(tB), OrderBy: []SortKey{{E: col(tID)}}},
				AggCall{Fn: "array_agg", Arg: col(tX), OrderBy: []SortKey{{E: col(tX), NullsFirst: true}, {E: col(tID)}}},
				AggCall{Fn: "array_agg", Arg: call("/", col(tD), i4(7)), Filter: call("<", col(tID), i4(40)), OrderBy: []SortKey{{E: col(tID)}}})
		},
	},
	{
		name: "agg_array_distinct",
		sql:  "SELECT b, array_agg(DISTINCT g ORDER BY g DESC), array_agg(DISTINCT s) FROM t WHERE id % 7 = 0 GROUP BY b",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src(), call("=", call("%", col(tID), i4(7)), i4(0)))
			if err != nil {
				return nil, err
			}
			return aggBy(f, []expr.Expr{col(tB)},
				AggCall{Fn: "array_agg", Arg: col(tG), Distinct: true, OrderBy: []SortKey{{E: col(tG), Desc: true, NullsFirst: true}}},
				AggCall{Fn: "array_agg", Arg: col(tS), Distinct: true, OrderBy: []SortKey{{E: col(tS)}}})
		},
	},
	{
		// Without ORDER BY the values come in input order (PostgreSQL's
		// hash aggregation over the table in file order).
		name: "agg_input_order",
		sql:  "SELECT g, string_agg(s, ','), array_agg(id), array_agg(x), string_agg(s, d::text) FROM t GROUP BY g",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			return aggBy(src(), byG, AggCall{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{txt(",")}},
				AggCall{Fn: "array_agg", Arg: col(tID)}, AggCall{Fn: "array_agg", Arg: col(tX)},
				AggCall{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{&expr.Cast{Arg: col(tD), T: expr.Text}}})
		},
	},
	{
		name: "agg_percentile",
		sql: `SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY x), percentile_cont(0.25) WITHIN GROUP (ORDER BY v DESC),
			percentile_disc(0.3) WITHIN GROUP (ORDER BY d), percentile_disc(0) WITHIN GROUP (ORDER BY s),
			percentile_disc(1) WITHIN GROUP (ORDER BY s DESC), percentile_cont(0.9) WITHIN GROUP (ORDER BY d),
			percentile_cont(NULL) WITHIN GROUP (ORDER BY id), percentile_cont(0.37) WITHIN GROUP (ORDER BY id) FILTER (WHERE b)
			FROM t GROUP BY g`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			within := func(fn string, frac expr.Expr, k SortKey, filter expr.Expr) AggCall {
				return AggCall{Fn: fn, Args: []expr.Expr{frac}, OrderBy: []SortKey{k}, Filter: filter}
			}
			return aggBy(src(), byG,
				within("percentile_cont", f8(0.5), SortKey{E: col(tX)}, nil),
				within("percentile_cont", f8(0.25), SortKey{E: col(tV), Desc: true, NullsFirst: true}, nil),
				within("percentile_disc", f8(0.3), SortKey{E: col(tD)}, nil),
				within("percentile_disc", f8(0), SortKey{E: col(tS)}, nil),
				within("percentile_disc", f8(1), SortKey{E: col(tS), Desc: true, NullsFirst: true}, nil),
				within("percentile_cont", f8(0.9), SortKey{E: col(tD)}, nil),
				within("percentile_cont", lit(nil, expr.Float8), SortKey{E: col(tID)}, nil),
				within("percentile_cont", f8(0.37), SortKey{E: col(tID)}, col(tB)))
		},
	},
	{
		name: "agg_mode",
		sql: `SELECT g, mode() WITHIN GROUP (ORDER BY s), mode() WITHIN GROUP (ORDER BY v % 5 DESC), mode() WITHIN GROUP (ORDER BY d),
			mode() WITHIN GROUP (ORDER BY b) FROM t GROUP BY g`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			mode := func(k SortKey) AggCall { return AggCall{Fn: "mode", OrderBy: []SortKey{k}} }
			return aggBy(src(), byG, mode(SortKey{E: col(tS)}), mode(SortKey{E: call("%", col(tV), i8(5)), Desc: true, NullsFirst: true}),
				mode(SortKey{E: col(tD)}), mode(SortKey{E: col(tB)}))
		},
	},
	{
		name: "agg_new_empty",
		sql: `SELECT array_agg(id), string_agg(s, ','), stddev(v), var_pop(x), bool_and(b), percentile_cont(0.5) WITHIN GROUP (ORDER BY x),
			percentile_disc(0.5) WITHIN GROUP (ORDER BY s), mode() WITHIN GROUP (ORDER BY s) FROM t WHERE false`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src(), lit(false, expr.Bool))
			if err != nil {
				return nil, err
			}
			return aggBy(f, nil, AggCall{Fn: "array_agg", Arg: col(tID)}, AggCall{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{txt(",")}},
				AggCall{Fn: "stddev", Arg: col(tV)}, AggCall{Fn: "var_pop", Arg: col(tX)}, AggCall{Fn: "bool_and", Arg: col(tB)},
				AggCall{Fn: "percentile_cont", Args: []expr.Expr{f8(0.5)}, OrderBy: []SortKey{{E: col(tX)}}},
				AggCall{Fn: "percentile_disc", Args: []expr.Expr{f8(0.5)}, OrderBy: []SortKey{{E: col(tS)}}},
				AggCall{Fn: "mode", OrderBy: []SortKey{{E: col(tS)}}})
		},
	},
	{
		name: "agg_percentile_range",
		sql:  "SELECT g, percentile_cont(1.5) WITHIN GROUP (ORDER BY x) FROM t GROUP BY g",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			return aggBy(src(), byG, AggCall{Fn: "percentile_cont", Args: []expr.Expr{f8(1.5)}, OrderBy: []SortKey{{E: col(tX)}}})
		},
	},
	{
		name: "agg_ordered_no_groups",
		sql:  "SELECT string_agg(s, '' ORDER BY s, id), array_agg(v ORDER BY x DESC, id), percentile_disc(0.5) WITHIN GROUP (ORDER BY d DESC) FROM t WHERE id < 60",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src(), call("<", col(tID), i4(60)))
			if err != nil {
				return nil, err
			}
			return aggBy(f, nil, AggCall{Fn: "string_agg", Arg: col(tS), Args: []expr.Expr{txt("")}, OrderBy: []SortKey{{E: col(tS)}, {E: col(tID)}}},
				AggCall{Fn: "array_agg", Arg: col(tV), OrderBy: []SortKey{{E: col(tX), Desc: true, NullsFirst: true}, {E: col(tID)}}},
				AggCall{Fn: "percentile_disc", Args: []expr.Expr{f8(0.5)}, OrderBy: []SortKey{{E: col(tD), Desc: true, NullsFirst: true}}})
		},
	},
}

// moreCases are all the cases checked against testdata/more_pg.txt.
func moreCases() []srcCase {
	var all []srcCase
	all = append(all, aggCases...)
	all = append(all, setOpCases...)
	all = append(all, srfCases...)
	return all
}

func TestMoreOperators(t *testing.T) {
	cases := moreCases()
	if os.Getenv("ICEGATE_DUMP") != "" {
		for _, c := range cases {
			fmt.Printf("CASE\t%s\t%s\n", c.name, strings.Join(strings.Fields(c.sql), " "))
		}
		return
	}
	golden := readGoldenFile(t, "testdata/more_pg.txt")
	rows := tableRows(t)
	for _, c := range cases {
		want, ok := golden[c.name]
		if !ok {
			t.Errorf("%s: no PostgreSQL result in testdata/more_pg.txt", c.name)
			continue
		}
		for bname, sizes := range batchSizes() {
			t.Run(c.name+"/"+bname, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ctx := expr.WithAllocator(context.Background(), mem)
				var made []engine.Operator
				src := func() engine.Operator {
					op := NewBatches(tableSchema, makeBatches(t, mem, rows, sizes))
					made = append(made, op)
					return op
				}
				op, err := c.build(src)
				if err != nil {
					for _, m := range made {
						m.Close()
					}
					t.Fatal(err)
				}
				got, err := drainText(ctx, t, op)
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

// readGoldenFile reads a file in the format of ops_pg.txt.
func readGoldenFile(t testing.TB, path string) map[string][]string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	var cur string
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if name, ok := strings.CutPrefix(line, "== "); ok {
			cur = name
			out[cur] = []string{}
			continue
		}
		out[cur] = append(out[cur], line)
	}
	return out
}
