package pgtext

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// OffsetAt is loc's UTC offset in seconds east at the instant us
// (microseconds since the epoch); nil is UTC.
func OffsetAt(us int64, loc *time.Location) int {
	if loc == nil || loc == time.UTC {
		return 0
	}
	_, off := time.Unix(FloorDiv(us, usPerSec), 0).In(loc).Zone()
	return off
}

// ZoneCache looks up UTC offsets in one zone, remembering the zone period
// of the last lookup so that consecutive values in the same period skip
// the time zone database. The zero value with Loc set is ready to use.
type ZoneCache struct {
	Loc        *time.Location
	start, end int64 // unix seconds, [start, end)
	offset     int
	valid      bool
}

// Offset is the zone's UTC offset in seconds east at the instant us
// (microseconds since the epoch).
func (z *ZoneCache) Offset(us int64) int {
	sec := FloorDiv(us, usPerSec)
	if z.valid && sec >= z.start && sec < z.end {
		return z.offset
	}
	if z.Loc == nil || z.Loc == time.UTC {
		z.start, z.end, z.offset, z.valid = math.MinInt64, math.MaxInt64, 0, true
		return 0
	}
	t := time.Unix(sec, 0).In(z.Loc)
	_, off := t.Zone()
	start, end := t.ZoneBounds()
	z.offset, z.valid = off, true
	z.start, z.end = math.MinInt64, math.MaxInt64
	if !start.IsZero() {
		z.start = start.Unix()
	}
	if !end.IsZero() {
		z.end = end.Unix()
	}
	return off
}

// maxOffsetHours bounds a numeric zone, as PostgreSQL's zone parser does
// (just under a week).
const maxOffsetHours = 167

// ParseTimeZone resolves a value of the TimeZone setting as PostgreSQL's
// SET TIME ZONE reads it:
//   - a number is hours EAST of Greenwich ('5', '-3.5', '+2'), as SQL counts;
//   - "UTC" and its aliases (GMT, Z, Zulu, UCT, Etc/UTC, Universal, and
//     LOCAL and DEFAULT, which reset the zone) are UTC;
//   - anything else is a zone name or a POSIX-style spec (see LoadZone):
//     '+02:00', 'UTC+3' and '<+05>-05' count hours WEST of Greenwich, as
//     POSIX does.
//
// Surrounding white space is ignored.
func ParseTimeZone(v string) (*time.Location, error) {
	s := strings.TrimSpace(v)
	switch strings.ToUpper(s) {
	case "UTC", "GMT", "Z", "ZULU", "UCT", "ETC/UTC", "UNIVERSAL", "LOCAL", "DEFAULT":
		return time.UTC, nil
	}
	if h, err := strconv.ParseFloat(s, 64); err == nil && isPlainNumber(s) {
		if math.Abs(h) > maxOffsetHours {
			return nil, fmt.Errorf("time zone %q: UTC offset out of range", v)
		}
		east := int(math.Round(h * 3600))
		if east == 0 {
			return time.UTC, nil
		}
		return time.FixedZone("<"+formatOffset(east)+">"+formatOffset(-east), east), nil
	}
	return LoadZone(s)
}

// isPlainNumber reports whether s is [+-]digits[.digits]: the numbers SET
// TIME ZONE reads as hours (not "1e3", "inf" or "NaN").
func isPlainNumber(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// formatOffset writes seconds east as +hh, +hh:mm or +hh:mm:ss.
func formatOffset(sec int) string {
	return string(AppendOffset(nil, sec, ISO))
}

var errNoZone = errors.New("time zone not recognized")

// LoadZone resolves a time zone name as AT TIME ZONE and the TimeZone
// setting read one: an IANA name ('Europe/Paris', 'EST5EDT'), or a
// POSIX-style spec of a fixed offset WEST of Greenwich: '+02:00', '-5',
// 'UTC+3', 'XYZ-02:30', '<+05:30>-05:30' (hours, minutes and seconds, at
// most two digits each).
func LoadZone(name string) (*time.Location, error) {
	if name == "" || strings.ContainsAny(name, " \t\r\n") {
		return nil, fmt.Errorf("%w: %q", errNoZone, name)
	}
	if c := name[0]; c == '<' || c == '+' || c == '-' {
		if loc := posixZone(name); loc != nil {
			return loc, nil
		}
		return nil, fmt.Errorf("%w: %q", errNoZone, name)
	}
	loc, err := time.LoadLocation(name)
	if err == nil {
		return loc, nil
	}
	if loc := posixZone(name); loc != nil {
		return loc, nil
	}
	return nil, fmt.Errorf("%w: %q: %w", errNoZone, name, err)
}

// posixZone reads a POSIX-style fixed zone: a name (letters, or anything
// in <>), then [+-]hh[:mm[:ss]] counting WEST of Greenwich; nil when name
// is not one.
func posixZone(name string) *time.Location {
	rest := name
	if strings.HasPrefix(rest, "<") {
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return nil
		}
		rest = rest[end+1:]
	} else {
		k := 0
		for k < len(rest) && (rest[k] >= 'A' && rest[k] <= 'Z' || rest[k] >= 'a' && rest[k] <= 'z') {
			k++
		}
		if k == 0 && rest != "" && rest[0] != '+' && rest[0] != '-' {
			return nil // "5": neither a name nor a signed offset
		}
		rest = rest[k:]
	}
	if rest == "" {
		return nil
	}
	sign := 1
	switch rest[0] {
	case '-':
		sign = -1
		rest = rest[1:]
	case '+':
		rest = rest[1:]
	}
	var parts [3]int
	p, digits := 0, 0
	for i := 0; i < len(rest); i++ {
		switch ch := rest[i]; {
		case ch == ':' && p < 2 && digits > 0:
			p, digits = p+1, 0
		case ch >= '0' && ch <= '9' && digits < 2:
			parts[p] = parts[p]*10 + int(ch-'0')
			digits++
		default:
			return nil
		}
	}
	if digits == 0 || parts[1] > 59 || parts[2] > 59 {
		return nil
	}
	west := sign * (parts[0]*3600 + parts[1]*60 + parts[2])
	return time.FixedZone(name, -west)
}
