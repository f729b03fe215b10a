package expr

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// Date/time arithmetic with PostgreSQL's rules: months first (the day of
// month clamped to the month's end), then days, then the time; for
// timestamptz the months and days move the local time in the session
// TimeZone.

// dtRows is a strict kernel of any arity with a fixed-width result:
// NULL when any argument is, else mk's function of the row.
func dtRows[T any](out arrow.DataType, mk func(args []vec) rowFn[T]) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, out, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		f := mk(args)
		buf, o := outBuf[T](ev.mem, n)
		var zero T
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				o[i] = zero
				continue
			}
			v, err := f(i)
			if err != nil {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				return vec{}, err
			}
			o[i] = v
		}
		return vec{arr: makeFixed(out, n, valid, nulls, buf), c: c}, nil
	}
}

// dtTextRows is a strict kernel with a text result.
func dtTextRows(mk func(args []vec) func(dst []byte, i int) ([]byte, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Text, args), nil
		}
		n, c := outLen(ev, args)
		valid, _ := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
			defer valid.Release()
		}
		f := mk(args)
		b := array.NewStringBuilder(ev.mem)
		defer b.Release()
		b.Reserve(n)
		var buf []byte
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				b.AppendNull()
				continue
			}
			var err error
			buf, err = f(buf[:0], i)
			if err != nil {
				return vec{}, err
			}
			b.BinaryBuilder.Append(buf)
		}
		return vec{arr: b.NewArray(), c: c}, nil
	}
}

// Row readers of one argument.
func dtI64(v vec) func(i int) int64 {
	a, m := values[int64](v.arr), v.idx()
	return func(i int) int64 { return a[i&m] }
}

func dtI32(v vec) func(i int) int32 {
	a, m := values[int32](v.arr), v.idx()
	return func(i int) int32 { return a[i&m] }
}

func dtF64(v vec) func(i int) float64 {
	a, m := values[float64](v.arr), v.idx()
	return func(i int) float64 { return a[i&m] }
}

func dtIval(v vec) func(i int) ival {
	a, m := values[arrow.MonthDayNanoInterval](v.arr), v.idx()
	return func(i int) ival { return ivalOf(a[i&m]) }
}

func dtText(v vec) func(i int) string {
	s := binaryOf(v)
	return func(i int) string { return string(s.get(i)) }
}

// ivalMap is a kernel interval -> interval.
func ivalMap(f func(ival) (ival, error)) kernelFn {
	return dtRows[arrow.MonthDayNanoInterval](Interval, func(args []vec) rowFn[arrow.MonthDayNanoInterval] {
		x := dtIval(args[0])
		return func(i int) (arrow.MonthDayNanoInterval, error) {
			r, err := f(x(i))
			return r.arrow(), err
		}
	})
}

// The valid ranges of PostgreSQL's date and timestamp (Julian day 0,
// 4714-11-24 BC, to 5874897-12-31 and 294276-12-31).
var (
	minDateDays = daysFromCivil(-4713, 11, 24)
	maxDateDays = daysFromCivil(5874897, 12, 31)
	minTS       = minDateDays * usPerDay
	// PostgreSQL ends timestamps at 294277-01-01; in µs since 1970 that
	// is past the int64 range, which is the bound here.
	endTS = int64(math.MaxInt64)
)

func tsOutOfRange() *pgerr.Error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
}

func checkTS(us int64) (int64, error) {
	if us < minTS || us == endTS {
		return 0, tsOutOfRange()
	}
	return us, nil
}

// addMonthsLocal moves a local time by months, clamping the day.
func addMonthsLocal(local int64, months int32) (int64, error) {
	if months == 0 {
		return local, nil
	}
	b := breakDown(local)
	m := int64(b.mon-1) + int64(months)
	y := b.y + floorDiv(m, 12)
	mon := int(m-floorDiv(m, 12)*12) + 1
	if y < -4713 || y > 294277 {
		return 0, tsOutOfRange()
	}
	d := min(b.d, daysIn(y, mon))
	return daysFromCivil(y, mon, d)*usPerDay + (local - b.days*usPerDay), nil
}

// addIvalLocal is timestamp + interval.
func addIvalLocal(local int64, v ival) (int64, error) {
	x, err := addMonthsLocal(local, v.months)
	if err != nil {
		return 0, err
	}
	x, err = addUS(x, int64(v.days))
	if err != nil {
		return 0, err
	}
	return checkedSum(x, v.us)
}

