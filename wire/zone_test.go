package wire

import "testing"

// TestFixedZones uses what PostgreSQL 15 printed for 2024-01-31 12:00+00
// after SET TIME ZONE to each value (SHOW TimeZone gives the names here).
func TestFixedZones(t *testing.T) {
	cases := []struct{ zone, want string }{
		{"<+05:30>-05:30", "2024-01-31 17:30:00+05:30"},
		{"<+05>-05", "2024-01-31 17:00:00+05"},
		{"UTC+3", "2024-01-31 09:00:00-03"},
		{"-02:15", "2024-01-31 14:15:00+02:15"},
	}
	const noon = 1706702400 * microsPerSecond
	for _, tc := range cases {
		loc := parseFixedZone(tc.zone)
		if loc == nil {
			t.Errorf("%s: not parsed", tc.zone)
			continue
		}
		got := string(appendTimestamptz(nil, noon, &zoneCache{loc: loc}, ' '))
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.zone, got, tc.want)
		}
	}
	for _, bad := range []string{"", "Mars/Olympus", "<+05", "UTC+", "+123"} {
		if loc := parseFixedZone(bad); loc != nil {
			t.Errorf("%q parsed as %v", bad, loc)
		}
	}
}
