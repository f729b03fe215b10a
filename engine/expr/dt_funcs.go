package expr

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// The date/time functions of the family (see datetime_more.go for the
// catalogue). datetimeFuncKernel answers ok=false for names it does not
// know, and a nil kernel with ok=true for a known name with argument types
// it has no kernel for.
func datetimeFuncKernel(c *compiler, fn string, ks []kind, res arrow.DataType) (kernelFn, bool) {
	n := len(ks)
	all := func(k kind, from, to int) bool {
		for _, x := range ks[from:to] {
			if x != k {
				return false
			}
		}
		return true
	}
	switch fn {
	case "age":
		if n == 2 && ks[0] == ks[1] && (ks[0] == kTimestamp || ks[0] == kTimestamptz) {
			return ageKernel(ks[0] == kTimestamptz, c.tz), true
		}
	case "timezone":
		if n == 2 && ks[0] == kText && (ks[1] == kTimestamp || ks[1] == kTimestamptz) {
			return atTimeZoneKernel(res, ks[1] == kTimestamptz), true
		}
	case "make_date":
		if n == 3 && all(kInt4, 0, 3) {
			return makeDateKernel(), true
		}
	case "make_time":
		if n == 3 && all(kInt4, 0, 2) && ks[2] == kFloat8 {
			return makeTimeKernel(), true
		}
	case "make_timestamp", "make_timestamptz":
		if (n == 6 || n == 7 && fn == "make_timestamptz" && ks[6] == kText) && all(kInt4, 0, 5) && ks[5] == kFloat8 {
			return makeTimestampKernel(res, fn == "make_timestamptz", c.tz), true
		}
	case "make_interval":
		if n <= 7 && (n < 7 && all(kInt4, 0, n) || n == 7 && all(kInt4, 0, 6) && ks[6] == kFloat8) {
			return makeIntervalKernel(n), true
		}
	case "justify_days", "justify_hours", "justify_interval":
		if n == 1 && ks[0] == kInterval {
			switch fn {
			case "justify_days":
				return ivalMap(justifyDays), true
			case "justify_hours":
				return ivalMap(justifyHours), true
			}
			return ivalMap(justifyInterval), true
		}
	case "date_bin":
		if n == 3 && ks[0] == kInterval && ks[1] == ks[2] && (ks[1] == kTimestamp || ks[1] == kTimestamptz) {
			return dateBinKernel(res), true
		}
	case "to_char":
		if n == 2 && ks[1] == kText {
			switch {
			case ks[0] == kTimestamp || ks[0] == kTimestamptz || ks[0] == kInterval:
				return toCharTimeKernel(ks[0], c.tz), true
			case ks[0].isNumber():
				return toCharNumberKernel(), true
			}
		}
	case "to_date":
		if n == 2 && all(kText, 0, 2) {
			return toDateKernel(), true
		}
	case "to_timestamp":
		if n == 2 && all(kText, 0, 2) {
			return toTimestampKernel(c.tz), true
		}
		if n == 1 && ks[0] == kFloat8 {
			return toTimestampFloatKernel(), true
		}
	default:
		return nil, false
	}
	return nil, true
}

// ageKernel is age(a, b): the difference in years, months and days of the
// local (session TimeZone for timestamptz) fields, borrowing as
// PostgreSQL's timestamp_age does.
func ageKernel(tz bool, loc *time.Location) kernelFn {
	return dtRows[arrow.MonthDayNanoInterval](Interval, func(args []vec) rowFn[arrow.MonthDayNanoInterval] {
		a, b := dtI64(args[0]), dtI64(args[1])
		return func(i int) (arrow.MonthDayNanoInterval, error) {
			x, y := a(i), b(i)
			lx, ly := x, y
			if tz {
				lx += int64(zoneOffset(x, loc)) * usPerSec
				ly += int64(zoneOffset(y, loc)) * usPerSec
			}
			v, err := ageOf(breakDown(lx), breakDown(ly), x < y)
			return v.arrow(), err
		}
	})
}

