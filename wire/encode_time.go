package wire

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

const (
	microsPerSecond = 1_000_000
	microsPerDay    = 86_400 * microsPerSecond
	// unixToPostgresDays is 2000-01-01, PostgreSQL's epoch, in days since
	// 1970-01-01.
	unixToPostgresDays   = 10_957
	unixToPostgresMicros = unixToPostgresDays * microsPerDay
)

// Date32 values that stand for PostgreSQL's infinite dates, and Timestamp
// values for infinite timestamps.
const (
	dateInfinity       = math.MaxInt32
	dateMinusInfinity  = math.MinInt32
	tsInfinity         = math.MaxInt64
	tsMinusInfinity    = math.MinInt64
	timestampSeparator = ' '
)

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// civilFromDays converts days since 1970-01-01 to a proleptic Gregorian
// date with astronomical year numbering (0 = 1 BC).
func civilFromDays(z int64) (year int64, month, day int) {
	z += 719_468
	era := floorDiv(z, 146_097)
	doe := z - era*146_097
	yoe := (doe - doe/1460 + doe/36_524 - doe/146_096) / 365
	year = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		month = int(mp + 3)
	} else {
		month = int(mp - 9)
	}
	if month <= 2 {
		year++
	}
	return year, month, day
}

// appendYMD writes YYYY-MM-DD (year at least 4 digits, as PostgreSQL prints
// BC years: 1 BC is year 1) and reports whether the date is BC.
func appendYMD(dst []byte, days int64) ([]byte, bool) {
	year, month, day := civilFromDays(days)
	bc := year <= 0
	if bc {
		year = 1 - year
	}
	dst = appendPadded(dst, year, 4)
	dst = append(dst, '-')
	dst = append2(dst, month)
	dst = append(dst, '-')
	return append2(dst, day), bc
}

func appendPadded(dst []byte, v int64, width int) []byte {
	var tmp [20]byte
	pos := len(tmp)
	for v > 0 || pos == len(tmp) {
		pos--
		tmp[pos] = byte('0' + v%10)
		v /= 10
	}
	for k := len(tmp) - pos; k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, tmp[pos:]...)
}

