package settings

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
)

// PostgreSQL's other settings. Applications, drivers, dump tools and
// migration scripts set work_mem, lock_timeout, jit, synchronous_commit or
// enable_seqscan as a matter of course, at connection start or with SET.
// icegate knows every setting PostgreSQL 15 has (syscat.ServerSettings):
// those a session may change are validated as PostgreSQL validates them,
// kept, shown by SHOW, current_setting() and pg_settings, and otherwise
// have no effect; the others keep the value a fresh server boots with and
// refuse a change with PostgreSQL's 55P02. The settings icegate acts on
// (settingDefs' own entries) take precedence over these.
//
// serverSettingDefs are those of PostgreSQL's settings not in have.
func serverSettingDefs(have []Def) []Def {
	known := make(map[string]bool, len(have))
	for _, d := range have {
		known[strings.ToLower(d.Name)] = true
	}
	var out []Def
	for i := range syscat.ServerSettings {
		ss := &syscat.ServerSettings[i]
		if known[canonicalSettingName(ss.Name)] {
			continue
		}
		def := ss.Shown
		if def == "" {
			def = formatServerSetting(ss, ss.BootVal)
		}
		out = append(out, Def{Name: ss.Name, Doc: ss.Desc, Default: def,
			ReadOnly: !SessionContext(ss.Context), Server: ss, Check: serverSettingCheck(ss)})
	}
	return out
}

// settingIndex maps each setting's lower-case name to its position in
// settingDefs, built on first use.
var settingIndex = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(Defs))
	for i := range Defs {
		m[strings.ToLower(Defs[i].Name)] = i
	}
	return m
})

// SessionContext reports whether a session may SET a setting of this
// pg_settings context (every icegate user is a superuser today).
func SessionContext(context string) bool {
	return context == "user" || context == "superuser"
}

// startupContext reports whether a connection's startup packet may set a
// setting of this context: the session's own, and those fixed at start.
func startupContext(context string) bool {
	return SessionContext(context) || context == "backend" || context == "superuser-backend"
}

// fixedSettingError is PostgreSQL's 55P02 for a change of a setting a
// session cannot make now.
func fixedSettingError(name, context string) error {
	name = strings.ToLower(name)
	switch context {
	case "postmaster":
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed without restarting the server", name)
	case "sighup":
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed now", name)
	case "backend", "superuser-backend":
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be set after connection start", name)
	}
	return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed", name)
}

// serverSettingCheck validates a value of a PostgreSQL setting by its type
// and bounds, and returns it as SHOW prints it.
func serverSettingCheck(ss *syscat.ServerSetting) func(v, cur string) (string, error) {
	hook := serverSettingHooks[ss.Name]
	return func(v, _ string) (string, error) {
		if hook != nil {
			return hook(ss, v)
		}
		return checkServerValue(ss, v)
	}
}

// checkServerValue validates a value by the setting's type and bounds.
func checkServerValue(ss *syscat.ServerSetting, v string) (string, error) {
	{
		switch ss.Vartype {
		case "bool":
			b, err := checkBool(v, "")
			if err != nil {
				return "", pgerr.New(pgerr.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", ss.Name)
			}
			return b, nil
		case "enum":
			for _, e := range ss.EnumVals {
				if strings.EqualFold(strings.TrimSpace(v), e) {
					return e, nil
				}
			}
			return "", InvalidValue(ss.Name, v).WithHint("Available values: %s.", strings.Join(ss.EnumVals, ", "))
		case "integer":
			n, err := parseServerInt(ss, v)
			if err != nil {
				return "", err
			}
			return formatServerSetting(ss, strconv.FormatInt(n, 10)), nil
		case "real":
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(f) {
				return "", InvalidValue(ss.Name, v)
			}
			lo, _ := strconv.ParseFloat(ss.Min, 64)
			hi, _ := strconv.ParseFloat(ss.Max, 64)
			if ss.Min != "" && (f < lo || f > hi) {
				return "", pgerr.New(pgerr.InvalidParameterValue, "%s is outside the valid range for parameter \"%s\" (%s .. %s)",
					strconv.FormatFloat(f, 'g', -1, 64), ss.Name, ss.Min, ss.Max)
			}
			return formatServerSetting(ss, strconv.FormatFloat(f, 'g', -1, 64)), nil
		}
		return v, nil
	}
}

// Units of integer settings, as multiples of the smallest of their kind.
var (
	memoryUnits = []unitSize{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}, {"B", 1}}
	timeUnits   = []unitSize{{"d", 86400000000}, {"h", 3600000000}, {"min", 60000000}, {"s", 1000000}, {"ms", 1000}, {"us", 1}}
)