func ageOf(t1, t2 tm, before bool) (ival, error) {
	fsec := t1.us%usPerSec - t2.us%usPerSec
	sec := t1.us/usPerSec - t2.us/usPerSec
	mi := int64(t1.mi - t2.mi)
	h := int64(t1.h - t2.h)
	d := int64(t1.d - t2.d)
	mon := int64(t1.mon - t2.mon)
	y := t1.y - t2.y
	if before {
		fsec, sec, mi, h, d, mon, y = -fsec, -sec, -mi, -h, -d, -mon, -y
	}
	for fsec < 0 {
		fsec += usPerSec
		sec--
	}
	for sec < 0 {
		sec += 60
		mi--
	}
	for mi < 0 {
		mi += 60
		h--
	}
	for h < 0 {
		h += 24
		d--
	}
	for d < 0 {
		if before {
			d += int64(daysIn(t1.y, t1.mon))
		} else {
			d += int64(daysIn(t2.y, t2.mon))
		}
		mon--
	}
	for mon < 0 {
		mon += 12
		y--
	}
	if before {
		fsec, sec, mi, h, d, mon, y = -fsec, -sec, -mi, -h, -d, -mon, -y
	}
	return ivalFrom(y*12+mon, d, ((h*60+mi)*60+sec)*usPerSec+fsec)
}

func dateFieldError(y, m, d int32) *pgerr.Error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, m, d)
}

// dtFmtG prints a float as C's "%02g".
func dtFmtG(f float64) string {
	s := strconv.FormatFloat(f, 'g', 6, 64)
	if strings.ContainsAny(s, "e") {
		// C prints e+06 where Go prints e+06 too; keep as is.
		return s
	}
	if len(s) < 2 {
		s = "0" + s
	}
	return s
}

func timeFieldError(h, m int32, s float64) *pgerr.Error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%s", h, m, dtFmtG(s))
}

// civilDays checks a year (negative = BC), month and day and returns the
// days since the epoch.
func civilDays(y, m, d int32) (int64, error) {
	if y == 0 || m < 1 || m > 12 {
		return 0, dateFieldError(y, m, d)
	}
	yy := int64(y)
	if yy < 0 {
		yy++
	}
	if d < 1 || int(d) > daysIn(yy, int(m)) {
		return 0, dateFieldError(y, m, d)
	}
	days := daysFromCivil(yy, int(m), int(d))
	if days < minDateDays || days > maxDateDays {
		return 0, dateFieldError(y, m, d)
	}
	return days, nil
}

// clockUS checks hours, minutes and fractional seconds of make_time.
func clockUS(h, m int32, s float64) (int64, error) {
	if h < 0 || m < 0 || m > 59 || math.IsNaN(s) || s < 0 || s > 60 {
		return 0, timeFieldError(h, m, s)
	}
	us := (int64(h)*60+int64(m))*60*usPerSec + int64(math.RoundToEven(s*1e6))
	if us > usPerDay {
		return 0, timeFieldError(h, m, s)
	}
	return us, nil
}

func makeDateKernel() kernelFn {
	return dtRows[int32](Date, func(args []vec) rowFn[int32] {
		y, m, d := dtI32(args[0]), dtI32(args[1]), dtI32(args[2])
		return func(i int) (int32, error) {
			days, err := civilDays(y(i), m(i), d(i))
			return int32(days), err
		}
	})
}

func makeTimeKernel() kernelFn {
	return dtRows[int64](Time, func(args []vec) rowFn[int64] {
		h, m, s := dtI32(args[0]), dtI32(args[1]), dtF64(args[2])
		return func(i int) (int64, error) { return clockUS(h(i), m(i), s(i)) }
	})
}

