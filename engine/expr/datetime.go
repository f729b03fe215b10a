package expr

import (
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
)

// date_trunc, date_part and EXTRACT over date, time, timestamp and
// timestamptz (the latter in the session TimeZone).

// fields of a broken-down local time.
type tm struct {
	y       int64
	mon, d  int
	h, mi   int
	us      int64 // microseconds within the minute
	days    int64 // days since epoch of the local date
	local   int64 // local µs since epoch
	instant int64 // µs since epoch (UTC) for timestamptz; = local otherwise
	offset  int   // zone offset seconds
}

func breakDown(local int64) tm {
	days := floorDiv(local, usPerDay)
	y, m, d := civil(days)
	rem := local - days*usPerDay
	h := rem / (3600 * usPerSec)
	rem -= h * 3600 * usPerSec
	mi := rem / (60 * usPerSec)
	rem -= mi * 60 * usPerSec
	return tm{y: y, mon: m, d: d, h: int(h), mi: int(mi), us: rem, days: days, local: local, instant: local}
}

// knownUnits are the date_part / EXTRACT units PostgreSQL recognizes; one
// that does not apply to the type is 0A000, an unknown one 22023.
func knownUnit(unit string) bool {
	switch unit {
	case "microseconds", "microsecond", "us", "milliseconds", "millisecond", "ms",
		"second", "seconds", "s", "minute", "minutes", "m", "hour", "hours", "h",
		"day", "days", "d", "week", "weeks", "w", "month", "months", "mon",
		"quarter", "year", "years", "y", "decade", "decades", "century", "centuries",
		"millennium", "millennia", "dow", "isodow", "doy", "isoyear", "epoch", "julian",
		"timezone", "timezone_hour", "timezone_minute":
		return true
	}
	return false
}

func unitError(unit string, t arrow.DataType) *pgerr.Error {
	if knownUnit(unit) {
		return unitUnsupported(unit, t)
	}
	return pgerr.New(pgerr.InvalidParameterValue, "unit \"%s\" not recognized for type %s", unit, PGTypeName(t))
}

func unitUnsupported(unit string, t arrow.DataType) *pgerr.Error {
	return pgerr.New(pgerr.FeatureNotSupported, "unit \"%s\" not supported for type %s", unit, PGTypeName(t))
}

// truncLocal truncates a local time to unit.
func truncLocal(local int64, unit string, t arrow.DataType) (int64, error) {
	b := breakDown(local)
	day := func(y int64, m, d int) int64 { return daysFromCivil(y, m, d) * usPerDay }
	switch unit {
	case "microseconds", "microsecond", "us":
		return local, nil
	case "milliseconds", "millisecond", "ms":
		return local - ((local%1000)+1000)%1000, nil
	case "second", "seconds", "s":
		return local - ((local%usPerSec)+usPerSec)%usPerSec, nil
	case "minute", "minutes", "m":
		return b.days*usPerDay + int64(b.h*60+b.mi)*60*usPerSec, nil
	case "hour", "hours", "h":
		return b.days*usPerDay + int64(b.h)*3600*usPerSec, nil
	case "day", "days", "d":
		return b.days * usPerDay, nil
	case "week", "weeks", "w":
		// ISO weeks start on Monday; 1970-01-01 was a Thursday.
		dow := ((b.days+3)%7 + 7) % 7 // 0 = Monday
		return (b.days - dow) * usPerDay, nil
	case "month", "months", "mon":
		return day(b.y, b.mon, 1), nil
	case "quarter":
		return day(b.y, (b.mon-1)/3*3+1, 1), nil
	case "year", "years", "y":
		return day(b.y, 1, 1), nil
	case "decade", "decades":
		y := b.y
		if y > 0 {
			y = y / 10 * 10
		} else {
			y = -((8 - (y - 1)) / 10 * 10) + 1
		}
		return day(y, 1, 1), nil
	case "century", "centuries":
		y := b.y
		if y > 0 {
			y = (y+99)/100*100 - 99
		} else {
			y = -((99 - (y - 1)) / 100 * 100) + 1
		}
		return day(y, 1, 1), nil
	case "millennium", "millennia":
		y := b.y
		if y > 0 {
			y = (y+999)/1000*1000 - 999
		} else {
			y = -((999 - (y - 1)) / 1000 * 1000) + 1
		}
		return day(y, 1, 1), nil
	}
	return 0, unitError(unit, t)
}

