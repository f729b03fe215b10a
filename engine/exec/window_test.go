package exec

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// The window cases run over table t of the operator tests; each SQL's
// rows are what PostgreSQL 15 printed (testdata/window_pg.txt, same format
// as ops_pg.txt). Every SQL ends in an ORDER BY that is the window's sort
// (partition keys ascending NULLS LAST, then the ORDER BY keys) then id,
// the order the operator emits rows in (input order is id order). Calls
// whose value depends on the order of peers have id as a last ORDER BY key
// or read a value equal among peers.
//
// Regenerating: ICEGATE_DUMP=1 go test -run 'TestWindow$' -v prints
// "CASE<tab>name<tab>sql" lines; for each, write "== name" and then what
// psql -At -F'|' -P null=NULL printed for the SQL over table t, or
// "ERROR <sqlstate>" (psql -v VERBOSITY=verbose shows the code).

type winCase struct {
	name  string
	sql   string
	part  []expr.Expr
	order []SortKey
	calls []WindowCall
	// filter, when set, is applied to the input first (WHERE).
	filter expr.Expr
}

func wcall(fn string, fr WindowFrame, args ...expr.Expr) WindowCall {
	return WindowCall{Fn: fn, Args: args, Frame: fr}
}

func rows(s, e FrameBound, excl ...FrameExclude) WindowFrame {
	return frame(FrameRows, s, e, excl...)
}

func frame(m FrameMode, s, e FrameBound, excl ...FrameExclude) WindowFrame {
	f := WindowFrame{Mode: m, Start: s, End: e}
	if len(excl) > 0 {
		f.Exclude = excl[0]
	}
	return f
}

var (
	unbPre = FrameBound{Kind: UnboundedPreceding}
	unbFol = FrameBound{Kind: UnboundedFollowing}
	cur    = FrameBound{Kind: CurrentRow}
	whole  = rows(unbPre, unbFol)
)

func pre(off expr.Expr) FrameBound { return FrameBound{Kind: OffsetPreceding, Offset: off} }
func fol(off expr.Expr) FrameBound { return FrameBound{Kind: OffsetFollowing, Offset: off} }

func asc(e expr.Expr) SortKey      { return SortKey{E: e} }
func desc(e expr.Expr) SortKey     { return SortKey{E: e, Desc: true, NullsFirst: true} }
func nullsFirst(k SortKey) SortKey { k.NullsFirst = true; return k }
func nullsLast(k SortKey) SortKey  { k.NullsFirst = false; return k }

func num(s string, p, sc int32) expr.Expr {
	return lit(catalogDecimal(s), &arrow.Decimal128Type{Precision: p, Scale: sc})
}

var def = DefaultFrame()

