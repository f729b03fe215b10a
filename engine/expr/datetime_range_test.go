package expr

import (
	"errors"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestDatetimeInputRange checks that date and timestamp input outside the
// range the types hold is 22008, as in PostgreSQL, instead of wrapping
// around: timestamps end where microseconds since 1970 leave int64 (a
// little before PostgreSQL's 294277-01-01) and both types begin at Julian
// day 0, 4714-11-24 BC.
func TestDatetimeInputRange(t *testing.T) {
	cases := []struct {
		typ, in string
		ok      bool
	}{
		{"timestamp", "294247-01-10 04:00:54.775806", true},
		{"timestamp", "294247-01-10 04:00:54.775807", false},
		{"timestamp", "294247-01-10 04:00:54.775808", false},
		{"timestamp", "294276-12-31 23:59:59", false},
		{"timestamp", "294277-01-01", false},
		{"timestamp", "9999999-01-01", false},
		{"timestamp", "4714-11-24 00:00:00 BC", true},
		{"timestamp", "4714-11-23 23:59:59 BC", false},
		{"timestamptz", "294247-01-10 04:00:54.775806+00", true},
		{"timestamptz", "294247-01-10 04:00:54.775806-01", false},
		{"timestamptz", "294247-01-10 04:00:54+02", true},
		{"timestamptz", "294276-12-31 23:59:59+00", false},
		{"timestamptz", "4714-11-24 00:00:00+00 BC", true},
		{"timestamptz", "4714-11-24 00:00:00+01 BC", false},
		{"date", "5874897-12-31", true},
		{"date", "5874898-01-01", false},
		{"date", "4714-11-24 BC", true},
		{"date", "4714-11-23 BC", false},
	}
	for _, c := range cases {
		var err error
		switch c.typ {
		case "timestamp":
			_, err = parseTimestamp(c.in, false, nil)
		case "timestamptz":
			_, err = parseTimestamp(c.in, true, nil)
		case "date":
			_, err = parseDate(c.in)
		}
		if c.ok {
			if err != nil {
				t.Errorf("%s %q: %v", c.typ, c.in, err)
			}
			continue
		}
		var pe *pgerr.Error
		if !errors.As(err, &pe) || pe.Code != pgerr.DatetimeFieldOverflow {
			t.Errorf("%s %q: got %v, want 22008", c.typ, c.in, err)
		}
	}
}

// TestDateToTimestampRange checks that a date past the last timestamp does
// not wrap around when cast to timestamp or timestamptz.
func TestDateToTimestampRange(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	cases := []struct {
		date  string
		to    arrow.DataType
		want  string
		state string
	}{
		{"294247-01-10", Timestamp, "294247-01-10 00:00:00", ""},
		{"294247-01-11", Timestamp, "", pgerr.DatetimeFieldOverflow},
		{"5874897-12-31", Timestamptz, "", pgerr.DatetimeFieldOverflow},
		{"infinity", Timestamp, "infinity", ""},
	}
	for _, c := range cases {
		rows, err := render(t, mem, cast(cast(txt(c.date), Date), c.to), time.UTC)
		if c.state != "" {
			if sqlstate(err) != c.state {
				t.Errorf("%s::%s: got %v, want %s", c.date, c.to, err, c.state)
			}
			continue
		}
		if err != nil || rows[0] != c.want {
			t.Errorf("%s::%s: got %v %v, want %s", c.date, c.to, rows, err, c.want)
		}
	}
	mem.AssertSize(t, 0)
}
