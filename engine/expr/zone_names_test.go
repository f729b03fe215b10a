package expr

import (
	"testing"
	"time"
)

// TestZoneNames checks the zone spellings AT TIME ZONE and
// make_timestamptz look up by name (internal/pgtext.LoadZone), against
// what PostgreSQL 15 printed with TimeZone UTC: POSIX-style specs count
// hours west, abbreviations and IANA names as the zone database says.
func TestZoneNames(t *testing.T) {
	noon := tzl("2024-01-31 12:00+00")
	mk := func(zone string) Expr {
		return dcall("make_timestamptz", i4(2024), i4(1), i4(31), i4(12), i4(0), fl8(0), txt(zone))
	}
	for _, c := range []struct {
		sql  string
		e    Expr
		want string
	}{
		{"timestamptz '2024-01-31 12:00+00' AT TIME ZONE 'UTC+3'", dcall("timezone", txt("UTC+3"), noon), "2024-01-31 09:00:00"},
		{"timestamptz '2024-01-31 12:00+00' AT TIME ZONE '<+05>-05'", dcall("timezone", txt("<+05>-05"), noon), "2024-01-31 17:00:00"},
		{"timestamptz '2024-01-31 12:00+00' AT TIME ZONE 'EST'", dcall("timezone", txt("EST"), noon), "2024-01-31 07:00:00"},
		{"timestamptz '2024-01-31 12:00+00' AT TIME ZONE '+05:30:15'", dcall("timezone", txt("+05:30:15"), noon), "2024-01-31 06:29:45"},
		{"timestamptz '2024-01-31 12:00+00' AT TIME ZONE 'America/New_York'", dcall("timezone", txt("America/New_York"), noon), "2024-01-31 07:00:00"},
		{"make_timestamptz(2024, 1, 31, 12, 0, 0, 'UTC+3')", mk("UTC+3"), "2024-01-31 15:00:00+00"},
		{"make_timestamptz(2024, 1, 31, 12, 0, 0, '<+05>-05')", mk("<+05>-05"), "2024-01-31 07:00:00+00"},
		{"make_timestamptz(2024, 1, 31, 12, 0, 0, '+02')", mk("+02"), "2024-01-31 10:00:00+00"},
		{"make_timestamptz(2024, 1, 31, 12, 0, 0, 'EST')", mk("EST"), "2024-01-31 17:00:00+00"},
	} {
		got, err := evalConst(t, c.e, time.UTC)
		if err != nil || got != c.want {
			t.Errorf("%s = %q, %v; want %q", c.sql, got, err, c.want)
		}
	}
	for _, zone := range []string{"Mars/Olympus", "local", "UTC+3x"} {
		if got, err := evalConst(t, dcall("timezone", txt(zone), noon), time.UTC); sqlstate(err) != "22023" {
			t.Errorf("AT TIME ZONE %q = %q, %v; want 22023", zone, got, err)
		}
	}
}
