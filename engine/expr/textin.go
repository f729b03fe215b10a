package expr

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// PostgreSQL text input of the engine's types (what 'x'::type accepts).

func invalidInput(typ, s string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", typ, s)
}

// parseInt parses an integer of the given bit size; typ names the type.
func parseInt(s string, bits int, typ string) (int64, error) {
	t := trimSpace(s)
	v, err := strconv.ParseInt(t, 10, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, typ)
		}
		return 0, invalidInput(typ, s)
	}
	return v, nil
}

// parseFloat parses real / double precision input.
func parseFloat(s string, bits int) (float64, error) {
	typ := "double precision"
	if bits == 32 {
		typ = "real"
	}
	t := trimSpace(s)
	switch strings.ToLower(t) {
	case "nan":
		return math.NaN(), nil
	case "infinity", "+infinity", "inf", "+inf":
		return math.Inf(1), nil
	case "-infinity", "-inf":
		return math.Inf(-1), nil
	}
	if t == "" || strings.ContainsAny(t, "xXpP_") {
		return 0, invalidInput(typ, s)
	}
	v, err := strconv.ParseFloat(t, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type %s", s, typ)
		}
		return 0, invalidInput(typ, s)
	}
	return v, nil
}

// parseBool accepts PostgreSQL's boolean spellings.
func parseBool(s string) (bool, error) {
	t := strings.ToLower(trimSpace(s))
	if t != "" {
		for _, w := range []string{"true", "yes"} {
			if strings.HasPrefix(w, t) {
				return true, nil
			}
		}
		for _, w := range []string{"false", "no"} {
			if strings.HasPrefix(w, t) {
				return false, nil
			}
		}
		switch t {
		case "on", "1":
			return true, nil
		case "of", "off", "0":
			return false, nil
		}
	}
	return false, invalidInput("boolean", s)
}

func dateRangeError(s string) *pgerr.Error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
}

// scanDate reads YYYY-MM-DD at the start of t; returns days and the rest.
func scanDate(t, orig, typ string) (int64, string, error) {
	i := 0
	num := func(min, max int) (int64, bool) {
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j-i < min || j-i > max {
			return 0, false
		}
		v, _ := strconv.ParseInt(t[i:j], 10, 64)
		i = j
		return v, true
	}
	y, ok := num(1, 7)
	if !ok || i >= len(t) || t[i] != '-' {
		return 0, "", pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, orig)
	}
	i++
	m, ok := num(1, 2)
	if !ok || i >= len(t) || t[i] != '-' {
		return 0, "", pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, orig)
	}
	i++
	d, ok := num(1, 2)
	if !ok {
		return 0, "", pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, orig)
	}
	rest := t[i:]
	if strings.HasSuffix(strings.ToUpper(strings.TrimSpace(rest)), "BC") {
		y = 1 - y
		rest = strings.TrimSpace(rest)
		rest = rest[:len(rest)-2]
	}
	if m < 1 || m > 12 || d < 1 || d > int64(daysIn(y, int(m))) {
		return 0, "", dateRangeError(orig)
	}
	return daysFromCivil(y, int(m), int(d)), rest, nil
}

func daysIn(y int64, m int) int {
	switch m {
	case 2:
		if (y%4 == 0 && y%100 != 0) || y%400 == 0 {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// scanClock reads HH:MM[:SS[.ffffff]] and returns microseconds and rest.
func scanClock(t, orig, typ string) (int64, string, error) {
	bad := pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, orig)
	i := 0
	num := func() (int64, bool) {
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j == i || j-i > 2 {
			return 0, false
		}
		v, _ := strconv.ParseInt(t[i:j], 10, 64)
		i = j
		return v, true
	}
	h, ok := num()
	if !ok || i >= len(t) || t[i] != ':' {
		return 0, "", bad
	}
	i++
	mi, ok := num()
	if !ok {
		return 0, "", bad
	}
	var sec, frac int64
	if i < len(t) && t[i] == ':' {
		i++
		if sec, ok = num(); !ok {
			return 0, "", bad
		}
		if i < len(t) && t[i] == '.' {
			i++
			j := i
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				j++
			}
			digits := t[i:j]
			i = j
			// Round to microseconds, half up.
			for len(digits) < 7 {
				digits += "0"
			}
			f, _ := strconv.ParseInt(digits[:7], 10, 64)
			frac = (f + 5) / 10
		}
	}
	if h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi > 0 || sec > 0 || frac > 0)) {
		return 0, "", pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", orig)
	}
	return ((h*60+mi)*60+sec)*usPerSec + frac, t[i:], nil
}

