package expr

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func intervalArray(t *testing.T, mem memory.Allocator, texts ...string) arrow.Array {
	t.Helper()
	b := array.NewMonthDayNanoIntervalBuilder(mem)
	defer b.Release()
	for _, s := range texts {
		if s == "NULL" {
			b.AppendNull()
			continue
		}
		v, err := parseInterval(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		b.Append(v.arrow())
	}
	return b.NewArray()
}

// ORDER BY over intervals, as PostgreSQL 15 sorts
// unnest(array[...]::interval[]) WITH ORDINALITY by (x, ord).
func TestIntervalOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := intervalArray(t, mem, "1 day", "25 hours", "1 mon", "29 days 23:59:59", "-1 day", "0", "1 year",
		"360 days", "-1 mon 31 days", "24:00:00")
	defer a.Release()
	cmp, err := Comparator(a, a)
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, a.Len())
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return cmp(idx[x], idx[y]) < 0 })
	var got []string
	for _, i := range idx {
		got = append(got, string(AppendText(nil, a, i, nil)))
	}
	want := "-1 days | 00:00:00 | 1 day | -1 mons +31 days | 24:00:00 | 25:00:00 | 29 days 23:59:59 | 1 mon | 1 year | 360 days"
	if g := strings.Join(got, " | "); g != want {
		t.Errorf("order:\n got %s\nwant %s", g, want)
	}
}

// Gathering interval rows (sort, join and aggregate output go through it).
func TestIntervalTake(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := intervalArray(t, mem, "1 day", "NULL", "-2 hours", "1 year 2 mons")
	defer a.Release()
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int32{3, 1, 0, 2, 0}, []bool{true, true, false, true, true})
	idx := ib.NewArray()
	defer idx.Release()
	out, err := TakeArray(WithAllocator(context.Background(), mem), a, idx)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	var got []string
	for i := 0; i < out.Len(); i++ {
		if out.IsNull(i) {
			got = append(got, "NULL")
			continue
		}
		got = append(got, string(AppendText(nil, out, i, nil)))
	}
	if g, w := strings.Join(got, "|"), "1 year 2 mons|NULL|NULL|-02:00:00|1 day"; g != w {
		t.Errorf("take: got %s, want %s", g, w)
	}
	if !arrow.TypeEqual(out.DataType(), Interval) {
		t.Errorf("take: type %s", out.DataType())
	}
}

// The types PostgreSQL resolves date/time operators and functions to (as
// pg_typeof shows them), or the SQLSTATE of the error.
func TestResolveDatetime(t *testing.T) {
	cases := []struct {
		fn   string
		args []arrow.DataType
		want string
	}{
		{"+", []arrow.DataType{Date, Int2}, "date, integer -> date"},
		{"+", []arrow.DataType{Date, Int8}, "42883"},
		{"+", []arrow.DataType{Date, arrow.Null}, "42725"},
		{"-", []arrow.DataType{Date, arrow.Null}, "date, date -> integer"},
		{"-", []arrow.DataType{Date, Timestamp}, "timestamp without time zone, timestamp without time zone -> interval"},
		{"-", []arrow.DataType{Date, Timestamptz}, "timestamp with time zone, timestamp with time zone -> interval"},
		{"+", []arrow.DataType{Date, Interval}, "timestamp without time zone, interval -> timestamp without time zone"},
		{"+", []arrow.DataType{Timestamptz, arrow.Null}, "timestamp with time zone, interval -> timestamp with time zone"},
		{"-", []arrow.DataType{Timestamp, arrow.Null}, "timestamp without time zone, timestamp without time zone -> interval"},
		{"-", []arrow.DataType{Time, arrow.Null}, "time without time zone, time without time zone -> interval"},
		{"+", []arrow.DataType{Time, arrow.Null}, "time without time zone, interval -> time without time zone"},
		{"*", []arrow.DataType{Interval, &arrow.Decimal128Type{Precision: 2, Scale: 1}}, "interval, double precision -> interval"},
		{"*", []arrow.DataType{arrow.Null, Interval}, "double precision, interval -> interval"},
		{"/", []arrow.DataType{Int4, Interval}, "42883"},
		{"neg", []arrow.DataType{Interval}, "interval -> interval"},
		{"+", []arrow.DataType{Interval, Int4}, "42883"},
		{"<", []arrow.DataType{Interval, arrow.Null}, "interval, interval -> boolean"},
		{"date_part", []arrow.DataType{Text, Interval}, "text, interval -> double precision"},
		{"extract", []arrow.DataType{Text, Interval}, "text, interval -> numeric"},
		{"age", []arrow.DataType{Date, Date}, "timestamp with time zone, timestamp with time zone -> interval"},
		{"age", []arrow.DataType{Date, Timestamp}, "timestamp without time zone, timestamp without time zone -> interval"},
		{"age", []arrow.DataType{Timestamp}, "0A000"},
		{"to_char", []arrow.DataType{Date, arrow.Null}, "timestamp with time zone, text -> text"},
		{"to_char", []arrow.DataType{Bool, Text}, "42883"},
		{"make_interval", []arrow.DataType{Int4, Int4}, "integer, integer -> interval"},
		{"date_bin", []arrow.DataType{arrow.Null, Timestamp, Timestamp}, "interval, timestamp without time zone, timestamp without time zone -> timestamp without time zone"},
		{"to_timestamp", []arrow.DataType{Int8}, "double precision -> timestamp with time zone"},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s%v", c.fn, c.args)
		r, err := Resolve(c.fn, c.args)
		got := ""
		if err != nil {
			got = sqlstate(err)
		} else {
			var as []string
			for _, a := range r.Args {
				as = append(as, PGTypeName(a))
			}
			got = strings.Join(as, ", ") + " -> " + PGTypeName(r.Result)
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", name, got, c.want)
		}
	}
	if !CanCast(Time, Interval) || !CanCast(Interval, Time) || !CanCast(Text, Interval) || !CanCast(Interval, Text) || CanCast(Interval, Int4) {
		t.Errorf("CanCast among interval, time, text and int4 is wrong")
	}
}

