package expr

import (
	"math"
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// Text input of interval, as PostgreSQL's interval_in with IntervalStyle
// postgres: "1 year 2 mons 3 days 04:05:06.5", "-1 days +02:00:00",
// "@ 1 hour ago", "1.5 days", "10:00", "1-2" (years-months), and ISO 8601
// "P1Y2M3DT4H5M6S".

func badInterval(s string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type interval: \"%s\"", s)
}

func intervalFieldOverflow(s string) *pgerr.Error {
	return pgerr.New(pgerr.IntervalFieldOverflow, "interval field value out of range: \"%s\"", s)
}

// ivalAcc accumulates the fields of an interval being parsed, with
// PostgreSQL's per-field range checks.
type ivalAcc struct {
	years, months, days int64
	us                  int64
	overflow            bool
}

func (a *ivalAcc) add(p *int64, v int64, limit int64) {
	r := *p + v
	if (v > 0 && r < *p) || (v < 0 && r > *p) || r > limit || r < -limit-1 {
		a.overflow = true
	}
	*p = r
}

func (a *ivalAcc) addUS(v int64) { a.add(&a.us, v, math.MaxInt64) }

func (a *ivalAcc) mulAdd(p *int64, val, scale, limit int64) {
	if val != 0 && (val > limit/scale || val < -limit/scale) {
		a.overflow = true
		return
	}
	a.add(p, val*scale, limit)
}

// fractUS adds frac*scale microseconds, rounding the fraction of a
// microsecond (AdjustFractMicroseconds).
func (a *ivalAcc) fractUS(frac float64, scale int64) {
	if frac == 0 {
		return
	}
	f := frac * float64(scale)
	if math.Abs(f) >= 9.2e18 {
		a.overflow = true
		return
	}
	u := int64(f)
	u += int64(math.RoundToEven(f - float64(u)))
	a.addUS(u)
}

// fractDays adds frac*scale days, the remainder as time (AdjustFractDays).
func (a *ivalAcc) fractDays(frac float64, scale int64) {
	if frac == 0 {
		return
	}
	f := frac * float64(scale)
	d := int64(int32(f))
	a.add(&a.days, d, math.MaxInt32)
	a.fractUS(f-float64(d), usPerDay)
}

// fractYears adds frac*scale years as whole months (AdjustFractYears).
func (a *ivalAcc) fractYears(frac float64, scale int64) {
	a.add(&a.months, int64(math.RoundToEven(frac*float64(scale)*12)), math.MaxInt32)
}

// unit applies a number to a unit field.
func (a *ivalAcc) unit(u string, val int64, frac float64) {
	switch u {
	case "microsecond":
		a.mulAdd(&a.us, val, 1, math.MaxInt64)
		a.fractUS(frac, 1)
	case "millisecond":
		a.mulAdd(&a.us, val, 1000, math.MaxInt64)
		a.fractUS(frac, 1000)
	case "second":
		a.mulAdd(&a.us, val, usPerSec, math.MaxInt64)
		a.fractUS(frac, usPerSec)
	case "minute":
		a.mulAdd(&a.us, val, 60*usPerSec, math.MaxInt64)
		a.fractUS(frac, 60*usPerSec)
	case "hour":
		a.mulAdd(&a.us, val, 3600*usPerSec, math.MaxInt64)
		a.fractUS(frac, 3600*usPerSec)
	case "day":
		a.mulAdd(&a.days, val, 1, math.MaxInt32)
		a.fractUS(frac, usPerDay)
	case "week":
		a.mulAdd(&a.days, val, 7, math.MaxInt32)
		a.fractDays(frac, 7)
	case "month":
		a.mulAdd(&a.months, val, 1, math.MaxInt32)
		a.fractDays(frac, 30)
	case "year":
		a.mulAdd(&a.years, val, 1, math.MaxInt32)
		a.fractYears(frac, 1)
	case "decade":
		a.mulAdd(&a.years, val, 10, math.MaxInt32)
		a.fractYears(frac, 10)
	case "century":
		a.mulAdd(&a.years, val, 100, math.MaxInt32)
		a.fractYears(frac, 100)
	case "millennium":
		a.mulAdd(&a.years, val, 1000, math.MaxInt32)
		a.fractYears(frac, 1000)
	}
}

func (a *ivalAcc) result(s string) (ival, error) {
	if a.overflow || a.years > math.MaxInt32 || a.years < math.MinInt32 {
		return ival{}, intervalFieldOverflow(s)
	}
	months := a.years*12 + a.months
	if months > math.MaxInt32 || months < math.MinInt32 {
		return ival{}, intervalOverflow()
	}
	if a.us > maxIntervalUS || a.us < -maxIntervalUS {
		// Arrow's nanosecond field holds ±106751 days of time.
		return ival{}, intervalOverflow()
	}
	return ival{months: int32(months), days: int32(a.days), us: a.us}, nil
}

