package opt

import (
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
)

// TestDateComparisonsAgreeWithTheEngine checks the rewrite of
// date_comparisons against the engine's own evaluation: for dates around
// each constant (and NULL and the infinite dates), every comparison,
// either way round, gives what the comparison of the cast date gives.
func TestDateComparisonsAgreeWithTheEngine(t *testing.T) {
	ts := func(s string, loc *time.Location) int64 {
		v, err := time.ParseInLocation("2006-01-02 15:04:05.999999", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixMicro()
	}
	ny, _ := time.LoadLocation("America/New_York")
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	ktm, _ := time.LoadLocation("Asia/Kathmandu")
	kir, _ := time.LoadLocation("Pacific/Kiritimati")
	type constant struct {
		name     string
		us       int64
		tz       *time.Location // nil: timestamp without time zone
		rewrites bool
	}
	cases := []constant{
		{"midnight", ts("1995-01-01 00:00:00", time.UTC), nil, true},
		{"noon", ts("1995-01-01 12:00:00", time.UTC), nil, true},
		{"a microsecond before midnight", ts("1994-12-31 23:59:59.999999", time.UTC), nil, true},
		{"before the epoch", ts("1969-12-31 06:00:00", time.UTC), nil, true},
		{"far before the epoch", ts("0044-03-15 00:00:00", time.UTC), nil, true},
		{"infinity", math.MaxInt64, nil, true},
		{"-infinity", math.MinInt64, nil, true},
		{"near the end of int64", math.MaxInt64 - 1, nil, false},
		{"near the start of int64", math.MinInt64 + 1, nil, false},
		{"New York midnight", ts("1995-01-01 00:00:00", ny), ny, true},
		{"New York evening", ts("1995-01-01 20:00:00", ny), ny, true},
		{"New York summer midnight", ts("1995-07-01 00:00:00", ny), ny, true},
		{"Sao Paulo day without midnight", ts("2018-11-04 01:00:00", sp), sp, true},
		{"Sao Paulo 01:30 of it", ts("2018-11-04 01:30:00", sp), sp, true},
		{"Kathmandu midnight", ts("2000-06-01 00:00:00", ktm), ktm, true},
		{"Kiritimati 23:00", ts("2000-06-01 23:00:00", kir), kir, true},
		{"tz infinity", math.MaxInt64, ny, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			typ := expr.Timestamp
			opts := expr.CompileOptions{TimeZone: time.UTC}
			if c.tz != nil {
				typ, opts.TimeZone = expr.Timestamptz, c.tz
			}
			lit := &expr.Lit{V: c.us, T: typ}
			var dates []any
			switch c.us {
			case math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1:
				dates = []any{int32(0), int32(-1), int32(1)}
			default:
				day := int32(time.UnixMicro(c.us).UTC().Unix() / 86400)
				for d := day - 3; d <= day+3; d++ {
					dates = append(dates, d)
				}
			}
			dates = append(dates, nil, int32(math.MaxInt32), int32(math.MinInt32))
			for _, op := range []string{"=", "<>", "<", "<=", ">", ">="} {
				for _, swap := range []bool{false, true} {
					for _, d := range dates {
						cast := &expr.Cast{Arg: &expr.Lit{V: d, T: expr.Date}, T: typ}
						args := []expr.Expr{cast, lit}
						if swap {
							args = []expr.Expr{lit, cast}
						}
						orig := &expr.Call{Fn: op, Args: args, T: expr.Bool}
						rw, ok := dateComparison(orig, opts)
						if ok != c.rewrites {
							t.Fatalf("%s: rewritten = %v, want %v", orig, ok, c.rewrites)
						}
						if !ok {
							continue
						}
						want, ok1 := expr.Fold(orig, opts).(*expr.Lit)
						got, ok2 := expr.Fold(rw, opts).(*expr.Lit)
						if !ok1 || !ok2 {
							t.Fatalf("%s or %s did not evaluate", orig, rw)
						}
						if want.V != got.V {
							t.Errorf("date %v %s (swapped %v) constant %d: %s gives %v, the rewrite %s gives %v", d, op, swap, c.us, orig, want.V, rw, got.V)
						}
					}
				}
			}
		})
	}
}

// A timestamp compared with a timestamp, a date with a date, or a date
// cast to another type are not rewritten.
func TestDateComparisonsLeaveOtherComparisons(t *testing.T) {
	col := &expr.Col{Idx: 0, T: expr.Date}
	tsCol := &expr.Col{Idx: 1, T: expr.Timestamp}
	mid := &expr.Lit{V: int64(0), T: expr.Timestamp}
	for _, e := range []*expr.Call{
		{Fn: "<", Args: []expr.Expr{tsCol, mid}, T: expr.Bool},
		{Fn: "<", Args: []expr.Expr{col, &expr.Lit{V: int32(0), T: expr.Date}}, T: expr.Bool},
		{Fn: "<", Args: []expr.Expr{&expr.Cast{Arg: col, T: expr.Text}, &expr.Lit{V: "x", T: expr.Text}}, T: expr.Bool},
		{Fn: "<", Args: []expr.Expr{&expr.Cast{Arg: col, T: expr.Timestamp}, tsCol}, T: expr.Bool},
		{Fn: "is_distinct_from", Args: []expr.Expr{&expr.Cast{Arg: col, T: expr.Timestamp}, mid}, T: expr.Bool},
		{Fn: "<", Args: []expr.Expr{&expr.Cast{Arg: col, T: &arrow.TimestampType{Unit: arrow.Nanosecond}}, &expr.Lit{V: int64(0), T: &arrow.TimestampType{Unit: arrow.Nanosecond}}}, T: expr.Bool},
	} {
		if n, ok := dateComparison(e, expr.CompileOptions{}); ok {
			t.Errorf("%s was rewritten into %s", e, n)
		}
	}
}
