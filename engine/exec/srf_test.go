package exec

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// colOf is column i of op's output.
func colOf(op engine.Operator, i int) expr.Expr {
	f := op.Schema().Field(i)
	return &expr.Col{Idx: i, Name: f.Name, T: f.Type}
}

// idsBelow is SELECT cols FROM t WHERE id < n.
func idsBelow(src engine.Operator, n int32, cols ...expr.Expr) (engine.Operator, error) {
	return selectWhere(src, call("<", col(tID), i4(n)), cols...)
}

// arraysByG is SELECT g, array_agg(arg ORDER BY id) FILTER (WHERE filter) a FROM t GROUP BY g.
func arraysByG(src engine.Operator, arg, filter expr.Expr) (engine.Operator, error) {
	return NewHashAggregate(src, byG, []AggCall{{Fn: "array_agg", Arg: arg, Filter: filter, OrderBy: []SortKey{{E: col(tID)}}, Name: "a"}})
}

var srfCases = []srcCase{
	{
		name: "srf_series", ordered: true,
		sql: "SELECT id, g, s.* FROM t, generate_series(1, t.g) s WHERE id < 40",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			p, err := idsBelow(src(), 40, col(tID), col(tG))
			if err != nil {
				return nil, err
			}
			return NewTableFunc(p, "generate_series", []expr.Expr{i4(1), colOf(p, 1)}, false, false)
		},
	},
	{
		name: "srf_series_outer_ordinality", ordered: true,
		sql: "SELECT t.id, s.* FROM t LEFT JOIN LATERAL generate_series(t.g, 0, -1) WITH ORDINALITY s ON true WHERE id < 40",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			p, err := idsBelow(src(), 40, col(tID), col(tG))
			if err != nil {
				return nil, err
			}
			f, err := NewTableFunc(p, "generate_series", []expr.Expr{colOf(p, 1), i4(0), i4(-1)}, true, true)
			if err != nil {
				return nil, err
			}
			return NewProject(f, []expr.Expr{colOf(f, 0), colOf(f, 2), colOf(f, 3)}, []string{"id", "s", "o"})
		},
	},
	{
		name: "srf_series_int8", ordered: true,
		sql: "SELECT id, gs FROM t, generate_series(v, v + 2 * id, id) gs WHERE id < 10",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			p, err := idsBelow(src(), 10, col(tID), col(tV))
			if err != nil {
				return nil, err
			}
			id, v := colOf(p, 0), colOf(p, 1)
			f, err := NewTableFunc(p, "generate_series", []expr.Expr{v, call("+", v, &expr.Cast{Arg: call("*", i4(2), id), T: expr.Int8}),
				&expr.Cast{Arg: id, T: expr.Int8}}, false, false)
			if err != nil {
				return nil, err
			}
			return NewProject(f, []expr.Expr{colOf(f, 0), colOf(f, 2)}, []string{"id", "s"})
		},
	},
	{
		name: "srf_series_numeric", ordered: true,
		sql: "SELECT id, gs FROM t, generate_series(d, d + 1, 0.3) gs WHERE id < 20",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			p, err := idsBelow(src(), 20, col(tID), col(tD))
			if err != nil {
				return nil, err
			}
			d := colOf(p, 1)
			stop := &expr.Cast{Arg: call("+", d, i4(1)), T: expr.NumericType()}
			f, err := NewTableFunc(p, "generate_series", []expr.Expr{&expr.Cast{Arg: d, T: expr.NumericType()}, stop,
				lit(catalogDecimal("0.3"), &arrow.Decimal128Type{Precision: 1, Scale: 1})}, false, false)
			if err != nil {
				return nil, err
			}
			return NewProject(f, []expr.Expr{colOf(f, 0), colOf(f, 2)}, []string{"id", "s"})
		},
	},
	{
		name: "srf_unnest_ordinality",
		sql:  "SELECT g, u.* FROM (SELECT g, array_agg(s ORDER BY id) a FROM t GROUP BY g) q, unnest(q.a) WITH ORDINALITY u",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			a, err := arraysByG(src(), col(tS), nil)
			if err != nil {
				return nil, err
			}
			f, err := NewTableFunc(a, "unnest", []expr.Expr{colOf(a, 1)}, true, false)
			if err != nil {
				return nil, err
			}
			return NewProject(f, []expr.Expr{colOf(f, 0), colOf(f, 2), colOf(f, 3)}, []string{"g", "u", "o"})
		},
	},
	{
		name: "srf_unnest_outer",
		sql: `SELECT g, u.* FROM (SELECT g, array_agg(d ORDER BY id) FILTER (WHERE id < 30) a FROM t GROUP BY g) q
			LEFT JOIN LATERAL unnest(q.a) u ON true`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			a, err := arraysByG(src(), col(tD), call("<", col(tID), i4(30)))
			if err != nil {
				return nil, err
			}
			f, err := NewTableFunc(a, "unnest", []expr.Expr{colOf(a, 1)}, false, true)
			if err != nil {
				return nil, err
			}
			return NewProject(f, []expr.Expr{colOf(f, 0), colOf(f, 2)}, []string{"g", "u"})
		},
	},
	{
		name: "srf_subscripts",
		sql: `SELECT g, s.*, r.* FROM (SELECT g, array_agg(id ORDER BY id) FILTER (WHERE id < 30) a FROM t GROUP BY g) q,
			generate_subscripts(q.a, 1) s, generate_subscripts(q.a, 1, true) WITH ORDINALITY r WHERE s = r.ordinality`,
		build: func(src func() engine.Operator) (engine.Operator, error) {
			a, err := arraysByG(src(), col(tID), call("<", col(tID), i4(30)))
			if err != nil {
				return nil, err
			}
			f, err := NewTableFunc(a, "generate_subscripts", []expr.Expr{colOf(a, 1), i4(1)}, false, false)
			if err != nil {
				return nil, err
			}
			r, err := NewTableFunc(f, "generate_subscripts", []expr.Expr{colOf(f, 1), i4(1), lit(true, expr.Bool)}, true, false)
			if err != nil {
				return nil, err
			}
			w, err := NewFilter(r, call("=", &expr.Cast{Arg: colOf(r, 2), T: expr.Int8}, colOf(r, 4)))
			if err != nil {
				return nil, err
			}
			return NewProject(w, []expr.Expr{colOf(w, 0), colOf(w, 2), colOf(w, 3), colOf(w, 4)}, []string{"g", "s", "r", "o"})
		},
	},
	{
		name: "srf_subscripts_dim2",
		sql:  "SELECT g, s.* FROM (SELECT g, array_agg(id) a FROM t GROUP BY g) q, generate_subscripts(q.a, 2) s",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			a, err := arraysByG(src(), col(tID), nil)
			if err != nil {
				return nil, err
			}
			return NewTableFunc(a, "generate_subscripts", []expr.Expr{colOf(a, 1), i4(2)}, false, false)
		},
	},
	{
		name: "srf_step_zero",
		sql:  "SELECT * FROM t, generate_series(1, 5, 0) WHERE id < 3",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			f, err := NewFilter(src(), call("<", col(tID), i4(3)))
			if err != nil {
				return nil, err
			}
			return NewTableFunc(f, "generate_series", []expr.Expr{i4(1), i4(5), i4(0)}, false, false)
		},
	},
}