// dateTruncKernel is date_trunc(text, timestamp[tz]).
func dateTruncKernel(t arrow.DataType, loc *time.Location) kernelFn {
	tz := kindOf(t) == kTimestamptz
	return func(ev *evalCtx, args []vec) (vec, error) {
		units := newRowArgs(args[:1])
		return fixedCast[int64](t, func(v vec) rowFn[int64] {
			a, m := values[int64](v.arr), v.idx()
			return func(i int) (int64, error) {
				unit := strings.ToLower(string(units.s(0, i)))
				x := a[i&m]
				if infTS(x) {
					return x, nil
				}
				if !tz {
					return truncLocal(x, unit, t)
				}
				off := zoneOffset(x, loc)
				r, err := truncLocal(x+int64(off)*usPerSec, unit, t)
				if err != nil {
					return 0, err
				}
				return localToUTC(r, loc), nil
			}
		})(ev, twoArgs(args))
	}
}

// twoArgs moves the value argument first (with the unit's validity
// folded in) so fixedCast reads it as args[0].
func twoArgs(args []vec) []vec {
	return []vec{args[1], args[0]}
}

// partValue computes a date_part field as float and as an exact decimal
// with EXTRACT's scale.
func partValue(unit string, b tm, t arrow.DataType, isDate bool) (float64, decimal128.Num, int32, error) {
	secUS := b.us // µs within the minute
	ival := func(v int64) (float64, decimal128.Num, int32, error) {
		return float64(v), decimal128.FromI64(v), 0, nil
	}
	k := kindOf(t)
	timeOnly := k == kTime
	switch unit {
	case "microseconds", "microsecond", "us":
		if isDate {
			return 0, decimal128.Num{}, 0, unitUnsupported(unit, Date)
		}
		return ival(secUS)
	case "milliseconds", "millisecond", "ms":
		if isDate {
			return 0, decimal128.Num{}, 0, unitUnsupported(unit, Date)
		}
		return float64(secUS) / 1000, decimal128.FromI64(secUS), 3, nil
	case "second", "seconds", "s":
		if isDate {
			return 0, decimal128.Num{}, 0, unitUnsupported(unit, Date)
		}
		return float64(secUS) / 1e6, decimal128.FromI64(secUS), 6, nil
	case "minute", "minutes", "m":
		if isDate {
			return 0, decimal128.Num{}, 0, unitUnsupported(unit, Date)
		}
		return ival(int64(b.mi))
	case "hour", "hours", "h":
		if isDate {
			return 0, decimal128.Num{}, 0, unitUnsupported(unit, Date)
		}
		return ival(int64(b.h))
	case "epoch":
		var us int64
		switch {
		case timeOnly:
			us = b.local
		default:
			us = b.instant
		}
		if isDate {
			return ival(floorDiv(us, usPerSec))
		}
		return float64(us) / 1e6, decimal128.FromI64(us), 6, nil
	case "timezone":
		if k == kTimestamptz {
			return ival(int64(b.offset))
		}
	case "timezone_hour":
		if k == kTimestamptz {
			return ival(int64(b.offset / 3600))
		}
	case "timezone_minute":
		if k == kTimestamptz {
			return ival(int64(b.offset % 3600 / 60))
		}
	}
	if timeOnly {
		return 0, decimal128.Num{}, 0, unitError(unit, t)
	}
	switch unit {
	case "day", "days", "d":
		return ival(int64(b.d))
	case "month", "months", "mon":
		return ival(int64(b.mon))
	case "quarter":
		return ival(int64((b.mon-1)/3 + 1))
	case "year", "years", "y":
		if b.y <= 0 {
			return ival(b.y - 1)
		}
		return ival(b.y)
	case "decade", "decades":
		if b.y <= 0 {
			return ival(-((8 - (b.y - 1)) / 10))
		}
		return ival(b.y / 10)
	case "century", "centuries":
		if b.y <= 0 {
			return ival(-((99 - (b.y - 1)) / 100))
		}
		return ival((b.y + 99) / 100)
	case "millennium", "millennia":
		if b.y <= 0 {
			return ival(-((999 - (b.y - 1)) / 1000))
		}
		return ival((b.y + 999) / 1000)
	case "dow":
		return ival(((b.days+4)%7 + 7) % 7)
	case "isodow":
		d := ((b.days+3)%7+7)%7 + 1
		return ival(d)
	case "doy":
		return ival(b.days - daysFromCivil(b.y, 1, 1) + 1)
	case "week":
		_, w := isoWeek(b)
		return ival(int64(w))
	case "isoyear":
		y, _ := isoWeek(b)
		if y <= 0 {
			return ival(y - 1)
		}
		return ival(y)
	case "julian":
		jd := b.days + 2440588
		if isDate {
			return ival(jd)
		}
		// EXTRACT(julian) is the day number plus the fraction of the day
		// as a numeric division (its scale follows select_div_scale).
		frac := b.local - b.days*usPerDay
		f := float64(jd) + float64(frac)/float64(usPerDay)
		q, rs, err := decDiv(decimal128.FromI64(frac), 0, decimal128.FromI64(usPerDay), 0)
		if err != nil {
			return f, q, rs, err
		}
		r, ok := decAdd(decimal128.FromI64(jd).Mul(pow10(rs)), q)
		if !ok {
			return f, r, rs, errNumOver
		}
		return f, r, rs, nil
	}
	return 0, decimal128.Num{}, 0, unitError(unit, t)
}

