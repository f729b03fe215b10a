package expr

import "testing"

// TestDateInputIgnoresTimeAndZone checks date input with a time and/or a
// zone after the date, as PostgreSQL 15 reads them (pgJDBC's setDate
// sends "2024-02-29 +00").
func TestDateInputIgnoresTimeAndZone(t *testing.T) {
	want, err := parseDate("2024-02-29")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"2024-02-29 +00", "2024-02-29 10:00:00+02", "2024-02-29 -05:30", "2024-02-29 T10:00"} {
		got, err := parseDate(in)
		if err != nil || got != want {
			t.Errorf("date %q = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"2024-02-29 +"} {
		if _, err := parseDate(in); sqlstate(err) != "22007" {
			t.Errorf("date %q: err %v, want 22007", in, err)
		}
	}
}
