package expr

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// tzCases depend on the session TimeZone; testdata/eval_tz_pg.tsv holds
// PostgreSQL's rows per zone and expression (same query as evalCases).
var tzCases = []evalCase{
	{sql: "tz::text", e: cast(col(cTZ), Text)},
	{sql: "date_trunc('day', tz)::text", e: cast(call("date_trunc", txt("day"), col(cTZ)), Text)},
	{sql: "date_trunc('month', tz)", e: call("date_trunc", txt("month"), col(cTZ))},
	{sql: "date_part('hour', tz)", e: call("date_part", txt("hour"), col(cTZ))},
	{sql: "date_part('timezone', tz)", e: call("date_part", txt("timezone"), col(cTZ))},
	{sql: "extract(epoch from tz)", e: call("extract", txt("epoch"), col(cTZ))},
	{sql: "ts::timestamptz", e: cast(col(cTS), Timestamptz)},
	{sql: "tz::timestamp", e: cast(col(cTZ), Timestamp)},
	{sql: "tz::date", e: cast(col(cTZ), Date)},
	{sql: "tz::time", e: cast(col(cTZ), Time)},
	{sql: "dt::timestamptz", e: cast(col(cDT), Timestamptz)},
	{sql: "'2024-03-10 02:30'::timestamptz", e: cast(txt("2024-03-10 02:30"), Timestamptz)},
	{sql: "'2024-11-03 01:30'::timestamptz", e: cast(txt("2024-11-03 01:30"), Timestamptz)},
	{sql: "'2024-06-01 12:00:00+09'::timestamptz", e: cast(txt("2024-06-01 12:00:00+09"), Timestamptz)},
	{sql: "tz < '2000-01-01'::timestamp", e: call("<", col(cTZ), cast(txt("2000-01-01"), Timestamp))},
	{sql: "date_trunc('week', '2024-03-11 01:00+00'::timestamptz)", e: call("date_trunc", txt("week"), cast(txt("2024-03-11 01:00+00"), Timestamptz))},
}

var zones = []string{"UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"}

func TestTimeZone(t *testing.T) {
	dump := os.Getenv("ICEGATE_DUMP") != ""
	golden := readGolden(t, "testdata/eval_tz_pg.tsv")
	for _, z := range zones {
		loc, err := time.LoadLocation(z)
		if err != nil {
			t.Skipf("time zone database lacks %s: %v", z, err)
		}
		for _, c := range tzCases {
			t.Run(z+"/"+c.sql, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				rows, err := render(t, mem, c.e, loc)
				got, code := "", ""
				if err != nil {
					code = sqlstate(err)
				} else {
					got = joinRows(rows)
				}
				key := z + " " + c.sql
				if dump {
					fmt.Printf("CASE\t%s\t%s\t%s\n", key, got, code)
					return
				}
				want, ok := golden[key]
				if !ok {
					t.Fatalf("%s: no PostgreSQL result", key)
				}
				if got != want[0] || code != want[1] {
					t.Errorf("%s: got %q (error %s %v), PostgreSQL gives %q (error %s)", key, got, code, err, want[0], want[1])
				}
			})
		}
	}
}