// oneRow is an operator with one row and no columns (FROM nothing).
func oneRow(t testing.TB) engine.Operator {
	op, err := NewValues(emptySchema, [][]expr.Expr{{}})
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func TestTableFuncEdges(t *testing.T) {
	cases := []struct {
		name string
		fn   string
		args []expr.Expr
		want string // rows joined by ";", or the first and last of many
		rows int
		code string
	}{
		{"int4 stops at the top", "generate_series", []expr.Expr{i4(2147483640), i4(2147483647), i4(3)}, "2147483640;2147483643;2147483646", 3, ""},
		{"int4 stops at the bottom", "generate_series", []expr.Expr{i4(-2147483646), i4(-2147483648), i4(-1)}, "-2147483646;-2147483647;-2147483648", 3, ""},
		{"int8 stops at the top", "generate_series", []expr.Expr{i8(9223372036854775806), i8(9223372036854775807)}, "9223372036854775806;9223372036854775807", 2, ""},
		{"empty range", "generate_series", []expr.Expr{i4(5), i4(1)}, "", 0, ""},
		{"null argument", "generate_series", []expr.Expr{i4(1), lit(nil, expr.Int4)}, "", 0, ""},
		{"million rows", "generate_series", []expr.Expr{i8(1), i8(1000000)}, "1;1000000", 1000000, ""},
		{"numeric scales", "generate_series", []expr.Expr{lit(catalogDecimal("1"), &arrow.Decimal128Type{Precision: 1, Scale: 0}),
			i4(2), lit(catalogDecimal("0.50"), &arrow.Decimal128Type{Precision: 3, Scale: 2})}, "1;1.50;2.00", 3, ""},
		{"numeric step zero", "generate_series", []expr.Expr{i4(1), i4(2), lit(catalogDecimal("0.0"), &arrow.Decimal128Type{Precision: 2, Scale: 1})}, "", 0, "22023"},
		{"timestamps without a step", "generate_series", []expr.Expr{lit(nil, expr.Timestamp), lit(nil, expr.Timestamp)}, "", 0, "42883"},
		{"text", "generate_series", []expr.Expr{txt("a"), txt("b")}, "", 0, "42883"},
		{"unknown", "generate_serie", []expr.Expr{i4(1), i4(2)}, "", 0, "42883"},
		{"unnest of a scalar", "unnest", []expr.Expr{i4(1)}, "", 0, "42883"},
		{"unnest of NULL", "unnest", []expr.Expr{lit(nil, arrow.ListOf(expr.Int4))}, "", 0, ""},
		{"outer unnest of NULL", "unnest", []expr.Expr{lit(nil, arrow.ListOf(expr.Int4))}, "NULL", 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := expr.WithAllocator(context.Background(), mem)
			in := oneRow(t)
			op, err := NewTableFunc(in, c.fn, c.args, false, strings.HasPrefix(c.name, "outer"))
			if err != nil {
				in.Close()
				if sqlstate(err) != c.code {
					t.Fatalf("NewTableFunc: %v, want SQLSTATE %q", err, c.code)
				}
				return
			}
			var got []string
			if err := op.Open(ctx); err != nil {
				t.Fatal(err)
			}
			for {
				b, err := op.Next()
				if err != nil {
					if sqlstate(err) != c.code {
						t.Errorf("Next: %v, want SQLSTATE %q", err, c.code)
					}
					break
				}
				if b == nil {
					if c.code != "" {
						t.Errorf("no error, want SQLSTATE %s", c.code)
					}
					break
				}
				if b.NumRows() > srfBatchRows || b.NumRows() == 0 {
					t.Errorf("batch of %d rows", b.NumRows())
				}
				for i := 0; i < int(b.NumRows()); i++ {
					got = append(got, cell(b.Column(0), i))
				}
			}
			if err := op.Close(); err != nil {
				t.Error(err)
			}
			if len(got) != c.rows {
				t.Errorf("%d rows, want %d", len(got), c.rows)
			}
			s := strings.Join(got, ";")
			if len(got) > 10 {
				s = got[0] + ";" + got[len(got)-1]
			}
			if s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

func TestTableFuncColumns(t *testing.T) {
	cases := []struct {
		fn   string
		args []arrow.DataType
		want string
		code string
	}{
		{"generate_series", []arrow.DataType{expr.Int4, expr.Int4}, "generate_series int32", ""},
		{"generate_series", []arrow.DataType{expr.Int2, expr.Int8, expr.Int4}, "generate_series int64", ""},
		{"generate_series", []arrow.DataType{expr.Int4, &arrow.Decimal128Type{Precision: 5, Scale: 2}}, "generate_series numeric", ""},
		{"unnest", []arrow.DataType{arrow.ListOf(expr.Text)}, "unnest utf8", ""},
		{"generate_subscripts", []arrow.DataType{arrow.ListOf(expr.Text), expr.Int4}, "generate_subscripts int32", ""},
		{"generate_subscripts", []arrow.DataType{arrow.ListOf(expr.Text)}, "", "42883"},
		{"generate_series", []arrow.DataType{expr.Timestamptz, expr.Timestamptz, expr.Text}, "", "42883"},
		{"generate_series", []arrow.DataType{expr.Timestamp, expr.Timestamptz, arrow.FixedWidthTypes.MonthDayNanoInterval}, "", "42883"},
		{"generate_series", []arrow.DataType{expr.Timestamptz, expr.Timestamptz, arrow.FixedWidthTypes.MonthDayNanoInterval}, "generate_series timestamp[us, tz=UTC]", ""},
	}
	for _, c := range cases {
		fs, err := TableFuncColumns(c.fn, c.args)
		if sqlstate(err) != c.code || c.code == "" && err != nil {
			t.Errorf("%s%v: %v, want SQLSTATE %q", c.fn, c.args, err, c.code)
			continue
		}
		if err == nil && fs[0].Name+" "+fs[0].Type.String() != c.want {
			t.Errorf("%s%v: %s %s, want %s", c.fn, c.args, fs[0].Name, fs[0].Type, c.want)
		}
	}
}

// generate_series over timestamps, against PostgreSQL (SET timezone =
// 'America/New_York' for timestamptz; values as extract(epoch) * 1e6):
// month ends, daylight saving gaps and overlaps, negative steps.
func TestTimestampSeries(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	iv := func(months, days int32, hours int64) arrow.MonthDayNanoInterval {
		return arrow.MonthDayNanoInterval{Months: months, Days: days, Nanoseconds: hours * 3600e9}
	}
	cases := []struct {
		name        string
		tz          bool
		start, stop int64
		step        arrow.MonthDayNanoInterval
		want        string
		code        string
	}{
		{"month ends", false, 1706695200000000, 1719792000000000, iv(1, 0, 0),
			"1706695200000000,1709200800000000,1711706400000000,1714384800000000,1716976800000000,1719655200000000", ""},
		{"day over a spring gap", true, 1709969400000000, 1710302400000000, iv(0, 1, 0),
			"1709969400000000,1710055800000000,1710142200000000,1710228600000000", ""},
		{"hours over a spring gap", true, 1709969400000000, 1710302400000000, iv(0, 0, 24),
			"1709969400000000,1710055800000000,1710142200000000,1710228600000000", ""},
		{"day and hour over a fall overlap", true, 1730525400000000, 1730782800000000, iv(0, 1, 1),
			"1730525400000000,1730619000000000,1730709000000000", ""},
		{"backwards", false, 1717113600000000, 1701388800000000, iv(-1, 0, -12),
			"1717113600000000,1714392000000000,1711670400000000,1709121600000000,1706400000000000,1703678400000000", ""},
		{"zero step", false, 1717113600000000, 1701388800000000, iv(1, -30, 0), "", "22023"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := expr.WithAllocator(context.Background(), mem)
			ts := expr.Timestamp
			if c.tz {
				ts = expr.Timestamptz
			}
			schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: ts}, {Name: "b", Type: ts},
				{Name: "s", Type: arrow.FixedWidthTypes.MonthDayNanoInterval}}, nil)
			rb := array.NewRecordBuilder(mem, schema)
			rb.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(c.start))
			rb.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(c.stop))
			rb.Field(2).(*array.MonthDayNanoIntervalBuilder).Append(c.step)
			src := NewBatches(schema, []arrow.RecordBatch{rb.NewRecordBatch()})
			rb.Release()
			op, err := NewTableFunc(src, "generate_series", []expr.Expr{colOf(src, 0), colOf(src, 1), colOf(src, 2)}, false, false,
				expr.CompileOptions{TimeZone: ny})
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Open(ctx); err != nil {
				t.Fatal(err)
			}
			var got []string
			for {
				b, err := op.Next()
				if err != nil {
					if sqlstate(err) != c.code || c.code == "" {
						t.Errorf("Next: %v, want SQLSTATE %q", err, c.code)
					}
					break
				}
				if b == nil {
					break
				}
				col := b.Column(3).(*array.Timestamp)
				for i := 0; i < col.Len(); i++ {
					got = append(got, strconv.FormatInt(int64(col.Value(i)), 10))
				}
			}
			if err := op.Close(); err != nil {
				t.Error(err)
			}
			if strings.Join(got, ",") != c.want {
				t.Errorf("got  %s\nwant %s", strings.Join(got, ","), c.want)
			}
		})
	}
}