var winCases = []winCase{
	{
		name: "ranking_peers",
		sql: `SELECT id, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w
			FROM t WINDOW w AS (PARTITION BY g ORDER BY s NULLS FIRST) ORDER BY g, s NULLS FIRST, id`,
		part:  []expr.Expr{col(tG)},
		order: []SortKey{nullsFirst(asc(col(tS)))},
		calls: []WindowCall{wcall("rank", def), wcall("dense_rank", def), wcall("percent_rank", def), wcall("cume_dist", def)},
	},
	{
		name: "row_number_ntile_lag",
		sql: `SELECT id, row_number() OVER w, ntile(4) OVER w, ntile(7) OVER w, ntile(1000) OVER w, lag(v) OVER w,
			lead(v, 2, -1::int8) OVER w, lag(s, g) OVER w, lead(d, -1) OVER w, lag(b, 0) OVER w, lag(v, 3, NULL) OVER w
			FROM t WINDOW w AS (PARTITION BY g ORDER BY s, id) ORDER BY g, s, id`,
		part:  []expr.Expr{col(tG)},
		order: []SortKey{asc(col(tS)), asc(col(tID))},
		calls: []WindowCall{
			wcall("row_number", def), wcall("ntile", def, i4(4)), wcall("ntile", def, i4(7)), wcall("ntile", def, i4(1000)),
			wcall("lag", def, col(tV)), wcall("lead", def, col(tV), i4(2), i8(-1)), wcall("lag", def, col(tS), col(tG)),
			wcall("lead", def, col(tD), i4(-1)), wcall("lag", def, col(tB), i4(0)), wcall("lag", def, col(tV), i4(3), lit(nil, arrow.Null)),
		},
	},
	{
		name: "no_window_clause",
		sql:  `SELECT id, row_number() OVER (), rank() OVER (), cume_dist() OVER (), count(*) OVER (), sum(v) OVER (), max(s) OVER (), first_value(id) OVER () FROM t ORDER BY id`,
		calls: []WindowCall{
			wcall("row_number", def), wcall("rank", def), wcall("cume_dist", def), wcall("count", def),
			wcall("sum", def, col(tV)), wcall("max", def, col(tS)), wcall("first_value", def, col(tID)),
		},
	},
	{
		name: "running_peers_exact",
		sql: `SELECT id, count(*) OVER w, count(s) OVER w, sum(v) OVER w, avg(v) OVER w, min(s) OVER w, max(s) OVER w,
			sum(d) OVER w, avg(d) OVER w, sum(id) OVER w, avg(id) OVER w, sum(v) FILTER (WHERE b) OVER w,
			count(*) FILTER (WHERE v > 0) OVER w, bool_and(b) OVER w, bool_or(b) OVER w, min(x) OVER w, max(d) OVER w
			FROM t WINDOW w AS (PARTITION BY b ORDER BY g) ORDER BY b, g, id`,
		part:  []expr.Expr{col(tB)},
		order: []SortKey{asc(col(tG))},
		calls: []WindowCall{
			wcall("count", def), wcall("count", def, col(tS)), wcall("sum", def, col(tV)), wcall("avg", def, col(tV)),
			wcall("min", def, col(tS)), wcall("max", def, col(tS)), wcall("sum", def, col(tD)), wcall("avg", def, col(tD)),
			wcall("sum", def, col(tID)), wcall("avg", def, col(tID)),
			{Fn: "sum", Args: []expr.Expr{col(tV)}, Filter: col(tB), Frame: def},
			{Fn: "count", Filter: call(">", col(tV), i8(0)), Frame: def},
			wcall("bool_and", def, col(tB)), wcall("bool_or", def, col(tB)), wcall("min", def, col(tX)), wcall("max", def, col(tD)),
		},
	},
	{
		name: "running_float",
		sql: `SELECT id, sum(x) OVER w, avg(x) FILTER (WHERE x < 1e10) OVER w, sum((id::float8 / 3)::float4) OVER w, avg(d / 7) OVER w, sum(d / 7) OVER w
			FROM t WINDOW w AS (PARTITION BY g ORDER BY id) ORDER BY g, id`,
		part:  []expr.Expr{col(tG)},
		order: []SortKey{asc(col(tID))},
		calls: []WindowCall{
			wcall("sum", def, col(tX)), {Fn: "avg", Args: []expr.Expr{col(tX)}, Filter: call("<", col(tX), lit(1e10, expr.Float8)), Frame: def},
			wcall("sum", def, &expr.Cast{Arg: call("/", &expr.Cast{Arg: col(tID), T: expr.Float8}, lit(3.0, expr.Float8)), T: arrow.PrimitiveTypes.Float32}),
			wcall("avg", def, call("/", col(tD), i4(7))), wcall("sum", def, call("/", col(tD), i4(7))),
		},
	},
	{
		name: "rows_sliding",
		sql: `SELECT id, sum(v) OVER w, avg(d) OVER w, min(x) OVER w, max(s) OVER w, count(*) OVER w, first_value(s) OVER w,
			last_value(s) OVER w, nth_value(s, 2) OVER w, sum(x) OVER w, avg(id) OVER w, count(s) OVER w,
			sum(d::numeric(30,2)) OVER w, avg(d::numeric(30,2)) OVER w
			FROM t WINDOW w AS (PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) ORDER BY g, id`,
		part:  []expr.Expr{col(tG)},
		order: []SortKey{asc(col(tID))},
		calls: func() []WindowCall {
			f := rows(pre(i8(2)), fol(i8(1)))
			wide := &expr.Cast{Arg: col(tD), T: &arrow.Decimal128Type{Precision: 30, Scale: 2}}
			return []WindowCall{
				wcall("sum", f, col(tV)), wcall("avg", f, col(tD)), wcall("min", f, col(tX)), wcall("max", f, col(tS)),
				wcall("count", f), wcall("first_value", f, col(tS)), wcall("last_value", f, col(tS)),
				wcall("nth_value", f, col(tS), i4(2)), wcall("sum", f, col(tX)), wcall("avg", f, col(tID)), wcall("count", f, col(tS)),
				wcall("sum", f, wide), wcall("avg", f, wide),
			}
		}(),
	},
	{
		name: "rows_following_and_preceding_only",
		sql: `SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING),
			first_value(id) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING),
			sum(v) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
			max(x) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING),
			count(*) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 0 FOLLOWING),
			min(s) OVER (ORDER BY id ROWS BETWEEN 5 FOLLOWING AND UNBOUNDED FOLLOWING),
			last_value(id) OVER (ORDER BY id ROWS BETWEEN 9223372036854775807 PRECEDING AND 9223372036854775807 FOLLOWING)
			FROM t ORDER BY id`,
		order: []SortKey{asc(col(tID))},
		calls: []WindowCall{
			wcall("sum", rows(fol(i8(1)), fol(i8(3))), col(tV)),
			wcall("first_value", rows(fol(i8(1)), fol(i8(3))), col(tID)),
			wcall("sum", rows(unbPre, pre(i8(1))), col(tV)),
			wcall("max", rows(unbPre, pre(i8(2))), col(tX)),
			wcall("count", rows(cur, fol(i8(0)))),
			wcall("min", rows(fol(i8(5)), unbFol), col(tS)),
			wcall("last_value", rows(pre(i8(9223372036854775807)), fol(i8(9223372036854775807))), col(tID)),
		},
	},
	{
		// Calls whose value does not depend on the order of peers.
		name: "exclude",
		sql: `SELECT id, sum(v) OVER (w RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP),
			sum(v) OVER (w GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES),
			count(*) OVER (w RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES),
			max(id) OVER (w GROUPS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE GROUP),
			min(x) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES),
			avg(d) OVER (w RANGE BETWEEN CURRENT ROW AND CURRENT ROW EXCLUDE CURRENT ROW),
			nth_value(g, 2) OVER (w RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES),
			last_value(g) OVER (w RANGE BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE GROUP),
			bool_or(b) OVER (w GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE GROUP),
			sum(x) OVER (w RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE GROUP)
			FROM t WINDOW w AS (PARTITION BY b ORDER BY g) ORDER BY b, g, id`,
		part:  []expr.Expr{col(tB)},
		order: []SortKey{asc(col(tG))},
		calls: []WindowCall{
			wcall("sum", frame(FrameRange, pre(i4(1)), fol(i4(1)), ExcludeGroup), col(tV)),
			wcall("sum", frame(FrameGroups, pre(i8(1)), fol(i8(1)), ExcludeTies), col(tV)),
			wcall("count", frame(FrameRange, unbPre, cur, ExcludeTies)),
			wcall("max", frame(FrameGroups, cur, unbFol, ExcludeGroup), col(tID)),
			wcall("min", rows(unbPre, unbFol, ExcludeTies), col(tX)),
			wcall("avg", frame(FrameRange, cur, cur, ExcludeCurrentRow), col(tD)),
			wcall("nth_value", frame(FrameRange, unbPre, unbFol, ExcludeTies), col(tG), i4(2)),
			wcall("last_value", frame(FrameRange, pre(i4(1)), cur, ExcludeGroup), col(tG)),
			wcall("bool_or", frame(FrameGroups, pre(i8(1)), cur, ExcludeGroup), col(tB)),
			wcall("sum", frame(FrameRange, unbPre, cur, ExcludeGroup), col(tX)),
		},
	},
	{
		// ROWS frames with EXCLUDE over an order without peers.
		name: "exclude_rows",
		sql: `SELECT id, sum(v) OVER (w ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW),
			first_value(id) OVER (w ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING EXCLUDE CURRENT ROW),
			last_value(id) OVER (w ROWS BETWEEN 3 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW),
			sum(d) OVER (w ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING EXCLUDE TIES),
			nth_value(id, 2) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP),
			min(x) OVER (w ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW),
			count(*) OVER (w GROUPS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE GROUP)
			FROM t WINDOW w AS (PARTITION BY b ORDER BY g, id) ORDER BY b, g, id`,
		part:  []expr.Expr{col(tB)},
		order: []SortKey{asc(col(tG)), asc(col(tID))},
		calls: []WindowCall{
			wcall("sum", rows(pre(i8(2)), fol(i8(2)), ExcludeCurrentRow), col(tV)),
			wcall("first_value", rows(cur, fol(i8(3)), ExcludeCurrentRow), col(tID)),
			wcall("last_value", rows(pre(i8(3)), cur, ExcludeCurrentRow), col(tID)),
			wcall("sum", rows(pre(i8(3)), fol(i8(3)), ExcludeTies), col(tD)),
			wcall("nth_value", rows(unbPre, unbFol, ExcludeGroup), col(tID), i4(2)),
			wcall("min", rows(pre(i8(1)), fol(i8(1)), ExcludeCurrentRow), col(tX)),
			wcall("count", frame(FrameGroups, pre(i8(2)), fol(i8(2)), ExcludeGroup)),
		},
	},
	{
		name: "range_int_offsets",
		sql: `SELECT id, sum(id) OVER (w RANGE BETWEEN 100 PRECEDING AND 50 FOLLOWING), count(*) OVER (w RANGE BETWEEN 100 PRECEDING AND 50 FOLLOWING),
			max(v) OVER (w RANGE BETWEEN CURRENT ROW AND 300 FOLLOWING), min(v) OVER (w RANGE BETWEEN 10 FOLLOWING AND 500 FOLLOWING),
			count(*) OVER (w RANGE BETWEEN UNBOUNDED PRECEDING AND 200 PRECEDING),
			count(*) OVER (w RANGE BETWEEN 9223372036854775807 PRECEDING AND 9223372036854775807 FOLLOWING),
			first_value(v) OVER (w RANGE BETWEEN 20 PRECEDING AND 20 FOLLOWING), last_value(v) OVER (w RANGE BETWEEN 0 PRECEDING AND 0 FOLLOWING)
			FROM t WINDOW w AS (ORDER BY v) ORDER BY v, id`,
		order: []SortKey{asc(col(tV))},
		calls: []WindowCall{
			wcall("sum", frame(FrameRange, pre(i8(100)), fol(i8(50))), col(tID)),
			wcall("count", frame(FrameRange, pre(i8(100)), fol(i8(50)))),
			wcall("max", frame(FrameRange, cur, fol(i8(300))), col(tV)),
			wcall("min", frame(FrameRange, fol(i8(10)), fol(i8(500))), col(tV)),
			wcall("count", frame(FrameRange, unbPre, pre(i8(200)))),
			wcall("count", frame(FrameRange, pre(i8(9223372036854775807)), fol(i8(9223372036854775807)))),
			wcall("first_value", frame(FrameRange, pre(i8(20)), fol(i8(20))), col(tV)),
			wcall("last_value", frame(FrameRange, pre(i8(0)), fol(i8(0))), col(tV)),
		},
	},
	{
		name: "range_desc_nulls_first",
		sql: `SELECT id, sum(id) OVER (w RANGE BETWEEN 100 PRECEDING AND 50 FOLLOWING), count(*) OVER (w RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING),
			max(v) OVER (w RANGE BETWEEN UNBOUNDED PRECEDING AND 300 PRECEDING), count(v) OVER (w RANGE BETWEEN 5 PRECEDING AND CURRENT ROW)
			FROM t WINDOW w AS (PARTITION BY b ORDER BY v DESC) ORDER BY b, v DESC, id`,
		part:  []expr.Expr{col(tB)},
		order: []SortKey{desc(col(tV))},
		calls: []WindowCall{
			wcall("sum", frame(FrameRange, pre(i8(100)), fol(i8(50))), col(tID)),
			wcall("count", frame(FrameRange, fol(i8(1)), unbFol)),
			wcall("max", frame(FrameRange, unbPre, pre(i8(300))), col(tV)),
			wcall("count", frame(FrameRange, pre(i8(5)), cur), col(tV)),
		},
	},
	{
		name: "range_asc_nulls_first_desc_nulls_last",
		sql: `SELECT id, count(*) OVER (PARTITION BY b ORDER BY g NULLS FIRST RANGE BETWEEN 1 PRECEDING AND CURRENT ROW),
			sum(v) OVER (PARTITION BY b ORDER BY g NULLS FIRST RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING),
			count(*) OVER (PARTITION BY b ORDER BY g NULLS FIRST RANGE BETWEEN 2 FOLLOWING AND 3 FOLLOWING)
			FROM t ORDER BY b, g NULLS FIRST, id`,
		part:  []expr.Expr{col(tB)},
		order: []SortKey{nullsFirst(asc(col(tG)))},
		calls: []WindowCall{
			wcall("count", frame(FrameRange, pre(i4(1)), cur)),
			wcall("sum", frame(FrameRange, cur, fol(i4(1))), col(tV)),
			wcall("count", frame(FrameRange, fol(i4(2)), fol(i4(3)))),
		},
	},
	{
		name: "range_desc_nulls_last",
		sql: `SELECT id, count(*) OVER (w RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING), sum(id) OVER (w RANGE BETWEEN 1 FOLLOWING AND 2 FOLLOWING)
			FROM t WINDOW w AS (ORDER BY g DESC NULLS LAST) ORDER BY g DESC NULLS LAST, id`,
		order: []SortKey{nullsLast(desc(col(tG)))},
		calls: []WindowCall{
			wcall("count", frame(FrameRange, pre(i8(1)), fol(i8(1)))),
			wcall("sum", frame(FrameRange, fol(i8(1)), fol(i8(2))), col(tID)),
		},
	},
	{
		name: "range_float_numeric",
		sql: `SELECT id, count(*) OVER (ORDER BY x RANGE BETWEEN 10.5 PRECEDING AND 3 FOLLOWING),
			sum(id) OVER (ORDER BY x DESC RANGE BETWEEN 'Infinity' PRECEDING AND 1 PRECEDING),
			count(*) OVER (ORDER BY x RANGE BETWEEN 'Infinity' PRECEDING AND 'Infinity' FOLLOWING)
			FROM t ORDER BY x, id`,
		// Three windows: buildRangeFloat chains three operators.
	},
	{
		name: "range_numeric",
		sql: `SELECT id, count(*) OVER (w RANGE BETWEEN 50.5 PRECEDING AND CURRENT ROW), sum(d) OVER (w RANGE BETWEEN 100 PRECEDING AND 100.25 FOLLOWING),
			avg(v) OVER (w RANGE BETWEEN CURRENT ROW AND 0.01 FOLLOWING)
			FROM t WINDOW w AS (ORDER BY d DESC) ORDER BY d DESC, id`,
		order: []SortKey{desc(col(tD))},
		calls: []WindowCall{
			wcall("count", frame(FrameRange, pre(num("50.5", 3, 1)), cur)),
			wcall("sum", frame(FrameRange, pre(i4(100)), fol(num("100.25", 5, 2))), col(tD)),
			wcall("avg", frame(FrameRange, cur, fol(num("0.01", 2, 2))), col(tV)),
		},
	},
	{
		name: "range_date",
		sql: `SELECT id, count(*) OVER (w RANGE BETWEEN '1 day' PRECEDING AND '2 days' FOLLOWING),
			sum(id) OVER (w RANGE BETWEEN CURRENT ROW AND '1 day' FOLLOWING)
			FROM t WINDOW w AS (ORDER BY date '2024-02-27' + g DESC) ORDER BY date '2024-02-27' + g DESC, id`,
		order: []SortKey{desc(call("+", lit(int32(19780), expr.Date), col(tG)))},
		calls: []WindowCall{
			wcall("count", frame(FrameRange, pre(i4(1)), fol(i4(2)))),
			wcall("sum", frame(FrameRange, cur, fol(i8(1))), col(tID)),
		},
	},
	{
		name: "groups",
		sql: `SELECT id, sum(v) OVER (w GROUPS BETWEEN 2 PRECEDING AND 1 PRECEDING), count(*) OVER (w GROUPS BETWEEN 1 FOLLOWING AND 5 FOLLOWING),
			max(s) OVER (w GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING), min(g) OVER (w GROUPS BETWEEN UNBOUNDED PRECEDING AND 0 PRECEDING),
			first_value(g) OVER (w GROUPS 1 PRECEDING)
			FROM t WINDOW w AS (PARTITION BY b ORDER BY g) ORDER BY b, g, id`,
		part:  []expr.Expr{col(tB)},
		order: []SortKey{asc(col(tG))},
		calls: []WindowCall{
			wcall("sum", frame(FrameGroups, pre(i8(2)), pre(i8(1))), col(tV)),
			wcall("count", frame(FrameGroups, fol(i8(1)), fol(i8(5)))),
			wcall("max", frame(FrameGroups, cur, fol(i8(1))), col(tS)),
			wcall("min", frame(FrameGroups, unbPre, pre(i8(0))), col(tG)),
			wcall("first_value", frame(FrameGroups, pre(i8(1)), cur), col(tG)),
		},
	},
	{
		name: "value_functions_default_frame",
		sql: `SELECT id, first_value(g) OVER w, last_value(g) OVER w, nth_value(g, 3) OVER w, nth_value(s, g + 1) OVER w,
			last_value(g) OVER (w RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)
			FROM t WINDOW w AS (PARTITION BY s ORDER BY g) ORDER BY s, g, id`,
		part:  []expr.Expr{col(tS)},
		order: []SortKey{asc(col(tG))},
		calls: []WindowCall{
			wcall("first_value", def, col(tG)), wcall("last_value", def, col(tG)), wcall("nth_value", def, col(tG), i4(3)),
			wcall("nth_value", frame(FrameRange, unbPre, cur), col(tS), call("+", col(tG), i4(1))),
			wcall("last_value", frame(FrameRange, cur, unbFol), col(tG)),
		},
	},
	{
		name: "whole_partition",
		sql: `SELECT id, sum(x) OVER w, min(d) OVER w, max(d) OVER w, avg(v) OVER w, last_value(id) OVER w, count(*) OVER w, sum(d / 3) OVER w
			FROM t WINDOW w AS (PARTITION BY s ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) ORDER BY s, id`,
		part:  []expr.Expr{col(tS)},
		order: []SortKey{asc(col(tID))},
		calls: []WindowCall{
			wcall("sum", whole, col(tX)), wcall("min", whole, col(tD)), wcall("max", whole, col(tD)), wcall("avg", whole, col(tV)),
			wcall("last_value", whole, col(tID)), wcall("count", whole), wcall("sum", whole, call("/", col(tD), i4(3))),
		},
	},
	{
		name: "other_aggregates",
		sql: `SELECT id, array_agg(s) OVER (w ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
			stddev(v) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), var_pop(d) OVER w,
			variance(x) FILTER (WHERE x < 1e10) OVER (w ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
			array_agg(id) FILTER (WHERE b) OVER w,
			stddev_samp(id) OVER (w GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW)
			FROM t WINDOW w AS (PARTITION BY g ORDER BY id) ORDER BY g, id`,
		part:  []expr.Expr{col(tG)},
		order: []SortKey{asc(col(tID))},
		calls: []WindowCall{
			wcall("array_agg", rows(pre(i8(1)), fol(i8(1))), col(tS)),
			wcall("stddev", whole, col(tV)),
			wcall("var_pop", def, col(tD)),
			{Fn: "variance", Args: []expr.Expr{col(tX)}, Filter: call("<", col(tX), lit(1e10, expr.Float8)), Frame: rows(pre(i8(2)), cur)},
			{Fn: "array_agg", Args: []expr.Expr{col(tID)}, Filter: col(tB), Frame: def},
			wcall("stddev_samp", frame(FrameGroups, pre(i8(1)), fol(i8(1)), ExcludeCurrentRow), col(tID)),
		},
	},
	{
		name:  "many_partitions",
		sql:   `SELECT id, row_number() OVER w, sum(v) OVER w, lag(v) OVER w, rank() OVER w FROM t WINDOW w AS (PARTITION BY id % 150, v ORDER BY x) ORDER BY id % 150, v, x, id`,
		part:  []expr.Expr{call("%", col(tID), i4(150)), col(tV)},
		order: []SortKey{asc(col(tX))},
		calls: []WindowCall{wcall("row_number", def), wcall("sum", def, col(tV)), wcall("lag", def, col(tV)), wcall("rank", def)},
	},
	{
		name:  "partition_text_order_desc_nulls_first",
		sql:   `SELECT id, row_number() OVER w, dense_rank() OVER w, sum(d) OVER w FROM t WINDOW w AS (PARTITION BY s ORDER BY x DESC, id) ORDER BY s, x DESC, id`,
		part:  []expr.Expr{col(tS)},
		order: []SortKey{desc(col(tX)), asc(col(tID))},
		calls: []WindowCall{wcall("row_number", def), wcall("dense_rank", def), wcall("sum", def, col(tD))},
	},
	{
		name:   "empty_input",
		sql:    `SELECT id, row_number() OVER w, sum(v) OVER w FROM t WHERE false WINDOW w AS (PARTITION BY g ORDER BY v)`,
		filter: lit(false, expr.Bool),
		part:   []expr.Expr{col(tG)},
		order:  []SortKey{asc(col(tV))},
		calls:  []WindowCall{wcall("row_number", def), wcall("sum", def, col(tV))},
	},
	{
		name:   "ntile_null",
		sql:    `SELECT id, ntile(NULLIF(g, 1)) OVER (PARTITION BY g ORDER BY id) FROM t WHERE g IS DISTINCT FROM 0 ORDER BY g, id`,
		filter: call("is_distinct_from", col(tG), i4(0)),
		part:   []expr.Expr{col(tG)},
		order:  []SortKey{asc(col(tID))},
		calls:  []WindowCall{wcall("ntile", def, call("nullif", col(tG), i4(1)))},
	},
	{
		name:  "error_ntile_zero",
		sql:   `SELECT id, ntile(0) OVER () FROM t`,
		calls: []WindowCall{wcall("ntile", def, i4(0))},
	},
	{
		name:  "error_nth_value_zero",
		sql:   `SELECT id, nth_value(s, g) OVER () FROM t`,
		calls: []WindowCall{wcall("nth_value", def, col(tS), col(tG))},
	},
	{
		name:   "error_rows_negative",
		sql:    `SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM t WHERE false`,
		filter: lit(false, expr.Bool),
		order:  []SortKey{asc(col(tID))},
		calls:  []WindowCall{wcall("sum", rows(pre(i8(-1)), cur), col(tV))},
	},
	{
		name:  "error_rows_null",
		sql:   `SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND NULL FOLLOWING) FROM t`,
		order: []SortKey{asc(col(tID))},
		calls: []WindowCall{wcall("sum", rows(cur, fol(lit(nil, expr.Int8))), col(tV))},
	},
	{
		name:  "error_range_negative",
		sql:   `SELECT id, sum(v) OVER (ORDER BY x RANGE BETWEEN -1.5 PRECEDING AND CURRENT ROW) FROM t`,
		order: []SortKey{asc(col(tX))},
		calls: []WindowCall{wcall("sum", frame(FrameRange, pre(lit(-1.5, expr.Float8)), cur), col(tV))},
	},
	{
		name:  "running_sum_int8_huge",
		sql:   `SELECT id, sum(v) OVER (ORDER BY id) FROM t ORDER BY id`,
		order: []SortKey{asc(col(tID))},
		calls: []WindowCall{wcall("sum", def, col(tV))},
	},
}