func isoWeek(b tm) (int64, int) {
	// Go's ISOWeek on the local date (proleptic Gregorian via time.Date).
	y, w := time.Date(int(b.y), time.Month(b.mon), b.d, 12, 0, 0, 0, time.UTC).ISOWeek()
	return int64(y), w
}

// datePartKernel is date_part (float8) or extract (NumericType).
func datePartKernel(t arrow.DataType, numeric bool, loc *time.Location) kernelFn {
	k := kindOf(t)
	return func(ev *evalCtx, args []vec) (vec, error) {
		units := newRowArgs(args[:1])
		if hasInfinite(args[1], k) {
			return vec{}, infiniteUnsupported("EXTRACT")
		}
		var get func(v vec) func(i int) tm
		switch k {
		case kDate:
			get = func(v vec) func(i int) tm {
				a, m := values[int32](v.arr), v.idx()
				return func(i int) tm {
					b := breakDown(int64(a[i&m]) * usPerDay)
					return b
				}
			}
		case kTime:
			get = func(v vec) func(i int) tm {
				a, m := values[int64](v.arr), v.idx()
				return func(i int) tm { b := breakDown(a[i&m]); return b }
			}
		default:
			get = func(v vec) func(i int) tm {
				a, m := values[int64](v.arr), v.idx()
				return func(i int) tm {
					x := a[i&m]
					if k != kTimestamptz {
						return breakDown(x)
					}
					off := zoneOffset(x, loc)
					b := breakDown(x + int64(off)*usPerSec)
					b.instant, b.offset = x, off
					return b
				}
			}
		}
		if !numeric {
			return fixedCast[float64](Float8, func(v vec) rowFn[float64] {
				g := get(v)
				return func(i int) (float64, error) {
					f, _, _, err := partValue(strings.ToLower(string(units.s(0, i))), g(i), t, false)
					return f, err
				}
			})(ev, twoArgs(args))
		}
		return numericRows(ev, twoArgs(args), func(v vec) func(i int) (decimal128.Num, int32, error) {
			g := get(v)
			return func(i int) (decimal128.Num, int32, error) {
				_, u, s, err := partValue(strings.ToLower(string(units.s(0, i))), g(i), t, k == kDate)
				return u, s, err
			}
		})
	}
}

// numericRows is a strict per-row kernel producing NumericType.
func numericRows(ev *evalCtx, args []vec, mk func(v vec) func(i int) (decimal128.Num, int32, error)) (vec, error) {
	if constNull(args) {
		return nullResult(ev, NumericType(), args), nil
	}
	n, c := outLen(ev, args)
	valid, nulls := andValidity(ev.mem, n, args)
	vb := bitmap{m: -1}
	if valid != nil {
		vb.b = valid.Bytes()
	}
	f := mk(args[0])
	out := newDecOut(ev.mem, NumericType(), n)
	for i := 0; i < n; i++ {
		if !vb.valid(i) {
			out.zero(i)
			continue
		}
		u, s, err := f(i)
		if err == nil {
			err = out.set(i, u, s)
		}
		if err != nil {
			out.release()
			if valid != nil {
				valid.Release()
			}
			return vec{}, err
		}
	}
	return vec{arr: out.finish(n, valid, nulls), c: c}, nil
}
