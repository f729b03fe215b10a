package pgtext

import (
	"math"
	"strconv"
)

const (
	usPerSec  = int64(1_000_000)
	usPerHour = 3600 * usPerSec
	usPerDay  = 86_400 * usPerSec
)

// The values that stand for PostgreSQL's infinite dates and timestamps.
const (
	DateInfinity      = math.MaxInt32
	DateMinusInfinity = math.MinInt32
	TSInfinity        = math.MaxInt64
	TSMinusInfinity   = math.MinInt64
)

// DateStyle is the output style of dates and timestamps.
type DateStyle uint8

const (
	// ISO is DateStyle ISO: 2024-01-31 12:00:00+05:30.
	ISO DateStyle = iota
	// XSD is the ISO 8601 form PostgreSQL uses inside json:
	// 2024-01-31T12:00:00+05:00 (a 'T', and the offset's minutes always).
	XSD
)

// FloorDiv is a/b rounded toward minus infinity.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// Civil converts days since 1970-01-01 to a proleptic Gregorian date with
// astronomical year numbering (year 0 is 1 BC).
func Civil(days int64) (y int64, m, d int) {
	z := days + 719_468
	era := FloorDiv(z, 146_097)
	doe := z - era*146_097
	yoe := (doe - doe/1460 + doe/36_524 - doe/146_096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// DaysFromCivil is the inverse of Civil.
func DaysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := FloorDiv(y, 400)
	yoe := y - era*400
	mm := int64(m)
	var mp int64
	if mm > 2 {
		mp = mm - 3
	} else {
		mp = mm + 9
	}
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146_097 + doe - 719_468
}

// AppendPad appends a non-negative v with at least width digits.
func AppendPad(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for k := len(s); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// append2 appends 0 <= v < 100 as two digits.
func append2(dst []byte, v int64) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

// AppendYMD appends YYYY-MM-DD of an astronomical year (at least four
// digits; years <= 0 print as BC, year 0 as 1) and reports whether the date
// is BC, for the caller to append " BC" after what follows the date.
func AppendYMD(dst []byte, y int64, m, d int) ([]byte, bool) {
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	if y < 10000 {
		dst = append(dst, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10))
	} else {
		dst = strconv.AppendInt(dst, y, 10)
	}
	return append(dst, '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10)), bc
}

// AppendDate is date_out: YYYY-MM-DD, " BC" for dates before year 1,
// infinity and -infinity.
func AppendDate(dst []byte, days int32) []byte {
	switch days {
	case DateInfinity:
		return append(dst, "infinity"...)
	case DateMinusInfinity:
		return append(dst, "-infinity"...)
	}
	y, m, d := Civil(int64(days))
	dst, bc := AppendYMD(dst, y, m, d)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// AppendTime is time_out: HH:MM:SS[.ffffff] of microseconds since
// midnight, the fraction's trailing zeros dropped.
func AppendTime(dst []byte, us int64) []byte {
	secs := us / usPerSec
	h, m, s := secs/3600, secs/60%60, secs%60
	if h < 100 {
		dst = append2(dst, h)
	} else {
		dst = strconv.AppendInt(dst, h, 10)
	}
	dst = append(dst, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	return AppendFraction(dst, us%usPerSec)
}

// AppendFraction appends .ffffff for a fraction of a second in
// microseconds (0 <= frac < 1e6), trailing zeros dropped; nothing for 0.
func AppendFraction(dst []byte, frac int64) []byte {
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

// AppendTimeTZ is timetz_out: the time of day, then its UTC offset
// (seconds east).
func AppendTimeTZ(dst []byte, us int64, offset int) []byte {
	return AppendOffset(AppendTime(dst, us), offset, ISO)
}

// AppendTimestamp is timestamp_out: the date, a space (ISO) or 'T' (XSD),
// the time, and " BC" for dates before year 1.
func AppendTimestamp(dst []byte, us int64, style DateStyle) []byte {
	switch us {
	case TSInfinity:
		return append(dst, "infinity"...)
	case TSMinusInfinity:
		return append(dst, "-infinity"...)
	}
	days := FloorDiv(us, usPerDay)
	y, m, d := Civil(days)
	dst, bc := AppendYMD(dst, y, m, d)
	dst = append(dst, sep(style))
	dst = AppendTime(dst, us-days*usPerDay)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// AppendTimestamptz is timestamptz_out for the instant us (microseconds
// since the epoch, UTC) shown in a zone whose UTC offset at that instant is
// offset seconds east: the local timestamp, then the offset.
func AppendTimestamptz(dst []byte, us int64, offset int, style DateStyle) []byte {
	switch us {
	case TSInfinity:
		return append(dst, "infinity"...)
	case TSMinusInfinity:
		return append(dst, "-infinity"...)
	}
	local := us + int64(offset)*usPerSec
	days := FloorDiv(local, usPerDay)
	y, m, d := Civil(days)
	dst, bc := AppendYMD(dst, y, m, d)
	dst = append(dst, sep(style))
	dst = AppendTime(dst, local-days*usPerDay)
	dst = AppendOffset(dst, offset, style)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

func sep(style DateStyle) byte {
	if style == XSD {
		return 'T'
	}
	return ' '
}

// AppendOffset appends a UTC offset (seconds east) as PostgreSQL prints
// one: +hh, +hh:mm when there are minutes (always in XSD), +hh:mm:ss when
// there are seconds.
func AppendOffset(dst []byte, offset int, style DateStyle) []byte {
	off := int64(offset)
	if off < 0 {
		dst = append(dst, '-')
		off = -off
	} else {
		dst = append(dst, '+')
	}
	if h := off / 3600; h < 100 {
		dst = append2(dst, h)
	} else {
		dst = strconv.AppendInt(dst, h, 10)
	}
	if m, s := off/60%60, off%60; m != 0 || s != 0 || style == XSD {
		dst = append(dst, ':')
		dst = append2(dst, m)
		if s != 0 {
			dst = append(dst, ':')
			dst = append2(dst, s)
		}
	}
	return dst
}
