package translate

import (
	"strings"
	"testing"
)

// TestExplainConstantsInSessionZone checks that EXPLAIN prints a
// timestamptz constant in the session's TimeZone, as PostgreSQL does, not
// in UTC.
func TestExplainConstantsInSessionZone(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE ez (ts timestamptz, n int)")
	cases := []struct{ zone, want string }{
		{"UTC", "(ts > '2023-12-31 22:00:00+00'::timestamp with time zone)"},
		{"Europe/Paris", "(ts > '2023-12-31 23:00:00+01'::timestamp with time zone)"},
		{"America/New_York", "(ts > '2023-12-31 17:00:00-05'::timestamp with time zone)"},
		{"Asia/Kolkata", "(ts > '2024-01-01 03:30:00+05:30'::timestamp with time zone)"},
	}
	for _, c := range cases {
		run(t, s, "SET TimeZone = '"+c.zone+"'")
		plan := strings.Join(queryRows(t, s, "EXPLAIN (COSTS OFF) SELECT * FROM ez WHERE ts > timestamptz '2024-01-01 00:00+02'"), "\n")
		if !strings.Contains(plan, c.want) {
			t.Errorf("TimeZone %s: plan\n%s\nwant filter %s", c.zone, plan, c.want)
		}
	}
}
