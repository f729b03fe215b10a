package wire

import (
	"time"

	"github.com/icegate/icegate/internal/pgtext"
)

// location resolves a TimeZone setting, remembering the last one.
func (c *conn) location(name string) *time.Location {
	if c.tzName == name && c.tzLoc != nil {
		return c.tzLoc
	}
	loc, err := pgtext.ParseTimeZone(name)
	if err != nil {
		c.logger.Warn("unknown TimeZone setting; using UTC", "TimeZone", name, "err", err)
		loc = time.UTC
	}
	c.tzName, c.tzLoc = name, loc
	return loc
}
