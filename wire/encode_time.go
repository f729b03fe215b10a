package wire

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgtext"
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
	dateInfinity      = pgtext.DateInfinity
	dateMinusInfinity = pgtext.DateMinusInfinity
	tsInfinity        = pgtext.TSInfinity
	tsMinusInfinity   = pgtext.TSMinusInfinity
)

// toMicros converts a value of unit to microseconds, truncating
// nanoseconds toward the past so the printed fields are the value's own.
func toMicros(v int64, unit arrow.TimeUnit) int64 {
	switch unit {
	case arrow.Second:
		return v * microsPerSecond
	case arrow.Millisecond:
		return v * 1000
	case arrow.Nanosecond:
		return pgtext.FloorDiv(v, 1000)
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
	return func(dst []byte, i int) []byte { return pgtext.AppendDate(dst, int32(v[i])) }
}

func timeText(dt arrow.DataType) binder {
	switch t := dt.(type) {
	case *arrow.Time64Type:
		unit := t.Unit
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Time64).Time64Values()
			return func(dst []byte, i int) []byte { return pgtext.AppendTime(dst, toMicros(int64(v[i]), unit)) }
		}
	case *arrow.Time32Type:
		unit := t.Unit
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Time32).Time32Values()
			return func(dst []byte, i int) []byte { return pgtext.AppendTime(dst, toMicros(int64(v[i]), unit)) }
		}
	}
	return nil
}

// dateStyle is the style of timestamps by their separator: ' ' for the
// text format, 'T' inside JSON.
func dateStyle(sep byte) pgtext.DateStyle {
	if sep == 'T' {
		return pgtext.XSD
	}
	return pgtext.ISO
}

func timestampText(unit arrow.TimeUnit, sep byte) binder {
	style := dateStyle(sep)
	return func(arr arrow.Array) appendFunc {
		us := timestampMicros(arr, unit)
		return func(dst []byte, i int) []byte { return pgtext.AppendTimestamp(dst, us(i), style) }
	}
}

// timestamptzText is timestamptz_out in the session time zone. Values of a
// column tend to share days and offsets with their neighbours, so the text
// of the last local date and of the last offset is kept and reused.
func timestamptzText(unit arrow.TimeUnit, env *encodeEnv, sep byte) binder {
	style := dateStyle(sep)
	return func(arr arrow.Array) appendFunc {
		us := timestampMicros(arr, unit)
		c := &tstzCache{zone: pgtext.ZoneCache{Loc: env.loc}, style: style, sep: sep}
		return func(dst []byte, i int) []byte { return c.append(dst, us(i)) }
	}
}

// tstzCache formats timestamptz values, keeping the text of the last date
// ("YYYY-MM-DD" and the separator) and of the last UTC offset.
type tstzCache struct {
	zone  pgtext.ZoneCache
	style pgtext.DateStyle
	sep   byte

	haveDay bool
	day     int64 // local days since 1970-01-01 of date
	bc      bool
	date    []byte

	haveOff bool
	off     int
	offText []byte
}

func (c *tstzCache) append(dst []byte, v int64) []byte {
	if v == tsInfinity || v == tsMinusInfinity {
		return pgtext.AppendTimestamptz(dst, v, 0, c.style)
	}
	off := c.zone.Offset(v)
	local := v + int64(off)*microsPerSecond
	days := pgtext.FloorDiv(local, microsPerDay)
	if !c.haveDay || days != c.day {
		y, m, d := pgtext.Civil(days)
		c.date, c.bc = pgtext.AppendYMD(c.date[:0], y, m, d)
		c.date = append(c.date, c.sep)
		c.day, c.haveDay = days, true
	}
	if !c.haveOff || off != c.off {
		c.offText = pgtext.AppendOffset(c.offText[:0], off, c.style)
		c.off, c.haveOff = off, true
	}
	dst = append(dst, c.date...)
	dst = pgtext.AppendTime(dst, local-days*microsPerDay)
	dst = append(dst, c.offText...)
	if c.bc {
		dst = append(dst, " BC"...)
	}
	return dst
}