// maxSpanDays exceeds the days between the first and the last timestamp,
// so a larger day count is out of range whatever it is added to.
const maxSpanDays = 110_000_000

// addUS adds whole days to a time in microseconds.
func addUS(x, days int64) (int64, error) {
	if days > maxSpanDays || days < -maxSpanDays {
		return 0, tsOutOfRange()
	}
	return checkedSum(x, days*usPerDay)
}

// checkedSum is x + d with int64 overflow as "timestamp out of range".
func checkedSum(x, d int64) (int64, error) {
	r := x + d
	if (d > 0 && r < x) || (d < 0 && r > x) {
		return 0, tsOutOfRange()
	}
	return checkTS(r)
}

// addIvalZoned is timestamptz + interval: months and days on the local
// time in loc, each step re-resolving the zone offset.
func addIvalZoned(inst int64, v ival, loc *time.Location) (int64, error) {
	if v.months != 0 {
		local := inst + int64(zoneOffset(inst, loc))*usPerSec
		l, err := addMonthsLocal(local, v.months)
		if err != nil {
			return 0, err
		}
		inst = localToUTC(l, loc)
	}
	if v.days != 0 {
		local, err := addUS(inst+int64(zoneOffset(inst, loc))*usPerSec, int64(v.days))
		if err != nil {
			return 0, err
		}
		inst = localToUTC(local, loc)
	}
	return checkedSum(inst, v.us)
}

func dateOutOfRange() *pgerr.Error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range")
}

func checkDate(d int64) (int32, error) {
	if d < minDateDays || d > maxDateDays {
		return 0, dateOutOfRange()
	}
	return int32(d), nil
}

// timeAddUS is time + microseconds, wrapped to a day.
func timeAddUS(t, us int64) int64 {
	r := (t + us%usPerDay) % usPerDay
	if r < 0 {
		r += usPerDay
	}
	return r
}