// makeTimestampKernel is make_timestamp and make_timestamptz (a local time
// in the session TimeZone, or in the zone of the 7th argument).
func makeTimestampKernel(res arrow.DataType, tz bool, loc *time.Location) kernelFn {
	return dtRows[int64](res, func(args []vec) rowFn[int64] {
		y, mo, d := dtI32(args[0]), dtI32(args[1]), dtI32(args[2])
		h, mi, s := dtI32(args[3]), dtI32(args[4]), dtF64(args[5])
		var zone func(i int) string
		if len(args) == 7 {
			zone = dtText(args[6])
		}
		return func(i int) (int64, error) {
			days, err := civilDays(y(i), mo(i), d(i))
			if err != nil {
				return 0, err
			}
			hh, mm, ss := h(i), mi(i), s(i)
			if hh < 0 || mm < 0 || mm > 59 || math.IsNaN(ss) || ss < 0 || ss > 60 || hh > 24 {
				return 0, timeFieldError(hh, mm, ss)
			}
			clock := (int64(hh)*60+int64(mm))*60*usPerSec + int64(math.RoundToEven(ss*1e6))
			if clock > usPerDay {
				return 0, timeFieldError(hh, mm, ss)
			}
			local := days*usPerDay + clock
			if !tz {
				return checkTS(local)
			}
			if zone != nil {
				z := zone(i)
				if off, ok := parseZone(z); ok {
					return checkTS(local - off*usPerSec)
				}
				l, err := pgtext.LoadZone(z)
				if err != nil {
					return 0, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", z)
				}
				return checkTS(localToUTC(local, l))
			}
			return checkTS(localToUTC(local, loc))
		}
	})
}

// makeIntervalKernel is make_interval(years, months, weeks, days, hours,
// mins, secs) with the first n arguments given (the rest 0).
func makeIntervalKernel(n int) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if n == 0 {
			return vec{arr: intervalConst(ev, ival{}), c: true}, nil
		}
		return dtRows[arrow.MonthDayNanoInterval](Interval, func(args []vec) rowFn[arrow.MonthDayNanoInterval] {
			ints := make([]func(int) int32, 0, 6)
			var secs func(int) float64
			for k, a := range args {
				if k == 6 {
					secs = dtF64(a)
					continue
				}
				ints = append(ints, dtI32(a))
			}
			return func(i int) (arrow.MonthDayNanoInterval, error) {
				var f [6]int64
				for k, g := range ints {
					f[k] = int64(g(i))
				}
				var s float64
				if secs != nil {
					s = secs(i)
				}
				months := f[0]*12 + f[1]
				days := f[2]*7 + f[3]
				t := float64(f[4])*3600e6 + float64(f[5])*60e6 + math.RoundToEven(s*1e6)
				if math.IsNaN(t) || math.Abs(t) > float64(maxIntervalUS) {
					return arrow.MonthDayNanoInterval{}, intervalOverflow()
				}
				us := (f[4]*3600+f[5]*60)*usPerSec + int64(math.RoundToEven(s*1e6))
				v, err := ivalFrom(months, days, us)
				return v.arrow(), err
			}
		})(ev, args)
	}
}

func intervalConst(ev *evalCtx, v ival) arrow.Array {
	buf, o := outBuf[arrow.MonthDayNanoInterval](ev.mem, 1)
	o[0] = v.arrow()
	return makeFixed(Interval, 1, nil, 0, buf)
}

// dateBinKernel is date_bin(stride, source, origin).
func dateBinKernel(res arrow.DataType) kernelFn {
	return dtRows[int64](res, func(args []vec) rowFn[int64] {
		st, src, org := dtIval(args[0]), dtI64(args[1]), dtI64(args[2])
		return func(i int) (int64, error) {
			s := st(i)
			if s.months != 0 {
				return 0, pgerr.New(pgerr.FeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
			}
			stride := int64(s.days)*usPerDay + s.us
			if stride <= 0 {
				return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "stride must be greater than zero")
			}
			t, o := src(i), org(i)
			diff := t - o
			if (o < 0 && diff < t) || (o > 0 && diff > t) {
				return 0, intervalOverflow()
			}
			delta := diff - diff%stride
			if o > t && diff%stride != 0 {
				delta -= stride
			}
			return checkTS(o + delta)
		}
	})
}