func append2(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

// appendClock writes HH:MM:SS[.ffffff] for micros since midnight, with the
// trailing zeros of the fraction trimmed.
func appendClock(dst []byte, us int64) []byte {
	secs := us / microsPerSecond
	frac := us % microsPerSecond
	dst = append2(dst, int(secs/3600))
	dst = append(dst, ':')
	dst = append2(dst, int(secs/60%60))
	dst = append(dst, ':')
	dst = append2(dst, int(secs%60))
	return appendFraction(dst, frac)
}

// appendFraction writes .ffffff for a positive fraction of a second in
// microseconds, trailing zeros trimmed; nothing for zero.
func appendFraction(dst []byte, frac int64) []byte {
	if frac == 0 {
		return dst
	}
	var f [7]byte
	f[0] = '.'
	for k := 6; k >= 1; k-- {
		f[k] = byte('0' + frac%10)
		frac /= 10
	}
	n := 7
	for f[n-1] == '0' {
		n--
	}
	return append(dst, f[:n]...)
}

// appendDate is date_out with DateStyle ISO.
func appendDate(dst []byte, days int32) []byte {
	switch days {
	case dateInfinity:
		return append(dst, "infinity"...)
	case dateMinusInfinity:
		return append(dst, "-infinity"...)
	}
	dst, bc := appendYMD(dst, int64(days))
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendTimestamp is timestamp_out with DateStyle ISO; sep is ' ', or 'T'
// inside JSON.
func appendTimestamp(dst []byte, us int64, sep byte) []byte {
	switch us {
	case tsInfinity:
		return append(dst, "infinity"...)
	case tsMinusInfinity:
		return append(dst, "-infinity"...)
	}
	days := floorDiv(us, microsPerDay)
	dst, bc := appendYMD(dst, days)
	dst = append(dst, sep)
	dst = appendClock(dst, us-days*microsPerDay)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// zoneCache remembers the UTC offset of the last zone period looked up, so
// consecutive values in the same period skip the time zone database.
type zoneCache struct {
	loc        *time.Location
	start, end int64 // unix seconds, [start, end)
	offset     int64 // seconds east of UTC
	valid      bool
}

func (z *zoneCache) offsetAt(sec int64) int64 {
	if z.valid && sec >= z.start && sec < z.end {
		return z.offset
	}
	t := time.Unix(sec, 0).In(z.loc)
	_, off := t.Zone()
	start, end := t.ZoneBounds()
	z.offset, z.valid = int64(off), true
	z.start, z.end = math.MinInt64, math.MaxInt64
	if !start.IsZero() {
		z.start = start.Unix()
	}
	if !end.IsZero() {
		z.end = end.Unix()
	}
	return z.offset
}

// appendTimestamptz is timestamptz_out in the session time zone: local time
// then the offset as +HH, +HH:MM or +HH:MM:SS.
func appendTimestamptz(dst []byte, us int64, z *zoneCache, sep byte) []byte {
	switch us {
	case tsInfinity:
		return append(dst, "infinity"...)
	case tsMinusInfinity:
		return append(dst, "-infinity"...)
	}
	off := z.offsetAt(floorDiv(us, microsPerSecond))
	local := us + off*microsPerSecond
	days := floorDiv(local, microsPerDay)
	dst, bc := appendYMD(dst, days)
	dst = append(dst, sep)
	dst = appendClock(dst, local-days*microsPerDay)
	// JSON's ISO form (sep 'T') always prints the minutes of the offset,
	// as PostgreSQL's XSD style does: +00:00, not +00.
	dst = appendOffset(dst, off, sep == 'T')
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendOffset appends a UTC offset as PostgreSQL prints it: +hh, +hh:mm
// when there are minutes (or always, when withMinutes), +hh:mm:ss when there
// are seconds.
func appendOffset(dst []byte, off int64, withMinutes bool) []byte {
	if off < 0 {
		dst = append(dst, '-')
		off = -off
	} else {
		dst = append(dst, '+')
	}
	dst = append2(dst, int(off/3600))
	if m, s := off/60%60, off%60; m != 0 || s != 0 || withMinutes {
		dst = append(dst, ':')
		dst = append2(dst, int(m))
		if s != 0 {
			dst = append(dst, ':')
			dst = append2(dst, int(s))
		}
	}
	return dst
}

// toMicros converts a value of unit to microseconds, truncating
// nanoseconds toward the past so the printed fields are the value's own.
func toMicros(v int64, unit arrow.TimeUnit) int64 {
	switch unit {
	case arrow.Second:
		return v * microsPerSecond
	case arrow.Millisecond:
		return v * 1000
	case arrow.Nanosecond:
		return floorDiv(v, 1000)
	}
	return v
}

// timestampMicros returns a reader of an Arrow timestamp array in
// microseconds; infinite sentinels stay as they are.
func timestampMicros(arr arrow.Array, unit arrow.TimeUnit) func(i int) int64 {
	v := arr.(*array.Timestamp).TimestampValues()
	if unit == arrow.Microsecond {
		return func(i int) int64 { return int64(v[i]) }
	}
	return func(i int) int64 {
		x := int64(v[i])
		if x == tsInfinity || x == tsMinusInfinity {
			return x
		}
		return toMicros(x, unit)
	}
}

func bindDateText(arr arrow.Array) appendFunc {
	v := arr.(*array.Date32).Date32Values()
	return func(dst []byte, i int) []byte { return appendDate(dst, int32(v[i])) }
}

func timeText(dt arrow.DataType) binder {
	switch t := dt.(type) {
	case *arrow.Time64Type:
		unit := t.Unit
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Time64).Time64Values()
			return func(dst []byte, i int) []byte { return appendClock(dst, toMicros(int64(v[i]), unit)) }
		}
	case *arrow.Time32Type:
		unit := t.Unit
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Time32).Time32Values()
			return func(dst []byte, i int) []byte { return appendClock(dst, toMicros(int64(v[i]), unit)) }
		}
	}
	return nil
}

func timestampText(unit arrow.TimeUnit, sep byte) binder {
	return func(arr arrow.Array) appendFunc {
		us := timestampMicros(arr, unit)
		return func(dst []byte, i int) []byte { return appendTimestamp(dst, us(i), sep) }
	}
}

func timestamptzText(unit arrow.TimeUnit, env *encodeEnv, sep byte) binder {
	z := &zoneCache{loc: env.loc}
	return func(arr arrow.Array) appendFunc {
		us := timestampMicros(arr, unit)
		return func(dst []byte, i int) []byte { return appendTimestamptz(dst, us(i), z, sep) }
	}
}