type unitSize struct {
	name string
	size int64
}

// baseUnit returns the units of a setting's kind, the size of its own
// unit ("8kB" is 8192 bytes) and of the smallest unit SHOW uses for it
// (1024 for "8kB"), or nil when it has no unit.
func baseUnit(unit string) (units []unitSize, own, smallest int64) {
	mult := int64(1)
	if n := strings.TrimRight(unit, "kBMGTminsuhd"); n != "" {
		mult, _ = strconv.ParseInt(n, 10, 64)
		unit = unit[len(n):]
	}
	for _, units := range [][]unitSize{memoryUnits, timeUnits} {
		for _, u := range units {
			if u.name == unit {
				return units, u.size * mult, u.size
			}
		}
	}
	return nil, 1, 1
}

// parseServerInt reads an integer setting as PostgreSQL does: a number in
// the setting's unit, or a number with a unit of the same kind, rounded to
// the setting's unit, within its bounds.
func parseServerInt(ss *syscat.ServerSetting, v string) (int64, error) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && (s[i] == '-' || s[i] == '+' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9')) {
		i++
	}
	num, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, InvalidValue(ss.Name, v)
	}
	units, own, _ := baseUnit(ss.Unit)
	if suffix := strings.TrimSpace(s[i:]); suffix != "" {
		var size int64
		for _, u := range units {
			if u.name == suffix {
				size = u.size
			}
		}
		if size == 0 {
			e := InvalidValue(ss.Name, v)
			if units != nil {
				e = e.WithHint("Valid units for this parameter are %s.", unitNames(units))
			}
			return 0, e
		}
		num = num * float64(size) / float64(own)
	}
	n := math.Round(num)
	lo, _ := strconv.ParseInt(ss.Min, 10, 64)
	hi, _ := strconv.ParseInt(ss.Max, 10, 64)
	if n < float64(lo) || n > float64(hi) {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "%s%s is outside the valid range for parameter \"%s\" (%d .. %d)",
			strconv.FormatFloat(n, 'f', -1, 64), ss.Unit, ss.Name, lo, hi)
	}
	return int64(n), nil
}

func unitNames(units []unitSize) string {
	names := make([]string, len(units))
	for i, u := range units {
		names[len(units)-1-i] = "\"" + u.name + "\""
	}
	return strings.Join(names, ", ")
}

// formatServerSetting prints a setting's value (numbers in the setting's
// unit) as SHOW does: a whole amount with a unit in the largest unit that
// divides it, other values as they are.
func formatServerSetting(ss *syscat.ServerSetting, v string) string {
	if (ss.Vartype != "integer" && ss.Vartype != "real") || ss.Unit == "" {
		return v
	}
	units, own, smallest := baseUnit(ss.Unit)
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || units == nil || f <= 0 {
		return v
	}
	if ss.Vartype == "real" {
		smallest = 1 // 3.5ms shows as 3500us
	}
	b := f * float64(own)
	if b != math.Trunc(b) || b > 1<<62 {
		return v + strings.TrimLeft(ss.Unit, "0123456789")
	}
	base := int64(b)
	for _, u := range units {
		if u.size >= smallest && base%u.size == 0 {
			return strconv.FormatInt(base/u.size, 10) + u.name
		}
	}
	return v
}

// RawServer is pg_settings.setting of a shown value: an integer in
// the setting's own unit.
func RawServer(ss *syscat.ServerSetting, shown string) string {
	if ss.Vartype != "integer" || ss.Unit == "" {
		return shown
	}
	n, err := parseServerInt(ss, shown)
	if err != nil {
		return shown
	}
	return strconv.FormatInt(n, 10)
}