// buildWindowCase builds the case's plan over src: the window, then a
// projection of id and the calls' columns.
func buildWindowCase(c winCase, src engine.Operator) (engine.Operator, error) {
	in := src
	if c.filter != nil {
		f, err := NewFilter(in, c.filter)
		if err != nil {
			return nil, err
		}
		in = f
	}
	if c.name == "range_float_numeric" {
		return buildRangeFloat(in)
	}
	w, err := NewWindow(in, c.part, c.order, c.calls)
	if err != nil {
		return nil, err
	}
	outs := []expr.Expr{col(tID)}
	names := []string{"id"}
	for k := range c.calls {
		f := w.Schema().Field(tableSchema.NumFields() + k)
		outs = append(outs, &expr.Col{Idx: tableSchema.NumFields() + k, Name: f.Name, T: f.Type})
		names = append(names, fmt.Sprintf("c%d", k))
	}
	return NewProject(w, outs, names)
}

// buildRangeFloat is two windows over x one after the other (the second
// with two calls), then a sort into the SQL's order.
func buildRangeFloat(in engine.Operator) (engine.Operator, error) {
	inf := lit(posInf, expr.Float8)
	w1, err := NewWindow(in, nil, []SortKey{desc(col(tX))}, []WindowCall{
		wcall("sum", frame(FrameRange, pre(inf), pre(lit(1.0, expr.Float8))), col(tID)),
	})
	if err != nil {
		return nil, err
	}
	w2, err := NewWindow(w1, nil, []SortKey{asc(col(tX))}, []WindowCall{
		// A numeric and an integer offset over a float8 key.
		wcall("count", frame(FrameRange, pre(num("10.5", 3, 1)), fol(i4(3)))),
		wcall("count", frame(FrameRange, pre(inf), fol(inf))),
	})
	if err != nil {
		return nil, err
	}
	n := tableSchema.NumFields()
	// w2 sorted w1's output by x stably: ties keep w1's order (x DESC then
	// id), not id order, so sort by x, id once more.
	s, err := NewSort(w2, []SortKey{asc(col(tX)), asc(col(tID))})
	if err != nil {
		return nil, err
	}
	return NewProject(s, []expr.Expr{
		col(tID),
		&expr.Col{Idx: n + 1, Name: "c", T: expr.Int8},
		&expr.Col{Idx: n, Name: "s", T: expr.Int8},
		&expr.Col{Idx: n + 2, Name: "c2", T: expr.Int8},
	}, []string{"id", "c0", "c1", "c2"})
}

