package pgtext

import "strconv"

// Interval is PostgreSQL's interval: months, days and microseconds, each
// signed on its own.
type Interval struct {
	Months int32
	Days   int32
	Micros int64
}

// AppendInterval is interval_out with IntervalStyle postgres:
// "1 year 2 mons 3 days 04:05:06.5", "-1 days +02:00:00", "00:00:00".
// After a negative field, positive fields carry an explicit '+'.
func AppendInterval(dst []byte, iv Interval) []byte {
	zero, neg := true, false
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if !zero {
			dst = append(dst, ' ')
		}
		if neg && n > 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, n, 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if n != 1 {
			dst = append(dst, 's')
		}
		zero, neg = false, n < 0
	}
	part(int64(iv.Months/12), "year")
	part(int64(iv.Months%12), "mon")
	part(int64(iv.Days), "day")
	if iv.Micros == 0 && !zero {
		return dst
	}
	if !zero {
		dst = append(dst, ' ')
	}
	us := iv.Micros
	switch {
	case us < 0:
		dst = append(dst, '-')
		us = -us // the minimum int64 is not a valid interval
	case neg:
		dst = append(dst, '+')
	}
	h := us / usPerHour
	us -= h * usPerHour
	if h < 100 {
		dst = append2(dst, h)
	} else {
		dst = strconv.AppendInt(dst, h, 10)
	}
	m, s := us/(60*usPerSec), us/usPerSec%60
	dst = append(dst, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	return AppendFraction(dst, us%usPerSec)
}
