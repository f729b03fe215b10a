package expr

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// to_date(text, text) and to_timestamp(text, text): the input read with a
// to_char template. Separators and spaces in the template match any run of
// separators and spaces in the input; numeric fields read their width of
// digits, or every digit when a separator follows; parsing stops when the
// input ends (missing fields keep their defaults: January 1st, midnight).

type parsedTime struct {
	year, mon, mday    int64
	hasYear, bc        bool
	yy                 int // digits of a short year (YY, YYY, Y), 0 if none
	hour, min, sec, us int64
	pm, hasAMPM        bool
	clock12            bool
	doy                int64
	julian             int64
	hasJulian          bool
	tzOff              int64
	hasTZ              bool
}

func tsFieldError(s string) *pgerr.Error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
}

func dtNotInteger(val, kw string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value \"%s\" for \"%s\"", val, kw).
		WithDetail("Value must be an integer.")
}

func dtNoMatch(val, kw string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid value \"%s\" for \"%s\"", val, kw).
		WithDetail("The given value did not match any of the allowed values for this field.")
}

func dtAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// numericWidth is the digits a numeric field reads; 0 = not numeric.
func fieldWidth(up string) int {
	switch up {
	case "YYYY", "IYYY", "Y,YYY", "J", "SSSS", "SSSSS":
		return 4
	case "YYY", "IYY", "DDD", "IDDD", "MS":
		return 3
	case "YY", "IY", "MM", "DD", "HH", "HH12", "HH24", "MI", "SS", "WW", "IW", "CC":
		return 2
	case "Y", "I", "D", "ID", "W", "Q":
		return 1
	case "US":
		return 6
	case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
		return int(up[2] - '0')
	}
	return 0
}

// parseWithTemplate reads s with the template f.
func parseWithTemplate(s, f string) (parsedTime, error) {
	var pt parsedTime
	in := 0
	type node struct {
		kw  string // keyword, or "" for literal text
		lit string
	}
	var nodes []node
	for p := 0; p < len(f); {
		rest := f[p:]
		if strings.HasPrefix(rest, "FM") || strings.HasPrefix(rest, "fm") || strings.HasPrefix(rest, "FX") || strings.HasPrefix(rest, "fx") ||
			strings.HasPrefix(rest, "TM") || strings.HasPrefix(rest, "tm") {
			p += 2
			continue
		}
		if f[p] == '"' {
			q := p + 1
			var lit []byte
			for q < len(f) && f[q] != '"' {
				if f[q] == '\\' && q+1 < len(f) {
					q++
				}
				lit = append(lit, f[q])
				q++
			}
			nodes = append(nodes, node{lit: string(lit)})
			p = q + 1
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
			nodes = append(nodes, node{lit: f[p : p+1]})
			p++
			continue
		}
		p += len(kw)
		if strings.HasPrefix(f[p:], "TH") || strings.HasPrefix(f[p:], "th") {
			p += 2
		}
		nodes = append(nodes, node{kw: kw})
	}
	for k, nd := range nodes {
		if in >= len(s) {
			break
		}
		if nd.kw == "" {
			if len(nd.lit) == 1 && !dtAlnum(nd.lit[0]) {
				// A separator or space matches a run of them.
				j := in
				for j < len(s) && !dtAlnum(s[j]) {
					j++
				}
				in = j
				continue
			}
			in += min(len(nd.lit), len(s)-in)
			continue
		}
		for in < len(s) && s[in] == ' ' {
			in++
		}
		up := strings.ToUpper(nd.kw)
		if w := fieldWidth(up); w > 0 {
			nextNumeric := k+1 < len(nodes) && nodes[k+1].kw != "" && fieldWidth(strings.ToUpper(nodes[k+1].kw)) > 0
			j := in
			if j < len(s) && (s[j] == '-' || s[j] == '+') && (up == "YYYY" || up == "J") {
				j++
			}
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || up == "Y,YYY" && s[j] == ',') {
				if nextNumeric && j-in >= w {
					break
				}
				j++
			}
			txt := s[in:j]
			if txt == "" || txt == "-" || txt == "+" {
				end := len(s)
				if sp := strings.IndexByte(s[in:], ' '); sp >= 0 {
					end = in + sp
				}
				return pt, dtNotInteger(s[in:end], nd.kw)
			}
			v, err := strconv.ParseInt(strings.ReplaceAll(txt, ",", ""), 10, 64)
			if err != nil {
				return pt, dtNotInteger(txt, nd.kw)
			}
			if err := pt.set(up, v, len(txt)); err != nil {
				return pt, err
			}
			in = j
			continue
		}
		n, err := pt.word(up, nd.kw, s[in:])
		if err != nil {
			return pt, err
		}
		in += n
	}
	return pt, nil
}

