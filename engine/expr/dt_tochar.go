package expr

import (
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// to_char of timestamps and intervals: PostgreSQL's template patterns
// (YYYY MM DD HH24 HH12 MI SS MS US AM Mon Month Day Dy DDD IW WW Q TZ...),
// the FM prefix, TH/th suffixes, quoted literal text and backslash escapes.

var dtMonthNames = [...]string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

var dtDayNames = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

var dtRomanMonths = [...]string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}

// dchKeywords in match order: a longer keyword before any keyword that is
// its prefix.
var dchKeywords = []string{
	"A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "CC", "DAY", "DDD", "DD", "DY", "Day", "Dy", "D",
	"FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FX", "HH24", "HH12", "HH", "IDDD", "ID", "IW",
	"IYYY", "IYY", "IY", "I", "J", "MI", "MM", "MONTH", "MON", "MS", "Month", "Mon", "OF",
	"P.M.", "PM", "Q", "RM", "SSSSS", "SSSS", "SS", "TZH", "TZM", "TZ", "US", "WW", "W",
	"Y,YYY", "YYYY", "YYY", "YY", "Y",
	"a.d.", "a.m.", "ad", "am", "b.c.", "bc", "cc", "day", "ddd", "dd", "dy", "d",
	"ff1", "ff2", "ff3", "ff4", "ff5", "ff6", "fx", "hh24", "hh12", "hh", "iddd", "id", "iw",
	"iyyy", "iyy", "iy", "i", "j", "mi", "mm", "month", "mon", "ms", "of",
	"p.m.", "pm", "q", "rm", "sssss", "ssss", "ss", "tzh", "tzm", "tz", "us", "ww", "w",
	"y,yyy", "yyyy", "yyy", "yy", "y",
}

// dchTime is the broken-down value to_char prints.
type dchTime struct {
	year           int64 // astronomical (0 = 1 BC); intervals: whole years
	mon, mday      int64
	hour, min, sec int64
	usec           int64
	days           int64 // days since the epoch (timestamps)
	yday           int64
	interval       bool
	hasZone        bool
	offset         int // seconds east of UTC
	zoneAbbr       string
}

func dchOfLocal(local int64) dchTime {
	b := breakDown(local)
	return dchTime{
		year: b.y, mon: int64(b.mon), mday: int64(b.d), hour: int64(b.h), min: int64(b.mi),
		sec: b.us / usPerSec, usec: b.us % usPerSec, days: b.days,
		yday: b.days - daysFromCivil(b.y, 1, 1) + 1,
	}
}

func dchOfInterval(v ival) dchTime {
	f := ivalFields(v)
	return dchTime{
		year: f.year, mon: f.mon, mday: f.day, hour: f.hour, min: f.min, sec: f.sec, usec: f.usec,
		yday: (f.year*12+f.mon)*30 + f.day, interval: true,
		// J and the ISO fields read the fields as a date, as PostgreSQL
		// does (day 0 of month 0 is the last of the previous year's November).
		days: daysFromCivil(f.year, int(f.mon), 1) + f.day - 1,
	}
}

func (t dchTime) dow() int64 { return ((t.days+4)%7 + 7) % 7 } // 0 = Sunday

func (t dchTime) iso() (int64, int) {
	b := breakDown(t.days * usPerDay)
	y, w := time.Date(int(b.y), time.Month(b.mon), b.d, 12, 0, 0, 0, time.UTC).ISOWeek()
	return int64(y), w
}

func dtOrdinal(n int64, upper bool) string {
	m := n % 100
	if m < 0 {
		m = -m
	}
	s := "th"
	if m < 11 || m > 13 {
		switch m % 10 {
		case 1:
			s = "st"
		case 2:
			s = "nd"
		case 3:
			s = "rd"
		}
	}
	if upper {
		return strings.ToUpper(s)
	}
	return s
}

func invalidForInterval() *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid format specification for an interval value").
		WithHint("Intervals are not tied to specific calendar dates.")
}

func dtPadName(s string, fm bool, width int) string {
	if fm || len(s) >= width {
		return s
	}
	return s + strings.Repeat(" ", width-len(s))
}

// dtCaseAs spells name as the keyword's case: all upper, capitalized, lower.
func dtCaseAs(kw, name string) string {
	switch {
	case kw == strings.ToUpper(kw):
		return strings.ToUpper(name)
	case kw == strings.ToLower(kw):
		return strings.ToLower(name)
	}
	return name
}