// AddInterval steps generate_series over timestamps; PostgreSQL 15:
// SET TimeZone = 'America/New_York';
// SELECT generate_series(timestamptz '2024-03-09 12:00', '2024-03-11', '1 day')
// gives 2024-03-09 12:00:00-05, 2024-03-10 12:00:00-04.
func TestAddInterval(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skipf("time zone database lacks America/New_York: %v", err)
	}
	day, _ := parseInterval("1 day")
	mon, _ := parseInterval("1 mon")
	start, _ := parseTimestamp("2024-03-09 12:00", true, ny)
	got, err := AddInterval(start, day.arrow(), true, ny)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(AppendTimestamptz(nil, got, ny)); s != "2024-03-10 12:00:00-04" {
		t.Errorf("timestamptz + 1 day = %s", s)
	}
	jan31, _ := parseTimestamp("2024-01-31 10:00", false, nil)
	got, err = AddInterval(jan31, mon.arrow(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(AppendTimestamp(nil, got)); s != "2024-02-29 10:00:00" {
		t.Errorf("timestamp + 1 mon = %s", s)
	}
	neg, _ := parseInterval("1 mon -31 days")
	if IntervalSign(day.arrow()) != 1 || IntervalSign(neg.arrow()) != -1 || IntervalSign(arrow.MonthDayNanoInterval{}) != 0 {
		t.Errorf("IntervalSign wrong")
	}
}

// Interval expressions over a batch: a constant broadcast to every row,
// arithmetic with a column, and COALESCE/CASE gathering interval rows.
func TestIntervalOverBatch(t *testing.T) {
	cases := []struct {
		e    Expr
		want string // rows, or the SQLSTATE of the error
	}{
		// SELECT interval '1 day 02:00' FROM fx
		{ivl("1 day 02:00"), "1 day 02:00:00|1 day 02:00:00|1 day 02:00:00|1 day 02:00:00"},
		// SELECT (ts + interval '1 mon')::text FROM fx
		{cast(dcall("+", col(cTS), ivl("1 mon")), Text), "2024-03-29 13:45:30.5|1970-02-01 00:00:00|NULL|2000-02-01 23:59:59.999999"},
		// SELECT coalesce(ts - timestamp '2000-01-01', interval '0') FROM fx
		{dcall("coalesce", dcall("-", col(cTS), tsl("2000-01-01")), ivl("0")), "8825 days 13:45:30.5|-10957 days|00:00:00|23:59:59.999999"},
		// SELECT interval '1 hour' * a FROM fx: PostgreSQL gives
		// 2147483647:00:00 in the last row, beyond the ±2562047 hours
		// Arrow's nanoseconds hold.
		{dcall("*", ivl("1 hour"), col(cA)), "22008"},
		// SELECT interval '1 hour' * b FROM fx
		{dcall("*", ivl("1 hour"), col(cB)), "03:00:00|00:00:00|05:00:00|01:00:00"},
	}
	for _, c := range cases {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rows, err := render(t, mem, c.e, nil)
		got := joinRows(rows)
		if err != nil {
			got = sqlstate(err)
		}
		if got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
		mem.AssertSize(t, 0)
	}
}