var posInf = func() float64 { var z float64; return 1 / z }()

func readWindowGolden(t testing.TB) map[string][]string {
	data, err := os.ReadFile("testdata/window_pg.txt")
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

// TestWindow runs every case under every batching with a checked
// allocator against PostgreSQL's rows. ICEGATE_DUMP=1 prints the cases'
// SQL for regenerating testdata/window_pg.txt.
func TestWindow(t *testing.T) {
	if os.Getenv("ICEGATE_DUMP") != "" {
		for _, c := range winCases {
			fmt.Printf("CASE\t%s\t%s\n", c.name, strings.Join(strings.Fields(c.sql), " "))
		}
		return
	}
	golden := readWindowGolden(t)
	rows := tableRows(t)
	for _, c := range winCases {
		want, ok := golden[c.name]
		if !ok {
			t.Fatalf("%s: no PostgreSQL result in testdata/window_pg.txt", c.name)
		}
		for bname, sizes := range batchSizes() {
			t.Run(c.name+"/"+bname, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				ctx := expr.WithAllocator(context.Background(), mem)
				src := NewBatches(tableSchema, makeBatches(t, mem, rows, sizes))
				op, err := buildWindowCase(c, src)
				if err != nil {
					src.Close()
					t.Fatal(err)
				}
				got, err := drainText(ctx, t, op)
				if err != nil {
					got = []string{"ERROR " + sqlstate(err)}
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("got %d rows, PostgreSQL %d\n%s", len(got), len(want), diff(got, want))
				}
			})
		}
	}
}