// intervalUnits maps unit spellings (lowercased, cut to 10 characters as
// PostgreSQL does) to units.
var intervalUnits = map[string]string{
	"c": "century", "cent": "century", "centuries": "century", "century": "century",
	"d": "day", "day": "day", "days": "day",
	"dec": "decade", "decade": "decade", "decades": "decade", "decs": "decade",
	"h": "hour", "hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour",
	"m": "minute", "min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute",
	"microsecon": "microsecond", "us": "microsecond", "usec": "microsecond", "usecond": "microsecond",
	"useconds": "microsecond", "usecs": "microsecond",
	"mil": "millennium", "millennia": "millennium", "millennium": "millennium", "mils": "millennium",
	"millisecon": "millisecond", "ms": "millisecond", "msec": "millisecond", "msecond": "millisecond",
	"mseconds": "millisecond", "msecs": "millisecond",
	"mon": "month", "mons": "month", "month": "month", "months": "month",
	"s": "second", "sec": "second", "second": "second", "seconds": "second", "secs": "second",
	"w": "week", "week": "week", "weeks": "week",
	"y": "year", "year": "year", "years": "year", "yr": "year", "yrs": "year",
}

// unitBit is each unit's bit in the mask that rejects a unit given twice.
var unitBit = map[string]int{
	"microsecond": 1, "millisecond": 2, "second": 4, "minute": 8, "hour": 16, "day": 32,
	"week": 64, "month": 128, "year": 256, "decade": 512, "century": 1024, "millennium": 2048,
}

// A time field (hh:mm:ss) sets hours, minutes and every kind of second.
const ivTimeBits = 1 | 2 | 4 | 8 | 16

type ivTok struct {
	kind byte // 'n' number, 't' time, 's' signed (number or time), 'w' word
	text string
}

func tokenizeInterval(s string) ([]ivTok, bool) {
	var toks []ivTok
	i := 0
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isAlpha := func(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '@':
			i++
		case isDigit(c) || c == '.':
			j := i
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == ':' || s[j] == '-') {
				j++
			}
			kind := byte('n')
			if strings.Contains(s[i:j], ":") {
				kind = 't'
			}
			toks = append(toks, ivTok{kind, s[i:j]})
			i = j
		case c == '+' || c == '-':
			j := i + 1
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if j >= len(s) || !(isDigit(s[j]) || s[j] == '.') {
				return nil, false
			}
			k := j
			for k < len(s) && (isDigit(s[k]) || s[k] == '.' || s[k] == ':' || s[k] == '-') {
				k++
			}
			toks = append(toks, ivTok{'s', string(c) + s[j:k]})
			i = k
		case isAlpha(c):
			j := i
			for j < len(s) && isAlpha(s[j]) {
				j++
			}
			toks = append(toks, ivTok{'w', strings.ToLower(s[i:j])})
			i = j
		default:
			return nil, false
		}
	}
	return toks, true
}

// parseInterval is interval_in.
func parseInterval(s string) (ival, error) {
	t := strings.TrimSpace(s)
	if len(t) > 0 && (t[0] == 'P' || t[0] == 'p') {
		return parseISOInterval(t, s)
	}
	toks, ok := tokenizeInterval(t)
	if !ok || len(toks) == 0 {
		return ival{}, badInterval(s)
	}
	var acc ivalAcc
	mask := 0
	unit := "" // the unit of a number read right to left; "" = seconds
	ago := false
	for i := len(toks) - 1; i >= 0; i-- {
		tk := toks[i]
		switch tk.kind {
		case 'w':
			if tk.text == "ago" {
				if i != len(toks)-1 || i == 0 {
					return ival{}, badInterval(s)
				}
				// A bare number right before "ago" has no unit.
				ago, unit = true, "none"
				continue
			}
			key := tk.text
			if len(key) > 10 {
				key = key[:10]
			}
			u, ok := intervalUnits[key]
			if !ok {
				return ival{}, badInterval(s)
			}
			unit = u
			continue
		case 't', 's':
			if strings.Contains(tk.text, ":") {
				body, neg := tk.text, false
				if tk.kind == 's' {
					body, neg = tk.text[1:], tk.text[0] == '-'
				}
				us, err := parseIntervalTime(body, s)
				if err != nil {
					return ival{}, err
				}
				if mask&ivTimeBits != 0 {
					return ival{}, badInterval(s)
				}
				mask |= ivTimeBits
				if neg {
					us = -us
				}
				acc.addUS(us)
				unit = "day"
				continue
			}
		}
		// A number, signed or not, possibly years-months ("1-2").
		text := tk.text
		neg := false
		if text[0] == '+' || text[0] == '-' {
			neg = text[0] == '-'
			text = text[1:]
		}
		u := unit
		if u == "" {
			u = "second"
		}
		var val int64
		var frac float64
		if k := strings.IndexByte(text, '-'); k > 0 {
			y, err1 := strconv.ParseInt(text[:k], 10, 64)
			m, err2 := strconv.ParseInt(text[k+1:], 10, 64)
			if err1 != nil || err2 != nil {
				return ival{}, badInterval(s)
			}
			val, u = y*12+m, "month"
		} else {
			ip, fp, _ := strings.Cut(text, ".")
			if strings.ContainsAny(fp, ".-") || (ip == "" && fp == "") {
				return ival{}, badInterval(s)
			}
			if ip != "" {
				v, err := strconv.ParseInt(ip, 10, 64)
				if err != nil {
					return ival{}, intervalFieldOverflow(s)
				}
				val = v
			}
			if fp != "" {
				f, err := strconv.ParseFloat("0."+fp, 64)
				if err != nil {
					return ival{}, badInterval(s)
				}
				frac = f
			}
		}
		if neg {
			val, frac = -val, -frac
		}
		bit, known := unitBit[u]
		if !known {
			return ival{}, badInterval(s)
		}
		if u == "second" && frac != 0 {
			bit |= 1 | 2
		}
		if mask&bit != 0 {
			return ival{}, badInterval(s)
		}
		mask |= bit
		acc.unit(u, val, frac)
		if u == "hour" {
			unit = "day"
		}
	}
	if ago {
		acc.years, acc.months, acc.days, acc.us = -acc.years, -acc.months, -acc.days, -acc.us
	}
	return acc.result(s)
}