// toTimestampFloatKernel is to_timestamp(float8): seconds since the epoch.
func toTimestampFloatKernel() kernelFn {
	return dtRows[int64](Timestamptz, func(args []vec) rowFn[int64] {
		f := dtF64(args[0])
		return func(i int) (int64, error) {
			x := f(i)
			switch {
			case math.IsNaN(x):
				return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp cannot be NaN")
			case math.IsInf(x, 0):
				return 0, pgerr.Unsupported("infinite timestamps")
			}
			us := math.RoundToEven(x * 1e6)
			if us < float64(minTS) || us >= float64(endTS) {
				return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", strconv.FormatFloat(x, 'g', -1, 64))
			}
			return int64(us), nil
		}
	})
}

// intervalFields breaks an interval into PostgreSQL's interval2itm fields.
type ivFields struct {
	year, mon, day, hour, min, sec, usec int64 // usec: µs within the second
}

func ivalFields(v ival) ivFields {
	t := v.us
	h := t / (3600 * usPerSec)
	t -= h * 3600 * usPerSec
	m := t / (60 * usPerSec)
	t -= m * 60 * usPerSec
	s := t / usPerSec
	return ivFields{
		year: int64(v.months / 12), mon: int64(v.months % 12), day: int64(v.days),
		hour: h, min: m, sec: s, usec: t - s*usPerSec,
	}
}

// intervalPart is date_part / EXTRACT of an interval: the float and the
// exact decimal with its scale.
func intervalPart(unit string, v ival) (float64, decimal128.Num, int32, error) {
	f := ivalFields(v)
	whole := func(x int64) (float64, decimal128.Num, int32, error) {
		return float64(x), decimal128.FromI64(x), 0, nil
	}
	switch unit {
	case "microseconds", "microsecond", "us":
		x := f.sec*usPerSec + f.usec
		return float64(x), decimal128.FromI64(x), 0, nil
	case "milliseconds", "millisecond", "ms":
		x := f.sec*usPerSec + f.usec
		return float64(x) / 1000, decimal128.FromI64(x), 3, nil
	case "second", "seconds", "s":
		x := f.sec*usPerSec + f.usec
		return float64(x) / 1e6, decimal128.FromI64(x), 6, nil
	case "minute", "minutes", "m":
		return whole(f.min)
	case "hour", "hours", "h":
		return whole(f.hour)
	case "day", "days", "d":
		return whole(f.day)
	case "month", "months", "mon":
		return whole(f.mon)
	case "quarter":
		return whole(f.mon/3 + 1)
	case "year", "years", "y":
		return whole(f.year)
	case "decade", "decades":
		return whole(f.year / 10)
	case "century", "centuries":
		return whole(f.year / 100)
	case "millennium", "millennia":
		return whole(f.year / 1000)
	case "epoch":
		m := int64(v.months)
		fl := float64(v.us)/1e6 + 365.25*86400*float64(m/12) + 30*86400*float64(m%12) + 86400*float64(v.days)
		secs := (1461*(m/12) + 120*(m%12) + 4*int64(v.days)) * 86400 / 4
		u := decimal128.FromI64(secs).Mul(decimal128.FromI64(usPerSec)).Add(decimal128.FromI64(v.us))
		return fl, u, 6, nil
	}
	return 0, decimal128.Num{}, 0, unitError(unit, Interval)
}

func intervalPartKernel(numeric bool) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		units := newRowArgs(args[:1])
		if !numeric {
			return fixedCast[float64](Float8, func(v vec) rowFn[float64] {
				x := dtIval(v)
				return func(i int) (float64, error) {
					f, _, _, err := intervalPart(strings.ToLower(string(units.s(0, i))), x(i))
					return f, err
				}
			})(ev, twoArgs(args))
		}
		return numericRows(ev, twoArgs(args), func(v vec) func(i int) (decimal128.Num, int32, error) {
			x := dtIval(v)
			return func(i int) (decimal128.Num, int32, error) {
				_, u, s, err := intervalPart(strings.ToLower(string(units.s(0, i))), x(i))
				return u, s, err
			}
		})
	}
}

