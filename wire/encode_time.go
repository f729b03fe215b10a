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

// timestamptzText is timestamptz_out in the session time zone.
func timestamptzText(unit arrow.TimeUnit, env *encodeEnv, sep byte) binder {
	z := &pgtext.ZoneCache{Loc: env.loc}
	style := dateStyle(sep)
	return func(arr arrow.Array) appendFunc {
		us := timestampMicros(arr, unit)
		return func(dst []byte, i int) []byte {
			v := us(i)
			if v == tsInfinity || v == tsMinusInfinity {
				return pgtext.AppendTimestamptz(dst, v, 0, style)
			}
			return pgtext.AppendTimestamptz(dst, v, z.Offset(v), style)
		}
	}
}