// set stores a numeric field.
func (pt *parsedTime) set(up string, v int64, digits int) error {
	switch up {
	case "YYYY", "Y,YYY":
		pt.year, pt.hasYear = v, true
	case "YYY", "YY", "Y":
		pt.year, pt.hasYear, pt.yy = v, true, digits
	case "MM":
		pt.mon = v
	case "DD":
		pt.mday = v
	case "DDD":
		pt.doy = v
	case "J":
		pt.julian, pt.hasJulian = v, true
	case "HH", "HH12":
		if v < 1 || v > 12 {
			return pgerr.New(pgerr.InvalidDatetimeFormat, "hour \"%d\" is invalid for the 12-hour clock", v).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		pt.hour, pt.clock12 = v, true
	case "HH24":
		pt.hour = v
	case "MI":
		pt.min = v
	case "SS":
		pt.sec = v
	case "SSSS", "SSSSS":
		pt.hour, pt.min, pt.sec = v/3600, v%3600/60, v%60
	case "MS":
		for ; digits < 3; digits++ {
			v *= 10
		}
		pt.us = v * 1000
	case "US", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
		for ; digits < 6; digits++ {
			v *= 10
		}
		pt.us = v
	case "CC", "Q", "W", "WW", "D", "ID", "IW", "IDDD", "IYYY", "IYY", "IY", "I":
		// Accepted and, like PostgreSQL when a full date is given, not used.
	}
	return nil
}

// word reads a name field and returns the bytes it consumed.
func (pt *parsedTime) word(up, kw, s string) (int, error) {
	lower := strings.ToLower(s)
	match := func(names []string, n int) (int, int) {
		for k, name := range names {
			nm := strings.ToLower(name)
			if n > 0 {
				nm = nm[:n]
			}
			if strings.HasPrefix(lower, nm) {
				return k, len(nm)
			}
		}
		return -1, 0
	}
	bad := func() error {
		end := len(s)
		if sp := strings.IndexByte(s, ' '); sp >= 0 {
			end = sp
		}
		return dtNoMatch(s[:end], kw)
	}
	switch up {
	case "MONTH", "MON":
		n := 0
		if up == "MON" {
			n = 3
		}
		k, l := match(dtMonthNames[:], n)
		if k < 0 {
			return 0, bad()
		}
		pt.mon = int64(k + 1)
		return l, nil
	case "DAY", "DY":
		n := 0
		if up == "DY" {
			n = 3
		}
		k, l := match(dtDayNames[:], n)
		if k < 0 {
			return 0, bad()
		}
		return l, nil
	case "AM", "PM", "A.M.", "P.M.":
		names := []string{"am", "pm"}
		if strings.Contains(up, ".") {
			names = []string{"a.m.", "p.m."}
		}
		k, l := match(names, 0)
		if k < 0 {
			return 0, bad()
		}
		pt.pm, pt.hasAMPM = k == 1, true
		return l, nil
	case "AD", "BC", "A.D.", "B.C.":
		names := []string{"ad", "bc"}
		if strings.Contains(up, ".") {
			names = []string{"a.d.", "b.c."}
		}
		k, l := match(names, 0)
		if k < 0 {
			return 0, bad()
		}
		pt.bc = k == 1
		return l, nil
	case "TZH":
		j := 0
		sign := int64(1)
		if j < len(s) && (s[j] == '+' || s[j] == '-' || s[j] == ' ') {
			if s[j] == '-' {
				sign = -1
			}
			j++
		}
		k := j
		for k < len(s) && k-j < 2 && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		v, err := strconv.ParseInt(s[j:k], 10, 64)
		if err != nil {
			return 0, dtNotInteger(s, kw)
		}
		pt.tzOff += sign * v * 3600
		pt.hasTZ = true
		return k, nil
	case "TZM":
		k := 0
		for k < len(s) && k < 2 && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		v, err := strconv.ParseInt(s[:k], 10, 64)
		if err != nil {
			return 0, dtNotInteger(s, kw)
		}
		if pt.tzOff < 0 {
			pt.tzOff -= v * 60
		} else {
			pt.tzOff += v * 60
		}
		pt.hasTZ = true
		return k, nil
	case "TZ", "OF":
		return 0, pgerr.New(pgerr.FeatureNotSupported, "formatting field \"%s\" is only supported in to_char", kw)
	case "RM":
		k, l := match([]string{"XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"}, 0)
		if k < 0 {
			return 0, bad()
		}
		pt.mon = int64(12 - k)
		return l, nil
	}
	return 0, pgerr.Unsupported("to_date/to_timestamp template pattern %s", kw)
}

// localOf builds the local time the parsed fields name; orig is the input
// for error messages.
func (pt *parsedTime) localOf(orig string) (int64, error) {
	days, clock, err := pt.dayAndClock(orig)
	if err != nil {
		return 0, err
	}
	if days < minDateDays-1 || days > math.MaxInt64/usPerDay {
		return 0, tsOutOfRange()
	}
	local, err := checkedSum(days*usPerDay, clock)
	if err != nil {
		return 0, err
	}
	return local, nil
}

// dayAndClock gives the day and the time of day (up to 24:00) the parsed
// fields name; orig is the input for error messages.
func (pt *parsedTime) dayAndClock(orig string) (days, clock int64, err error) {
	y := pt.year
	if pt.yy > 0 && pt.yy < 4 {
		switch pt.yy {
		case 2:
			if y < 70 {
				y += 2000
			} else {
				y += 1900
			}
		case 3:
			if y < 100 {
				y += 2000
			} else {
				y += 1000
			}
		case 1:
			y += 2000
		}
	}
	if pt.bc {
		y = 1 - y
	}
	switch {
	case pt.hasJulian:
		days = pt.julian - 2440588
	case pt.doy > 0 && pt.mon == 0 && pt.mday == 0:
		days = daysFromCivil(y, 1, 1) + pt.doy - 1
		if pt.doy > 366 {
			return 0, 0, tsFieldError(orig)
		}
	default:
		m, d := pt.mon, pt.mday
		if m == 0 {
			m = 1
		}
		if d == 0 {
			d = 1
		}
		if m < 1 || m > 12 || d < 1 || d > int64(daysIn(y, int(m))) {
			return 0, 0, tsFieldError(orig)
		}
		days = daysFromCivil(y, int(m), int(d))
	}
	h := pt.hour
	if pt.clock12 || pt.hasAMPM {
		if pt.pm && h < 12 {
			h += 12
		} else if !pt.pm && h == 12 {
			h = 0
		}
	}
	if h > 24 || pt.min > 59 || pt.sec > 60 || (h == 24 && (pt.min > 0 || pt.sec > 0 || pt.us > 0)) {
		return 0, 0, tsFieldError(orig)
	}
	return days, ((h*60+pt.min)*60+pt.sec)*usPerSec + pt.us, nil
}

func toDateKernel() kernelFn {
	return dtRows[int32](Date, func(args []vec) rowFn[int32] {
		s, f := dtText(args[0]), dtText(args[1])
		return func(i int) (int32, error) {
			str := s(i)
			pt, err := parseWithTemplate(str, f(i))
			if err != nil {
				return 0, err
			}
			days, clock, err := pt.dayAndClock(str)
			if err != nil {
				return 0, err
			}
			return checkDate(days + clock/usPerDay)
		}
	})
}

func toTimestampKernel(loc *time.Location) kernelFn {
	return dtRows[int64](Timestamptz, func(args []vec) rowFn[int64] {
		s, f := dtText(args[0]), dtText(args[1])
		return func(i int) (int64, error) {
			str := s(i)
			pt, err := parseWithTemplate(str, f(i))
			if err != nil {
				return 0, err
			}
			local, err := pt.localOf(str)
			if err != nil {
				return 0, err
			}
			if pt.hasTZ {
				return checkTS(local - pt.tzOff*usPerSec)
			}
			return checkTS(localToUTC(local, loc))
		}
	})
}