// parseZone reads a trailing zone: Z, UTC, +HH, +HHMM, +HH:MM[:SS].
func parseZone(z string) (int64, bool) {
	z = strings.TrimSpace(z)
	switch strings.ToUpper(z) {
	case "Z", "UTC", "GMT", "+00", "-00":
		return 0, true
	}
	if len(z) < 2 || (z[0] != '+' && z[0] != '-') {
		return 0, false
	}
	sign := int64(1)
	if z[0] == '-' {
		sign = -1
	}
	parts := strings.Split(z[1:], ":")
	if len(parts) == 1 && len(parts[0]) == 4 {
		parts = []string{parts[0][:2], parts[0][2:]}
	}
	var secs int64
	mult := []int64{3600, 60, 1}
	for k, p := range parts {
		if k > 2 || p == "" {
			return 0, false
		}
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return 0, false
		}
		secs += v * mult[k]
	}
	return sign * secs, true
}

func parseDate(s string) (int32, error) {
	switch strings.ToLower(trimSpace(s)) {
	case "epoch":
		return 0, nil
	case "infinity":
		return pgtext.DateInfinity, nil
	case "-infinity":
		return pgtext.DateMinusInfinity, nil
	}
	days, rest, err := scanDate(trimSpace(s), s, "date")
	if err != nil {
		return 0, err
	}
	if days < minDateDays || days > maxDateDays {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: \"%s\"", s)
	}
	if strings.TrimSpace(rest) != "" {
		// A time part or a zone is accepted and ignored, as PostgreSQL
		// does (pgJDBC's setDate sends "2024-02-29 +00").
		r := strings.TrimLeft(rest, " T")
		if _, ok := parseZone(strings.TrimSpace(r)); ok {
			return int32(days), nil
		}
		if _, _, err := scanClock(r, s, "date"); err != nil {
			return 0, invalidDatetime("date", s)
		}
	}
	return int32(days), nil
}

func invalidDatetime(typ, s string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, s)
}

// parseTimestamp parses timestamp input (tz=false) or timestamptz (tz=true,
// local times in loc unless the text has a zone).
func parseTimestamp(s string, tz bool, loc *time.Location) (int64, error) {
	typ := "timestamp without time zone"
	if tz {
		typ = "timestamp with time zone"
	}
	t := trimSpace(s)
	switch strings.ToLower(t) {
	case "epoch":
		return 0, nil
	case "infinity":
		return pgtext.TSInfinity, nil
	case "-infinity":
		return pgtext.TSMinusInfinity, nil
	}
	days, rest, err := scanDate(t, s, typ)
	if err != nil {
		return 0, err
	}
	var clock int64
	bc := false
	if r := strings.TrimSpace(rest); r != "" {
		r = strings.TrimLeft(rest, " T")
		if up := strings.ToUpper(r); strings.HasSuffix(up, " BC") {
			bc = true
			r = strings.TrimSpace(r[:len(r)-3])
		}
		clock, rest, err = scanClock(r, s, typ)
		if err != nil {
			return 0, err
		}
	} else {
		rest = ""
	}
	if bc {
		y, m, d := civil(days)
		days = daysFromCivil(1-y, m, d)
	}
	outOfRange := func() error {
		return pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", s)
	}
	// A day count past every timestamp would overflow the product below.
	if days < minDateDays-1 || days > math.MaxInt64/usPerDay {
		return 0, outOfRange()
	}
	local, err := checkedSum(days*usPerDay, clock)
	if err != nil {
		return 0, outOfRange()
	}
	if zr := strings.TrimSpace(rest); zr != "" {
		off, ok := parseZone(zr)
		if !ok {
			return 0, invalidDatetime(typ, s)
		}
		if !tz {
			return local, nil
		}
		if local, err = checkedSum(local, -off*usPerSec); err != nil {
			return 0, outOfRange()
		}
		return local, nil
	}
	if tz {
		// Zone offsets are under a day; a larger move is a wrap-around.
		utc := localToUTC(local, loc)
		if d := utc - local; d > usPerDay || d < -usPerDay {
			return 0, outOfRange()
		}
		if _, err := checkTS(utc); err != nil {
			return 0, outOfRange()
		}
		return utc, nil
	}
	return local, nil
}

func parseTime(s string) (int64, error) {
	us, rest, err := scanClock(trimSpace(s), s, "time without time zone")
	if err != nil {
		return 0, err
	}
	if strings.TrimSpace(rest) != "" {
		return 0, invalidDatetime("time without time zone", s)
	}
	return us, nil
}

func parseUUID(s string) ([]byte, error) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
		t = t[1 : len(t)-1]
	}
	h := strings.ReplaceAll(t, "-", "")
	if len(h) != 32 {
		return nil, invalidInput("uuid", s)
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return nil, invalidInput("uuid", s)
	}
	return b, nil
}

func parseBytea(s string) ([]byte, error) {
	if strings.HasPrefix(s, `\x`) {
		h := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\t' || r == '\r' {
				return -1
			}
			return r
		}, s[2:])
		b, err := hex.DecodeString(h)
		if err != nil {
			return nil, invalidInput("bytea", s)
		}
		return b, nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i++
		case i+3 < len(s) && isOct(s[i+1]) && isOct(s[i+2]) && isOct(s[i+3]) && s[i+1] <= '3':
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 3
		default:
			return nil, invalidInput("bytea", s)
		}
	}
	return out, nil
}

func isOct(c byte) bool { return c >= '0' && c <= '7' }
