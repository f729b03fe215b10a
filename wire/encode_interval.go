package wire

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgtext"
)

// intervalReader reads Arrow interval arrays (month-day-nano, day-time,
// months) as PostgreSQL intervals; nanoseconds are truncated to micros.
func intervalReader(dt arrow.DataType) func(arrow.Array) func(int) pgtext.Interval {
	switch dt.ID() {
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return func(arr arrow.Array) func(int) pgtext.Interval {
			v := arr.(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
			return func(i int) pgtext.Interval {
				return pgtext.Interval{Months: v[i].Months, Days: v[i].Days, Micros: v[i].Nanoseconds / 1000}
			}
		}
	case arrow.INTERVAL_DAY_TIME:
		return func(arr arrow.Array) func(int) pgtext.Interval {
			v := arr.(*array.DayTimeInterval).DayTimeIntervalValues()
			return func(i int) pgtext.Interval {
				return pgtext.Interval{Days: v[i].Days, Micros: int64(v[i].Milliseconds) * 1000}
			}
		}
	case arrow.INTERVAL_MONTHS:
		return func(arr arrow.Array) func(int) pgtext.Interval {
			v := arr.(*array.MonthInterval).MonthIntervalValues()
			return func(i int) pgtext.Interval { return pgtext.Interval{Months: int32(v[i])} }
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
		return func(dst []byte, i int) []byte { return pgtext.AppendInterval(dst, v(i)) }
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
			dst = binary.BigEndian.AppendUint64(dst, uint64(iv.Micros))
			dst = binary.BigEndian.AppendUint32(dst, uint32(iv.Days))
			return binary.BigEndian.AppendUint32(dst, uint32(iv.Months))
		}
	}
}