// datetimeOpKernel is the kernel of + - * / typed by resolveDatetimeOp.
func datetimeOpKernel(c *compiler, fn string, kl, kr kind, res arrow.DataType) (kernelFn, error) {
	bad := func() error {
		return wrongArgs(fn, []arrow.DataType{dtKindType(kl), dtKindType(kr)})
	}
	loc := c.tz
	switch fn {
	case "*", "/":
		var vi, fi int
		switch {
		case kl == kInterval && kr == kFloat8:
			vi, fi = 0, 1
		case fn == "*" && kl == kFloat8 && kr == kInterval:
			vi, fi = 1, 0
		default:
			return nil, bad()
		}
		op := mulIval
		if fn == "/" {
			op = divIval
		}
		return dtRows[arrow.MonthDayNanoInterval](Interval, func(args []vec) rowFn[arrow.MonthDayNanoInterval] {
			v, f := dtIval(args[vi]), dtF64(args[fi])
			return func(i int) (arrow.MonthDayNanoInterval, error) {
				r, err := op(v(i), f(i))
				return r.arrow(), err
			}
		}), nil
	case "+", "-":
	default:
		return nil, bad()
	}
	sub := fn == "-"
	switch {
	case kl == kDate && kr == kInt4, kl == kInt4 && kr == kDate && !sub:
		di, ni := 0, 1
		if kl == kInt4 {
			di, ni = 1, 0
		}
		return dtRows[int32](Date, func(args []vec) rowFn[int32] {
			d, x := dtI32(args[di]), dtI32(args[ni])
			return func(i int) (int32, error) {
				if infDate(d(i)) {
					return d(i), nil
				}
				if sub {
					return checkDate(int64(d(i)) - int64(x(i)))
				}
				return checkDate(int64(d(i)) + int64(x(i)))
			}
		}), nil
	case kl == kDate && kr == kDate && sub:
		return dtRows[int32](Int4, func(args []vec) rowFn[int32] {
			a, b := dtI32(args[0]), dtI32(args[1])
			return func(i int) (int32, error) {
				if infDate(a(i)) || infDate(b(i)) {
					return 0, subtractInfinite("dates")
				}
				return a(i) - b(i), nil
			}
		}), nil
	case kl == kDate && kr == kTime, kl == kTime && kr == kDate && !sub:
		di, ti := 0, 1
		if kl == kTime {
			di, ti = 1, 0
		}
		return dtRows[int64](Timestamp, func(args []vec) rowFn[int64] {
			d, t := dtI32(args[di]), dtI64(args[ti])
			return func(i int) (int64, error) {
				if infDate(d(i)) {
					return infDateTS(d(i)), nil
				}
				if sub {
					return checkTS(int64(d(i))*usPerDay - t(i))
				}
				return checkTS(int64(d(i))*usPerDay + t(i))
			}
		}), nil
	case (kl == kTimestamp || kl == kTimestamptz || kl == kTime) && kr == kInterval,
		kl == kInterval && (kr == kTimestamp || kr == kTimestamptz || kr == kTime) && !sub:
		ti, vi, k := 0, 1, kl
		if kl == kInterval {
			ti, vi, k = 1, 0, kr
		}
		return dtRows[int64](res, func(args []vec) rowFn[int64] {
			t, v := dtI64(args[ti]), dtIval(args[vi])
			return func(i int) (int64, error) {
				iv := v(i)
				if sub {
					n, err := iv.neg()
					if err != nil {
						return 0, err
					}
					iv = n
				}
				if k != kTime && infTS(t(i)) {
					return t(i), nil
				}
				switch k {
				case kTime:
					return timeAddUS(t(i), iv.us), nil
				case kTimestamptz:
					return addIvalZoned(t(i), iv, loc)
				}
				return addIvalLocal(t(i), iv)
			}
		}), nil
	case kl == kInterval && kr == kInterval:
		op := addIval
		if sub {
			op = subIval
		}
		return dtRows[arrow.MonthDayNanoInterval](Interval, func(args []vec) rowFn[arrow.MonthDayNanoInterval] {
			a, b := dtIval(args[0]), dtIval(args[1])
			return func(i int) (arrow.MonthDayNanoInterval, error) {
				r, err := op(a(i), b(i))
				return r.arrow(), err
			}
		}), nil
	case sub && kl == kr && (kl == kTimestamp || kl == kTimestamptz || kl == kTime):
		justify := kl != kTime
		return dtRows[arrow.MonthDayNanoInterval](Interval, func(args []vec) rowFn[arrow.MonthDayNanoInterval] {
			a, b := dtI64(args[0]), dtI64(args[1])
			return func(i int) (arrow.MonthDayNanoInterval, error) {
				x, y := a(i), b(i)
				if justify && (infTS(x) || infTS(y)) {
					return arrow.MonthDayNanoInterval{}, subtractInfinite("timestamps")
				}
				d := x - y
				if (y < 0 && d < x) || (y > 0 && d > x) {
					return arrow.MonthDayNanoInterval{}, intervalOverflow()
				}
				v := ival{us: d}
				if justify {
					var err error
					if v, err = justifyHours(v); err != nil {
						return arrow.MonthDayNanoInterval{}, err
					}
				}
				if v.us > maxIntervalUS || v.us < -maxIntervalUS {
					return arrow.MonthDayNanoInterval{}, intervalOverflow()
				}
				return v.arrow(), nil
			}
		}), nil
	}
	return nil, bad()
}

// dtKindType is a representative Arrow type of a kind (for messages).
func dtKindType(k kind) arrow.DataType {
	switch k {
	case kInt2:
		return Int2
	case kInt4:
		return Int4
	case kInt8:
		return Int8
	case kFloat4:
		return Float4
	case kFloat8:
		return Float8
	case kDate:
		return Date
	case kTime:
		return Time
	case kTimestamp:
		return Timestamp
	case kTimestamptz:
		return Timestamptz
	case kInterval:
		return Interval
	case kText:
		return Text
	case kBool:
		return Bool
	}
	return arrow.Null
}

// AddInterval is timestamp + interval with PostgreSQL's rules (months,
// then days, then the time), for timestamptz (tz) in loc: what
// generate_series over timestamps steps by. Values are microseconds since
// the epoch; errors are 22008.
func AddInterval(us int64, step arrow.MonthDayNanoInterval, tz bool, loc *time.Location) (int64, error) {
	if tz {
		if loc == nil {
			loc = time.UTC
		}
		return addIvalZoned(us, ivalOf(step), loc)
	}
	return addIvalLocal(us, ivalOf(step))
}

// IntervalSign is the sign of an interval in PostgreSQL's order (-1, 0,
// 1): generate_series with a zero step is an error, a negative step
// counts down.
func IntervalSign(v arrow.MonthDayNanoInterval) int {
	return cmpIval(ivalOf(v), ival{})
}