// appendToChar formats t with the template.
func appendToChar(dst []byte, t dchTime, format string) ([]byte, error) {
	fm := false
	for p := 0; p < len(format); {
		rest := format[p:]
		if strings.HasPrefix(rest, "FM") || strings.HasPrefix(rest, "fm") {
			fm = true
			p += 2
			continue
		}
		if strings.HasPrefix(rest, "TM") || strings.HasPrefix(rest, "tm") {
			p += 2
			continue
		}
		c := format[p]
		if c == '"' {
			p++
			for p < len(format) && format[p] != '"' {
				if format[p] == '\\' && p+1 < len(format) {
					p++
				}
				dst = append(dst, format[p])
				p++
			}
			p++
			continue
		}
		if c == '\\' && p+1 < len(format) && format[p+1] == '"' {
			dst = append(dst, '"')
			p += 2
			continue
		}
		kw := ""
		for _, k := range dchKeywords {
			if strings.HasPrefix(rest, k) {
				kw = k
				break
			}
		}
		if kw == "" {
			dst = append(dst, c)
			p++
			fm = false
			continue
		}
		p += len(kw)
		th, thUpper := false, false
		if strings.HasPrefix(format[p:], "TH") || strings.HasPrefix(format[p:], "th") {
			th, thUpper = true, format[p] == 'T'
			p += 2
		}
		var err error
		dst, err = appendDCH(dst, t, kw, fm, th, thUpper)
		if err != nil {
			return nil, err
		}
		fm = false
	}
	return dst, nil
}

func appendDCH(dst []byte, t dchTime, kw string, fm, th, thUpper bool) ([]byte, error) {
	num := func(v int64, width int) []byte {
		// C's "%0*d": the width counts the sign.
		s := strconv.FormatInt(v, 10)
		if !fm {
			neg := v < 0
			if neg {
				s = s[1:]
				width--
			}
			for len(s) < width {
				s = "0" + s
			}
			if neg {
				s = "-" + s
			}
		}
		dst = append(dst, s...)
		if th {
			dst = append(dst, dtOrdinal(v, thUpper)...)
		}
		return dst
	}
	up := strings.ToUpper(kw)
	year := t.year
	if !t.interval && year <= 0 {
		year = 1 - year
	}
	switch up {
	case "A.D.", "AD", "B.C.", "BC":
		if t.interval {
			return nil, invalidForInterval()
		}
		s := "AD"
		if t.year <= 0 {
			s = "BC"
		}
		if strings.Contains(kw, ".") {
			s = s[:1] + "." + s[1:] + "."
		}
		return append(dst, dtCaseAs(kw, s)...), nil
	case "A.M.", "AM", "P.M.", "PM":
		s := "AM"
		if t.hour%24 >= 12 {
			s = "PM"
		}
		if strings.Contains(kw, ".") {
			s = s[:1] + "." + s[1:] + "."
		}
		return append(dst, dtCaseAs(kw, s)...), nil
	case "HH", "HH12":
		h := t.hour % 12
		if h == 0 {
			h = 12
		}
		return num(h, signedWidth(h, 2)), nil
	case "HH24":
		return num(t.hour, signedWidth(t.hour, 2)), nil
	case "MI":
		return num(t.min, signedWidth(t.min, 2)), nil
	case "SS":
		return num(t.sec, signedWidth(t.sec, 2)), nil
	case "MS":
		return num(t.usec/1000, 3), nil
	case "US":
		return num(t.usec, 6), nil
	case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
		n := int(up[2] - '0')
		v := t.usec
		for k := n; k < 6; k++ {
			v /= 10
		}
		return num(v, n), nil
	case "SSSS", "SSSSS":
		dst = strconv.AppendInt(dst, (t.hour*60+t.min)*60+t.sec, 10)
		if th {
			dst = append(dst, dtOrdinal((t.hour*60+t.min)*60+t.sec, thUpper)...)
		}
		return dst, nil
	case "TZ", "TZH", "TZM", "OF":
		if t.interval {
			return nil, invalidForInterval()
		}
		if !t.hasZone && up == "TZ" {
			return dst, nil
		}
		off := t.offset
		sign := byte('+')
		if off < 0 {
			sign, off = '-', -off
		}
		switch up {
		case "TZ":
			return append(dst, dtCaseAs(kw, t.zoneAbbr)...), nil
		case "TZH":
			dst = append(dst, sign)
			return appendPad(dst, int64(off/3600), 2), nil
		case "TZM":
			return appendPad(dst, int64(off%3600/60), 2), nil
		}
		dst = append(dst, sign)
		dst = appendPad(dst, int64(off/3600), 2)
		if m := off % 3600 / 60; m != 0 {
			dst = append(dst, ':')
			dst = appendPad(dst, int64(m), 2)
		}
		return dst, nil
	case "MONTH", "MON":
		if t.interval {
			return nil, invalidForInterval()
		}
		name := dtMonthNames[t.mon-1]
		if up == "MON" {
			return append(dst, dtCaseAs(kw, name[:3])...), nil
		}
		return append(dst, dtPadName(dtCaseAs(kw, name), fm, 9)...), nil
	case "MM":
		return num(t.mon, signedWidth(t.mon, 2)), nil
	case "DAY", "DY":
		if t.interval {
			return nil, invalidForInterval()
		}
		name := dtDayNames[t.dow()]
		if up == "DY" {
			return append(dst, dtCaseAs(kw, name[:3])...), nil
		}
		return append(dst, dtPadName(dtCaseAs(kw, name), fm, 9)...), nil
	case "DDD":
		return num(t.yday, 3), nil
	case "DD":
		return num(t.mday, 2), nil
	case "D":
		if t.interval {
			return nil, invalidForInterval()
		}
		return num(t.dow()+1, 1), nil
	case "ID":
		if t.interval {
			return nil, invalidForInterval()
		}
		d := t.dow()
		if d == 0 {
			d = 7
		}
		return num(d, 1), nil
	case "IDDD", "IW", "IYYY", "IYY", "IY", "I":
		y, w := t.iso()
		switch up {
		case "IW":
			return num(int64(w), 2), nil
		case "IDDD":
			d := t.dow()
			if d == 0 {
				d = 7
			}
			return num(int64(w-1)*7+d, 3), nil
		}
		if t.interval {
			// No BC adjustment, and C's width with the sign in it.
			if len(up) == 4 {
				return num(y, 4), nil
			}
			return dtYearDigits(num, up, y), nil
		}
		if y <= 0 {
			y = 1 - y
		}
		return dtYearDigits(num, up, y), nil
	case "WW":
		return num((t.yday-1)/7+1, 2), nil
	case "W":
		return num((t.mday-1)/7+1, 1), nil
	case "Q":
		if t.interval && t.mon == 0 {
			return dst, nil
		}
		return num((t.mon-1)/3+1, 1), nil
	case "CC":
		var cc int64
		switch {
		case t.interval:
			cc = t.year / 100
		case t.year > 0:
			cc = (t.year + 99) / 100
		default:
			cc = -((99 - (t.year - 1)) / 100)
		}
		return num(cc, signedWidth(cc, 2)), nil
	case "J":
		return num(t.days+2440588, 1), nil
	case "RM":
		if t.mon < 1 || t.mon > 12 {
			return dst, nil
		}
		return append(dst, dtPadName(dtCaseAs(kw, dtRomanMonths[t.mon-1]), fm, 4)...), nil
	case "Y,YYY":
		dst = strconv.AppendInt(dst, year/1000, 10)
		dst = append(dst, ',')
		dst = appendPad(dst, year%1000, 3)
		return dst, nil
	case "YYYY", "YYY", "YY", "Y":
		return dtYearDigits(num, up, year), nil
	case "FX":
		return dst, nil
	}
	return append(dst, kw...), nil
}