// parseIntervalTime reads hh:mm[:ss[.f]] or mm:ss.f of an interval
// (hours unbounded).
func parseIntervalTime(t, orig string) (int64, error) {
	parts := strings.Split(t, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, badInterval(orig)
	}
	num := func(p string) (int64, bool) {
		if p == "" {
			return 0, false
		}
		for k := 0; k < len(p); k++ {
			if p[k] < '0' || p[k] > '9' {
				return 0, false
			}
		}
		v, err := strconv.ParseInt(p, 10, 64)
		return v, err == nil
	}
	secs := func(p string) (int64, int64, bool) {
		ip, fp, hasFrac := strings.Cut(p, ".")
		v, ok := num(ip)
		if !ok {
			return 0, 0, false
		}
		if !hasFrac {
			return v, 0, true
		}
		if fp != "" {
			if _, ok := num(fp); !ok {
				return 0, 0, false
			}
		}
		f, _ := strconv.ParseFloat("0."+fp+"0", 64)
		return v, int64(math.RoundToEven(f * 1e6)), true
	}
	var h, mi, sec, us int64
	var ok bool
	if len(parts) == 2 && strings.Contains(parts[1], ".") {
		// mm:ss.f
		if mi, ok = num(parts[0]); !ok {
			return 0, badInterval(orig)
		}
		if sec, us, ok = secs(parts[1]); !ok {
			return 0, badInterval(orig)
		}
	} else {
		if h, ok = num(parts[0]); !ok {
			return 0, badInterval(orig)
		}
		if mi, ok = num(parts[1]); !ok {
			return 0, badInterval(orig)
		}
		if len(parts) == 3 {
			if sec, us, ok = secs(parts[2]); !ok {
				return 0, badInterval(orig)
			}
		}
	}
	if mi > 59 || sec > 59 || h > math.MaxInt64/(3600*usPerSec) {
		return 0, intervalFieldOverflow(orig)
	}
	total := h*3600*usPerSec + mi*60*usPerSec + sec*usPerSec
	if total > math.MaxInt64-us {
		return 0, intervalFieldOverflow(orig)
	}
	return total + us, nil
}

// parseISOInterval reads ISO 8601 "format with designators":
// P[nY][nM][nW][nD][T[nH][nM][nS]], numbers signed and fractional.
func parseISOInterval(t, orig string) (ival, error) {
	var acc ivalAcc
	inTime := false
	rest := t[1:]
	if rest == "" {
		return ival{}, badInterval(orig)
	}
	for rest != "" {
		if rest[0] == 'T' || rest[0] == 't' {
			if inTime {
				return ival{}, badInterval(orig)
			}
			inTime = true
			rest = rest[1:]
			continue
		}
		j := 0
		if j < len(rest) && (rest[j] == '+' || rest[j] == '-') {
			j++
		}
		for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == '.') {
			j++
		}
		if j == 0 || j >= len(rest) {
			return ival{}, badInterval(orig)
		}
		f, err := strconv.ParseFloat(rest[:j], 64)
		if err != nil {
			return ival{}, badInterval(orig)
		}
		val := int64(f)
		frac := f - float64(val)
		var u string
		switch c := rest[j] | 0x20; {
		case !inTime && c == 'y':
			u = "year"
		case !inTime && c == 'm':
			u = "month"
		case !inTime && c == 'w':
			u = "week"
		case !inTime && c == 'd':
			u = "day"
		case inTime && c == 'h':
			u = "hour"
		case inTime && c == 'm':
			u = "minute"
		case inTime && c == 's':
			u = "second"
		default:
			return ival{}, badInterval(orig)
		}
		acc.unit(u, val, frac)
		rest = rest[j+1:]
	}
	return acc.result(orig)
}
