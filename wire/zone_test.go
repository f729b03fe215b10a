package wire

import (
	"testing"
	"time"
)

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

// TestTimestamptzOffsetStyle pins the two offset styles of PostgreSQL: text
// output drops zero minutes (+00), the ISO form inside jsonb keeps them
// (+00:00), as EncodeTimezone does for XSD dates.
func TestTimestamptzOffsetStyle(t *testing.T) {
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	const us = 1700000000 * 1000000 // 2023-11-14 22:13:20 UTC
	for _, tc := range []struct {
		loc  *time.Location
		sep  byte
		want string
	}{
		{time.UTC, ' ', "2023-11-14 22:13:20+00"},
		{time.UTC, 'T', "2023-11-14T22:13:20+00:00"},
		{kolkata, ' ', "2023-11-15 03:43:20+05:30"},
		{kolkata, 'T', "2023-11-15T03:43:20+05:30"},
	} {
		if got := string(appendTimestamptz(nil, us, &zoneCache{loc: tc.loc}, tc.sep)); got != tc.want {
			t.Errorf("appendTimestamptz(%s, %q) = %q, want %q", tc.loc, tc.sep, got, tc.want)
		}
	}
}
