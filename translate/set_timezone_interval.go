package translate

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/settings"
)

// SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE (Sequelize's connection
// default), as PostgreSQL reads it: the interval is the zone's offset east
// of Greenwich, stored as a POSIX zone like SET TIME ZONE <number>. It may
// hold no months or days.

// The field bits of an interval's qualifier (PostgreSQL's INTERVAL_MASK).
const (
	intervalMonth  = 1 << 1
	intervalYear   = 1 << 2
	intervalDay    = 1 << 3
	intervalHour   = 1 << 10
	intervalMinute = 1 << 11
	intervalSecond = 1 << 12
)

// timeZoneInterval is the TimeZone value of SET TIME ZONE INTERVAL.
func timeZoneInterval(tc *pg.TypeCast) (string, error) {
	names := tc.GetTypeName().GetNames()
	if len(names) == 0 || names[len(names)-1].GetString_().GetSval() != "interval" {
		return "", pgerr.New(pgerr.SyntaxError, "SET TIME ZONE takes only constant values")
	}
	sv := tc.GetArg().GetAConst().GetSval()
	if sv == nil {
		return "", pgerr.New(pgerr.SyntaxError, "SET TIME ZONE takes only constant values")
	}
	text := strings.TrimSpace(sv.Sval)
	fields := int64(0)
	if mods := tc.GetTypeName().GetTypmods(); len(mods) > 0 {
		if iv := mods[0].GetAConst().GetIval(); iv != nil {
			fields = int64(iv.Ival)
		}
	}
	if _, err := strconv.ParseFloat(text, 64); err == nil {
		// A bare number counts the qualifier's lowest field.
		switch {
		case fields&intervalSecond != 0 || fields == 0:
			text += " seconds"
		case fields&intervalMinute != 0:
			text += " minutes"
		case fields&intervalHour != 0:
			text += " hours"
		case fields&intervalDay != 0:
			text += " days"
		case fields&intervalMonth != 0:
			text += " months"
		case fields&intervalYear != 0:
			text += " years"
		}
	}
	months, days, micros, err := expr.ParseIntervalText(text)
	if err != nil {
		return "", err
	}
	bad := func(what string) error {
		e := pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"INTERVAL '%s'\"", sv.Sval)
		e.Detail = "Cannot specify " + what + " in time zone interval."
		return e
	}
	switch {
	case months != 0:
		return "", bad("months")
	case days != 0:
		return "", bad("days")
	}
	return settings.PosixZone(int(micros / 1_000_000)), nil
}