// truncIval is date_trunc(unit, interval).
func truncIval(unit string, v ival) (ival, error) {
	f := ivalFields(v)
	level := map[string]int{
		"millennium": 10, "millennia": 10, "century": 9, "centuries": 9, "decade": 8, "decades": 8,
		"year": 7, "years": 7, "y": 7, "quarter": 6, "month": 5, "months": 5, "mon": 5,
		"day": 4, "days": 4, "d": 4, "hour": 3, "hours": 3, "h": 3, "minute": 2, "minutes": 2, "m": 2,
		"second": 1, "seconds": 1, "s": 1, "milliseconds": 0, "millisecond": 0, "ms": 0,
		"microseconds": -1, "microsecond": -1, "us": -1,
	}
	l, ok := level[unit]
	if !ok {
		switch {
		case unit == "week" || unit == "weeks" || unit == "w":
			return ival{}, pgerr.New(pgerr.FeatureNotSupported, "interval units \"%s\" not supported because months usually have fractional weeks", unit)
		case knownUnit(unit) && unit != "dow" && unit != "doy" && unit != "isodow" && unit != "epoch":
			return ival{}, pgerr.New(pgerr.FeatureNotSupported, "interval units \"%s\" not supported", unit)
		}
		return ival{}, pgerr.New(pgerr.InvalidParameterValue, "interval units \"%s\" not recognized", unit)
	}
	if l >= 10 {
		f.year = f.year / 1000 * 1000
	}
	if l >= 9 {
		f.year = f.year / 100 * 100
	}
	if l >= 8 {
		f.year = f.year / 10 * 10
	}
	if l >= 7 {
		f.mon = 0
	}
	if l >= 6 {
		f.mon = 3 * (f.mon / 3)
	}
	if l >= 5 {
		f.day = 0
	}
	if l >= 4 {
		f.hour = 0
	}
	if l >= 3 {
		f.min = 0
	}
	if l >= 2 {
		f.sec = 0
	}
	if l >= 1 {
		f.usec = 0
	}
	if l == 0 {
		f.usec = f.usec / 1000 * 1000
	}
	return ivalFrom(f.year*12+f.mon, f.day, ((f.hour*60+f.min)*60+f.sec)*usPerSec+f.usec)
}

func intervalTruncKernel() kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		units := newRowArgs(args[:1])
		return fixedCast[arrow.MonthDayNanoInterval](Interval, func(v vec) rowFn[arrow.MonthDayNanoInterval] {
			x := dtIval(v)
			return func(i int) (arrow.MonthDayNanoInterval, error) {
				r, err := truncIval(strings.ToLower(string(units.s(0, i))), x(i))
				return r.arrow(), err
			}
		})(ev, twoArgs(args))
	}
}

// atTimeZoneKernel is x AT TIME ZONE zone: from a timestamptz, the wall
// clock in zone; from a timestamp, the instant its wall clock denotes in
// zone.
func atTimeZoneKernel(res arrow.DataType, fromTZ bool) kernelFn {
	return dtRows[int64](res, func(args []vec) rowFn[int64] {
		zone, ts := dtText(args[0]), dtI64(args[1])
		var lastName string
		var lastLoc *time.Location
		var lastOff int64
		lastFixed := false
		return func(i int) (int64, error) {
			z, us := zone(i), ts(i)
			if infTS(us) {
				return us, nil
			}
			if z != lastName || (lastLoc == nil && !lastFixed) {
				lastName, lastLoc, lastFixed = z, nil, false
				if off, ok := parseZone(z); ok {
					// A numeric zone is POSIX-style here, as in PostgreSQL:
					// '+02' is two hours west of UTC.
					lastOff, lastFixed = -off, true
				} else {
					l, err := pgtext.LoadZone(z)
					if err != nil {
						return 0, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" not recognized", z)
					}
					lastLoc = l
				}
			}
			if lastFixed {
				if fromTZ {
					return checkTS(us + lastOff*usPerSec)
				}
				return checkTS(us - lastOff*usPerSec)
			}
			if fromTZ {
				_, off := time.UnixMicro(us).In(lastLoc).Zone()
				return checkTS(us + int64(off)*usPerSec)
			}
			return checkTS(localToUTC(us, lastLoc))
		}
	})
}