// TestWindowDictionary checks dictionary-encoded strings as partition
// key, order key and value (expected rows from PostgreSQL over the same
// values).
func TestWindowDictionary(t *testing.T) {
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
	s := &expr.Col{Idx: 0, Name: "s", T: dt}
	n := &expr.Col{Idx: 1, Name: "n", T: expr.Int4}
	src := NewBatches(schema, []arrow.RecordBatch{mk([]string{"b", "a", "-"}, []int32{1, 2, 3}), mk([]string{"a", "c", "b"}, []int32{4, 5, 6})})
	// SELECT s, n, row_number() OVER w, lag(s) OVER w, max(s) OVER w, first_value(s) OVER w
	// FROM (VALUES ('b',1),('a',2),(NULL,3),('a',4),('c',5),('b',6)) v(s,n)
	// WINDOW w AS (PARTITION BY s ORDER BY n DESC) ORDER BY s, n DESC
	op, err := NewWindow(src, []expr.Expr{s}, []SortKey{desc(n)}, []WindowCall{
		wcall("row_number", def), wcall("lag", def, s), wcall("max", def, s), wcall("first_value", def, s),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := op.Schema().Field(3).Type; !arrow.TypeEqual(got, arrow.BinaryTypes.String) {
		t.Errorf("lag(dictionary) type %s, want utf8", got)
	}
	got, err := drain(ctx, t, op)
	want := "a|4|1|NULL|a|a;a|2|2|a|a|a;b|6|1|NULL|b|b;b|1|2|b|b|b;c|5|1|NULL|c|c;NULL|3|1|NULL|NULL|NULL"
	if err != nil || strings.Join(got, ";") != want {
		t.Errorf("got %q, %v\nwant %s", strings.Join(got, ";"), err, want)
	}
}

// TestWindowPlanErrors checks the errors NewWindow gives for calls and
// frames PostgreSQL rejects before running.
func TestWindowPlanErrors(t *testing.T) {
	src := func() engine.Operator { return NewBatches(tableSchema, nil) }
	cases := []struct {
		name  string
		order []SortKey
		call  WindowCall
		code  string
	}{
		{"unknown function", nil, wcall("no_such_fn", def), "42883"},
		{"ntile of text", nil, wcall("ntile", def, col(tS)), "42883"},
		{"sum of text", nil, wcall("sum", def, col(tS)), "42883"},
		{"lag default of other type", nil, wcall("lag", def, col(tV), i4(1), col(tS)), "42883"},
		{"filter on ranking", nil, WindowCall{Fn: "rank", Filter: col(tB), Frame: def}, "0A000"},
		{"groups without order", nil, wcall("count", frame(FrameGroups, pre(i8(1)), cur)), "42P20"},
		{"range offset two keys", []SortKey{asc(col(tG)), asc(col(tID))}, wcall("count", frame(FrameRange, pre(i4(1)), cur)), "42P20"},
		{"start unbounded following", []SortKey{asc(col(tG))}, wcall("count", rows(unbFol, unbFol)), "42P20"},
		{"end unbounded preceding", []SortKey{asc(col(tG))}, wcall("count", rows(unbPre, unbPre)), "42P20"},
		{"current row to preceding", []SortKey{asc(col(tG))}, wcall("count", rows(cur, pre(i8(1)))), "42P20"},
		{"following to current row", []SortKey{asc(col(tG))}, wcall("count", rows(fol(i8(1)), cur)), "42P20"},
		{"range text key", []SortKey{asc(col(tS))}, wcall("count", frame(FrameRange, pre(i4(1)), cur)), "0A000"},
		{"range int key float offset", []SortKey{asc(col(tG))}, wcall("count", frame(FrameRange, pre(lit(1.5, expr.Float8)), cur)), "0A000"},
		{"range numeric key float offset", []SortKey{asc(col(tD))}, wcall("count", frame(FrameRange, pre(lit(1.5, expr.Float8)), cur)), "0A000"},
		{"rows text offset", []SortKey{asc(col(tG))}, wcall("count", rows(pre(lit("1", expr.Text)), cur)), "42804"},
		{"offset not constant", []SortKey{asc(col(tG))}, wcall("count", rows(pre(col(tV)), cur)), "42P20"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewWindow(src(), nil, c.order, []WindowCall{c.call})
			if sqlstate(err) != c.code {
				t.Errorf("error %v (SQLSTATE %q), want %s", err, sqlstate(err), c.code)
			}
		})
	}
}

// TestWindowCancel checks that a cancelled context stops the operator.
func TestWindowCancel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx, cancel := context.WithCancel(expr.WithAllocator(context.Background(), mem))
	cancel()
	src := NewBatches(tableSchema, makeBatches(t, mem, tableRows(t), []int{100}))
	op, err := NewWindow(src, []expr.Expr{col(tG)}, nil, []WindowCall{wcall("row_number", def)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drain(ctx, t, op); err != context.Canceled {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

func TestWindowResultType(t *testing.T) {
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	cases := []struct {
		fn   string
		args []arrow.DataType
		want arrow.DataType
		code string
	}{
		{"row_number", nil, expr.Int8, ""},
		{"rank", nil, expr.Int8, ""},
		{"dense_rank", nil, expr.Int8, ""},
		{"percent_rank", nil, expr.Float8, ""},
		{"cume_dist", nil, expr.Float8, ""},
		{"ntile", []arrow.DataType{expr.Int4}, expr.Int4, ""},
		{"lag", []arrow.DataType{expr.Text}, expr.Text, ""},
		{"lead", []arrow.DataType{dict, expr.Int4, arrow.Null}, expr.Text, ""},
		{"first_value", []arrow.DataType{numeric10_2}, numeric10_2, ""},
		{"nth_value", []arrow.DataType{expr.Date, expr.Int4}, expr.Date, ""},
		{"count", nil, expr.Int8, ""},
		{"count", []arrow.DataType{expr.Text}, expr.Int8, ""},
		{"sum", []arrow.DataType{expr.Int4}, expr.Int8, ""},
		{"sum", []arrow.DataType{expr.Int8}, &arrow.Decimal128Type{Precision: 38, Scale: 0}, ""},
		{"avg", []arrow.DataType{expr.Int4}, expr.NumericType(), ""},
		{"avg", []arrow.DataType{expr.Float8}, expr.Float8, ""},
		{"max", []arrow.DataType{expr.Text}, expr.Text, ""},
		{"bool_and", []arrow.DataType{expr.Bool}, expr.Bool, ""},
		{"row_number", []arrow.DataType{expr.Int4}, nil, "42883"},
		{"ntile", []arrow.DataType{expr.Float8}, nil, "42883"},
		{"nth_value", []arrow.DataType{expr.Text}, nil, "42883"},
		{"sum", []arrow.DataType{expr.Text}, nil, "42883"},
		{"no_such_fn", nil, nil, "42883"},
		{"string_agg", []arrow.DataType{expr.Text, expr.Text}, expr.Text, ""},
		{"string_agg", []arrow.DataType{expr.Text}, nil, "42883"},
		{"json_agg", []arrow.DataType{expr.Text}, nil, "42883"},
		{"stddev", []arrow.DataType{expr.Int4}, expr.NumericType(), ""},
	}
	for _, c := range cases {
		got, err := WindowResultType(c.fn, c.args)
		if sqlstate(err) != c.code || (c.code == "" && err != nil) {
			t.Errorf("%s%v: error %v, want SQLSTATE %q", c.fn, c.args, err, c.code)
			continue
		}
		if c.code == "" && !arrow.TypeEqual(got, c.want) {
			t.Errorf("%s%v = %s, want %s", c.fn, c.args, got, c.want)
		}
	}
}

// randomFloat is v scaled down, or often one of the values PostgreSQL
// orders specially: NaN (after +Infinity, equal to itself), -0 (equal to
// 0), the infinities.
func randomFloat(r *rand.Rand, v int64) float64 {
	switch r.Intn(10) {
	case 0:
		return math.NaN()
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return 0
	case 3:
		return math.Inf(1 - 2*r.Intn(2))
	}
	return float64(v) / 7
}

// randomKeyBytes is 0 to 13 characters drawn from alphabet, often behind a
// shared 7- or 8-byte prefix, so that the first 8 bytes of two values
// often tie.
func randomKeyBytes(r *rand.Rand, alphabet string) string {
	var sb strings.Builder
	switch r.Intn(3) {
	case 0:
		sb.WriteString("prefix-")
	case 1:
		sb.WriteString("prefix-x")
	}
	for range r.Intn(6) {
		sb.WriteByte(alphabet[r.Intn(len(alphabet))])
	}
	return sb.String()
}

// TestWindowSortPaths checks the packed radix sort and the integer word
// sort against the comparator sort over random keys with NULLs (integers,
// decimals within and past 64 bits, timestamps, floats with NaN, -0 and
// the infinities, text and bytea), both directions and both
// NULL placements.
func TestWindowSortPaths(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	r := rand.New(rand.NewSource(3))
	for round := 0; round < 40; round++ {
		n := 1 + r.Intn(3000)
		nkeys := 1 + r.Intn(3)
		keys := make([]arrow.Array, nkeys)
		spec := make([]SortKey, nkeys)
		for k := range keys {
			spread := int64(1) << (2 + r.Intn(20))
			if r.Intn(4) == 0 {
				spread = 1 << 62 // too wide to pack
			}
			// int8, numeric(15,2), a numeric with values past 64 bits
			// (the comparator's), timestamptz
			kind := r.Intn(8)
			var b array.Builder
			switch kind {
			case 6:
				b = array.NewFloat64Builder(mem)
			case 7:
				b = array.NewFloat32Builder(mem)
			case 4:
				b = array.NewStringBuilder(mem)
			case 5:
				b = array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
			case 0:
				b = array.NewInt64Builder(mem)
			case 1:
				b = array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 15, Scale: 2})
			case 2:
				b = array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: 0})
			default:
				b = array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
			}
			for i := 0; i < n; i++ {
				if r.Intn(7) == 0 {
					b.AppendNull()
					continue
				}
				v := r.Int63n(spread) - spread/2
				switch b := b.(type) {
				case *array.Int64Builder:
					b.Append(v)
				case *array.Decimal128Builder:
					hi := v >> 63
					if kind == 2 && r.Intn(3) == 0 {
						hi = int64(r.Intn(5)) - 2 // past 64 bits
					}
					b.Append(decimal128.New(hi, uint64(v)))
				case *array.TimestampBuilder:
					b.Append(arrow.Timestamp(v))
				case *array.Float64Builder:
					b.Append(randomFloat(r, v))
				case *array.Float32Builder:
					b.Append(float32(randomFloat(r, v)))
				case *array.StringBuilder:
					b.Append(randomKeyBytes(r, "abéz"))
				case *array.BinaryBuilder:
					b.Append([]byte(randomKeyBytes(r, "a\x00\xff")))
				}
			}
			keys[k] = b.NewArray()
			b.Release()
			spec[k] = SortKey{Desc: r.Intn(2) == 0, NullsFirst: r.Intn(2) == 0}
		}
		cmp, err := rowOrder(keys, spec)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name string, idx []int32) {
			for i := 1; i < len(idx); i++ {
				c := cmp(int(idx[i-1]), int(idx[i]))
				if c > 0 || (c == 0 && idx[i-1] > idx[i]) {
					t.Fatalf("round %d %s: rows %d, %d out of order (spec %+v)", round, name, idx[i-1], idx[i], spec)
				}
			}
		}
		ident := func() []int32 {
			idx := make([]int32, n)
			for i := range idx {
				idx[i] = int32(i)
			}
			return idx
		}
		if idx, ok := sortPacked(keys, spec, ident()); ok {
			check("packed", idx)
		}
		idx, _, _ := sortWordKeys(context.Background(), keys, spec, ident())
		check("words", idx)
		all, err := sortIndices(ctx, keys, spec)
		if err != nil {
			t.Fatal(err)
		}
		check("chosen", all)
		releaseAll(keys)
	}
}
