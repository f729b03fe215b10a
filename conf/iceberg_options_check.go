package conf

import (
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// optionCheck validates and normalises an option's value; name is the
// option as the user wrote it (a setting or a hint key), for the 22023
// error.
type optionCheck func(name, v string) (string, error)

func InvalidOption(name, v string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for option \"%s\": \"%s\"", name, v)
}

// checkOptionBool accepts true/false (and PostgreSQL's boolean spellings)
// and stores Iceberg's true/false.
func checkOptionBool(name, v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "1", "t", "y":
		return "true", nil
	case "false", "off", "no", "0", "f", "n":
		return "false", nil
	}
	return "", InvalidOption(name, v).WithHint("The option takes true or false.")
}

// checkOptionEnum accepts one of vals, case-insensitively, stored as
// spelled in vals.
func checkOptionEnum(vals ...string) optionCheck {
	return func(name, v string) (string, error) {
		for _, ok := range vals {
			if strings.EqualFold(strings.TrimSpace(v), ok) {
				return ok, nil
			}
		}
		return "", InvalidOption(name, v).WithHint("Available values: %s.", strings.Join(vals, ", "))
	}
}

// checkOptionInt accepts an integer in [lo, hi].
func checkOptionInt(lo, hi int64) optionCheck {
	return func(name, v string) (string, error) {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return "", InvalidOption(name, v).WithHint("The option takes an integer.")
		}
		if n < lo || n > hi {
			return "", InvalidOption(name, v).WithDetail("%d is outside the valid range for the option (%d .. %d).", n, lo, hi)
		}
		return strconv.FormatInt(n, 10), nil
	}
}

// checkOptionLong accepts any 64-bit integer (a snapshot id).
func checkOptionLong(name, v string) (string, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return "", InvalidOption(name, v).WithHint("The option takes a 64-bit integer.")
	}
	return strconv.FormatInt(n, 10), nil
}

// checkOptionText accepts any value.
func checkOptionText(_, v string) (string, error) { return v, nil }

// checkOptionTimestamp accepts epoch milliseconds (Iceberg's form) or a
// timestamp with a time zone or offset ("2024-01-02 03:04:05+00"),
// stored as milliseconds.
func checkOptionTimestamp(name, v string) (string, error) {
	s := strings.TrimSpace(v)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatInt(n, 10), nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z07", "2006-01-02T15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05.999999999-0700", "2006-01-02 15:04:05.999999999 MST"} {
		if t, err := time.Parse(layout, s); err == nil {
			return strconv.FormatInt(t.UnixMilli(), 10), nil
		}
	}
	return "", InvalidOption(name, v).WithHint("The option takes epoch milliseconds or a timestamp with a time zone offset.")
}