// signedWidth is the field width PostgreSQL gives a value that may be
// negative (interval fields): one more position for the sign.
func signedWidth(v int64, w int) int {
	if v < 0 {
		return w + 1
	}
	return w
}

func dtYearDigits(num func(int64, int) []byte, pattern string, y int64) []byte {
	switch len(pattern) {
	case 4:
		return num(y, signedWidth(y, 4))
	case 3:
		return num(y%1000, 3)
	case 2:
		return num(y%100, 2)
	}
	return num(y%10, 1)
}

// toCharTimeKernel is to_char(timestamp | timestamptz | interval, text).
func toCharTimeKernel(k kind, loc *time.Location) kernelFn {
	rows := dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
		f := dtText(args[1])
		var get func(i int) dchTime
		if k == kInterval {
			x := dtIval(args[0])
			get = func(i int) dchTime { return dchOfInterval(x(i)) }
		} else {
			x := dtI64(args[0])
			get = func(i int) dchTime {
				v := x(i)
				if k != kTimestamptz {
					return dchOfLocal(v)
				}
				off := zoneOffset(v, loc)
				t := dchOfLocal(v + int64(off)*usPerSec)
				t.hasZone, t.offset = true, off
				t.zoneAbbr = zoneAbbr(v, loc, off)
				return t
			}
		}
		return func(dst []byte, i int) ([]byte, error) { return appendToChar(dst, get(i), f(i)) }
	})
	return func(ev *evalCtx, args []vec) (vec, error) {
		if k != kInterval && hasInfinite(args[0], k) {
			return vec{}, infiniteUnsupported("to_char")
		}
		return rows(ev, args)
	}

}

// zoneAbbr is the zone abbreviation PostgreSQL prints for TZ: the zone's
// own (EST, CEST) or the offset (+0530) when it has none.
func zoneAbbr(us int64, loc *time.Location, off int) string {
	if loc == nil {
		return "UTC"
	}
	name, _ := time.Unix(floorDiv(us, usPerSec), 0).In(loc).Zone()
	if name != "" && (name[0] < '0' || name[0] > '9') && name[0] != '+' && name[0] != '-' {
		return name
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b := []byte{sign}
	b = appendPad(b, int64(off/3600), 2)
	if m := off % 3600 / 60; m != 0 {
		b = appendPad(b, int64(m), 2)
	}
	return string(b)
}