// serverSettingHooks validate the settings whose values PostgreSQL checks
// against more than their type: names of objects it has, limits of the
// platform, and values it shows its own way.
var serverSettingHooks = map[string]func(ss *syscat.ServerSetting, v string) (string, error){
	// The kernel's values when 0; shown as plain numbers.
	"tcp_keepalives_idle":     showPlainNumber,
	"tcp_keepalives_interval": showPlainNumber,
	"tcp_keepalives_count":    showPlainNumber,
	"tcp_user_timeout":        showPlainNumber,
	// Lists of file names, shown quoted.
	"local_preload_libraries":   quoteListValue,
	"session_preload_libraries": quoteListValue,
	"default_table_access_method": func(ss *syscat.ServerSetting, v string) (string, error) {
		if v != "heap" {
			return "", InvalidValue(ss.Name, v).WithDetail("Table access method \"%s\" does not exist.", v)
		}
		return v, nil
	},
	"default_tablespace": func(ss *syscat.ServerSetting, v string) (string, error) {
		if v != "" && v != "pg_default" {
			return "", InvalidValue(ss.Name, v).WithDetail("Tablespace \"%s\" does not exist.", v)
		}
		return v, nil
	},
	"temp_tablespaces": func(ss *syscat.ServerSetting, v string) (string, error) {
		if v == "" {
			return `""`, nil
		}
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "pg_default" {
				return "", pgerr.New(pgerr.UndefinedObject, "tablespace \"%s\" does not exist", n)
			}
		}
		return v, nil
	},
	"max_stack_depth": func(ss *syscat.ServerSetting, v string) (string, error) {
		n, err := parseServerInt(ss, v)
		if err != nil {
			return "", err
		}
		if n > 7680 {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": %d", ss.Name, n).
				WithDetail("\"max_stack_depth\" must not exceed 7680kB.")
		}
		return formatServerSetting(ss, strconv.FormatInt(n, 10)), nil
	},
	"restrict_nonsystem_relation_kind": func(ss *syscat.ServerSetting, v string) (string, error) {
		for _, k := range strings.Split(v, ",") {
			if k = strings.TrimSpace(k); k != "view" && k != "foreign-table" && k != "" {
				return "", InvalidValue(ss.Name, v).WithDetail("Unrecognized key word: \"%s\".", k)
			}
		}
		return v, nil
	},
	"timezone_abbreviations": func(ss *syscat.ServerSetting, v string) (string, error) {
		for _, set := range []string{"Default", "Australia", "India"} {
			if v == set {
				return v, nil
			}
		}
		return "", InvalidValue(ss.Name, v)
	},
	"default_text_search_config": func(ss *syscat.ServerSetting, v string) (string, error) {
		name := strings.TrimPrefix(v, "pg_catalog.")
		if name == "" {
			return "", pgerr.New(pgerr.InvalidName, "invalid name syntax")
		}
		for _, c := range textSearchConfigs {
			if name == c {
				return "pg_catalog." + c, nil
			}
		}
		return "", InvalidValue(ss.Name, v)
	},
	// on and the other true spellings mean pglz.
	"wal_compression": func(ss *syscat.ServerSetting, v string) (string, error) {
		if b, err := checkBool(v, ""); err == nil {
			if b == "on" {
				return "pglz", nil
			}
			return "off", nil
		}
		return checkServerValue(ss, v)
	},
}

// textSearchConfigs are the text search configurations PostgreSQL 15
// ships.
var textSearchConfigs = []string{"arabic", "armenian", "basque", "catalan", "danish", "dutch", "english",
	"finnish", "french", "german", "greek", "hindi", "hungarian", "indonesian", "irish", "italian",
	"lithuanian", "nepali", "norwegian", "portuguese", "romanian", "russian", "serbian", "simple",
	"spanish", "swedish", "tamil", "turkish", "yiddish"}

// showPlainNumber checks an integer setting and shows it as a number in
// its unit; 0 (the kernel's value) shows the fresh server's value.
func showPlainNumber(ss *syscat.ServerSetting, v string) (string, error) {
	n, err := parseServerInt(ss, v)
	if err != nil {
		return "", err
	}
	if n == 0 && ss.Shown != "" {
		return ss.Shown, nil
	}
	return strconv.FormatInt(n, 10), nil
}

// quoteListValue shows a list setting's value as one element, quoted as
// an identifier when it needs it.
func quoteListValue(_ *syscat.ServerSetting, v string) (string, error) {
	return syscat.QuoteIdent(v), nil
}
