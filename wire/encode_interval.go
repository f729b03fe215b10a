package wire

import (
	"encoding/binary"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// interval is PostgreSQL's interval: months, days and microseconds, each
// signed independently.
type interval struct {
	months, days int32
	micros       int64
}

// intervalReader reads Arrow interval arrays (month-day-nano, day-time,
// months) as PostgreSQL intervals; nanoseconds are truncated to micros.
func intervalReader(dt arrow.DataType) func(arrow.Array) func(int) interval {
	switch dt.ID() {
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return func(arr arrow.Array) func(int) interval {
			v := arr.(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
			return func(i int) interval {
				return interval{months: v[i].Months, days: v[i].Days, micros: v[i].Nanoseconds / 1000}
			}
		}
	case arrow.INTERVAL_DAY_TIME:
		return func(arr arrow.Array) func(int) interval {
			v := arr.(*array.DayTimeInterval).DayTimeIntervalValues()
			return func(i int) interval { return interval{days: v[i].Days, micros: int64(v[i].Milliseconds) * 1000} }
		}
	case arrow.INTERVAL_MONTHS:
		return func(arr arrow.Array) func(int) interval {
			v := arr.(*array.MonthInterval).MonthIntervalValues()
			return func(i int) interval { return interval{months: int32(v[i])} }
		}
	}
	return nil
}

func intervalText(dt arrow.DataType) binder {
	read := intervalReader(dt)
	if read == nil {
		return nil
	}
	return func(arr arrow.Array) appendFunc {
		v := read(arr)
		return func(dst []byte, i int) []byte { return appendInterval(dst, v(i)) }
	}
}

func intervalBinary(dt arrow.DataType) binder {
	read := intervalReader(dt)
	if read == nil {
		return nil
	}
	return func(arr arrow.Array) appendFunc {
		v := read(arr)
		return func(dst []byte, i int) []byte {
			iv := v(i)
			dst = binary.BigEndian.AppendUint64(dst, uint64(iv.micros))
			dst = binary.BigEndian.AppendUint32(dst, uint32(iv.days))
			return binary.BigEndian.AppendUint32(dst, uint32(iv.months))
		}
	}
}

// appendInterval is interval_out with IntervalStyle postgres:
// "1 year 2 mons -3 days +04:05:06.5". After a negative field, positive
// fields carry an explicit '+'.
func appendInterval(dst []byte, iv interval) []byte {
	isZero, isBefore := true, false
	part := func(value int64, unit string) {
		if value == 0 {
			return
		}
		if !isZero {
			dst = append(dst, ' ')
		}
		if isBefore && value > 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, value, 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if value != 1 {
			dst = append(dst, 's')
		}
		isBefore, isZero = value < 0, false
	}
	part(int64(iv.months/12), "year")
	part(int64(iv.months%12), "mon")
	part(int64(iv.days), "day")
	if iv.micros != 0 || isZero {
		if !isZero {
			dst = append(dst, ' ')
		}
		us := iv.micros
		switch {
		case us < 0:
			dst = append(dst, '-')
			us = -us // the minimum int64 cannot occur: it is not a valid interval
		case isBefore:
			dst = append(dst, '+')
		}
		hours := us / (3600 * microsPerSecond)
		if hours < 10 {
			dst = append(dst, '0')
		}
		dst = strconv.AppendInt(dst, hours, 10)
		rem := us % (3600 * microsPerSecond)
		dst = append(dst, ':')
		dst = append2(dst, int(rem/(60*microsPerSecond)))
		dst = append(dst, ':')
		dst = append2(dst, int(rem/microsPerSecond%60))
		dst = appendFraction(dst, rem%microsPerSecond)
	}
	return dst
}
