package exec

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
)

var _ srfGen = (*timeSeries)(nil)

// minTimestampUs is the start of PostgreSQL's timestamp range (4714-11-24
// BC) in microseconds since the Unix epoch; its end (294277-01-01) lies
// beyond int64 microseconds, so years past 294276 are checked instead.
const (
	minTimestampUs = -211813488000000000 + 946684800000000
	maxTimestampYr = 294276
)

// timeSeries is generate_series(timestamp|timestamptz, same, interval):
// each value is the previous plus the step, added as PostgreSQL adds an
// interval to a timestamp: months first (a day past the month's end
// becomes its last day), then days, then the time part. For timestamptz
// months and days move the local date in the session time zone.
type timeSeries struct {
	b         *array.TimestampBuilder
	loc       *time.Location // UTC for timestamp
	cur, stop int64
	step      arrow.MonthDayNanoInterval
	dir       int // sign of the step
	more      bool
}

func newTimeSeries(mem memory.Allocator, t arrow.DataType, tz *time.Location) *timeSeries {
	loc := time.UTC
	if t.(*arrow.TimestampType).TimeZone != "" && tz != nil {
		loc = tz
	}
	return &timeSeries{b: array.NewTimestampBuilder(mem, t.(*arrow.TimestampType)), loc: loc}
}

// intervalSign orders an interval as PostgreSQL does (a month is 30 days,
// a day 24 hours).
func intervalSign(v arrow.MonthDayNanoInterval) int {
	us := (int64(v.Months)*30+int64(v.Days))*86400_000000 + v.Nanoseconds/1000
	switch {
	case us > 0:
		return 1
	case us < 0:
		return -1
	}
	return 0
}

func (s *timeSeries) begin(args []arrow.Array, i int) error {
	s.more = false
	if anyNull(args, i) {
		return nil
	}
	s.cur = int64(args[0].(*array.Timestamp).Value(i))
	s.stop = int64(args[1].(*array.Timestamp).Value(i))
	s.step = args[2].(*array.MonthDayNanoInterval).Value(i)
	if s.dir = intervalSign(s.step); s.dir == 0 {
		return errZeroStep
	}
	s.more = true
	return nil
}

// addInterval is ts + v.
func (s *timeSeries) addInterval(ts int64, v arrow.MonthDayNanoInterval) (int64, error) {
	t := time.UnixMicro(ts).In(s.loc)
	if v.Months != 0 {
		y, m, d := t.Date()
		months := int(m) - 1 + int(v.Months)
		y += months / 12
		if months %= 12; months < 0 {
			months += 12
			y--
		}
		if last := daysIn(y, time.Month(months+1)); d > last {
			d = last
		}
		t = localTime(s.loc, y, time.Month(months+1), d, t)
	}
	if v.Days != 0 {
		y, m, d := t.Date()
		t = localTime(s.loc, y, m, d+int(v.Days), t)
	}
	if t.Year() > maxTimestampYr {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
	}
	r := t.UnixMicro() + v.Nanoseconds/1000
	if r < minTimestampUs || time.UnixMicro(r).UTC().Year() > maxTimestampYr {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
	}
	return r, nil
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func (s *timeSeries) fill(n int) (int, error) {
	k := 0
	for k < n && s.more {
		if s.dir > 0 && s.cur > s.stop || s.dir < 0 && s.cur < s.stop {
			s.more = false
			break
		}
		s.b.Append(arrow.Timestamp(s.cur))
		k++
		next, err := s.addInterval(s.cur, s.step)
		if err != nil {
			return k, err
		}
		s.cur = next
	}
	return k, nil
}

func (s *timeSeries) appendNull() { s.b.AppendNull() }

func (s *timeSeries) finish(context.Context) (arrow.Array, error) { return s.b.NewArray(), nil }

func (s *timeSeries) release() { s.b.Release() }

// localTime is the instant of a local date (normalized like time.Date)
// with the clock time of c in loc. A local time a transition skips or
// repeats resolves as PostgreSQL resolves it: in a spring-forward gap by
// the offset before the transition, in a fall-back overlap by the offset
// after it; both are the later of the candidate instants.
func localTime(loc *time.Location, y int, m time.Month, d int, c time.Time) time.Time {
	naive := time.Date(y, m, d, c.Hour(), c.Minute(), c.Second(), c.Nanosecond(), time.UTC)
	if loc == time.UTC {
		return naive
	}
	sec := naive.Unix()
	offsetAt := func(unix int64) int64 {
		_, off := time.Unix(unix, 0).In(loc).Zone()
		return int64(off)
	}
	var best, bestValid int64
	haveValid := false
	for i, off := range []int64{offsetAt(sec - 86400), offsetAt(sec), offsetAt(sec + 86400)} {
		inst := sec - off
		if i == 0 || inst > best {
			best = inst
		}
		if offsetAt(inst) == off && (!haveValid || inst > bestValid) {
			bestValid, haveValid = inst, true
		}
	}
	if haveValid {
		best = bestValid
	}
	return time.Unix(best, int64(c.Nanosecond())).In(loc)
}
