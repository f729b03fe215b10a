package wire

import (
	"strings"
	"time"
)

// location resolves a TimeZone setting, remembering the last one.
func (c *conn) location(name string) *time.Location {
	if c.tzName == name && c.tzLoc != nil {
		return c.tzLoc
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = parseFixedZone(name)
		if loc == nil {
			c.logger.Warn("unknown TimeZone setting; using UTC", "TimeZone", name, "err", err)
			loc = time.UTC
		}
	}
	c.tzName, c.tzLoc = name, loc
	return loc
}

// parseFixedZone reads the POSIX-style fixed zones PostgreSQL accepts and
// SHOW prints: "<+05:30>-05:30", "UTC+3", "-02:15". The offset counts
// hours west of UTC, so "UTC+3" is three hours behind.
func parseFixedZone(name string) *time.Location {
	rest := name
	switch {
	case strings.HasPrefix(rest, "<"):
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return nil
		}
		rest = rest[end+1:]
	default:
		k := 0
		for k < len(rest) && (rest[k] >= 'A' && rest[k] <= 'Z' || rest[k] >= 'a' && rest[k] <= 'z') {
			k++
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
	for _, ch := range rest {
		switch {
		case ch == ':' && p < 2 && digits > 0:
			p, digits = p+1, 0
		case ch >= '0' && ch <= '9' && digits < 2:
			parts[p] = parts[p]*10 + int(ch-'0')
			digits++
		default:
			return nil
		}
	}
	if digits == 0 {
		return nil
	}
	west := sign * (parts[0]*3600 + parts[1]*60 + parts[2])
	return time.FixedZone(name, -west)
}
