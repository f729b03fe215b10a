package settings

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/syscat"
)

// Def describes one session setting (a GUC in PostgreSQL's terms).
type Def struct {
	Name     string // canonical spelling, as SHOW prints the column name
	Doc      string // SHOW ALL's description
	Default  string
	Reported bool // sent with ParameterStatus when it changes
	ReadOnly bool // SET fails with 55P02 (cannot be changed)
	// Check validates and normalises a value; nil accepts anything.
	Check func(v, cur string) (string, error)
	// server describes a PostgreSQL setting icegate keeps but does not act
	// on (settings_pg.go); nil for icegate's own.
	Server *syscat.ServerSetting
}

// Defs is the registry of the settings a session knows. Names are
// matched case-insensitively. session_authorization's default is the
// session's user, filled in when the session starts.
var Defs = allSettingDefs()

// ownSettingDefs are icegate's own settings and the PostgreSQL settings it
// acts on.
func ownSettingDefs() []Def {
	return []Def{
		{Name: "application_name", Doc: "Sets the application name to be reported in statistics and logs.", Default: "", Reported: true},
		{Name: "bytea_output", Doc: "Sets the output format for bytea.", Default: "hex", Check: oneOf("hex", "escape")},
		{Name: "client_encoding", Doc: "Sets the client's character set encoding.", Default: "UTF8", Reported: true, Check: checkEncoding},
		{Name: "DateStyle", Doc: "Sets the display format for date and time values.", Default: "ISO, MDY", Reported: true, Check: checkDateStyle},
		{Name: "extra_float_digits", Doc: "Sets the number of digits displayed for floating-point values.", Default: "1", Check: checkIntRange(-15, 3)},
		{Name: "integer_datetimes", Doc: "Shows whether datetimes are integer based.", Default: "on", Reported: true, ReadOnly: true},
		{Name: "IntervalStyle", Doc: "Sets the display format for interval values.", Default: "postgres", Reported: true,
			Check: oneOf("postgres", "postgres_verbose", "sql_standard", "iso_8601")},
		{Name: "is_superuser", Doc: "Shows whether the current user is a superuser.", Default: "on", Reported: true, ReadOnly: true},
		{Name: "lc_messages", Doc: "Sets the language in which messages are displayed.", Default: "C"},
		{Name: "lc_monetary", Doc: "Sets the locale for formatting monetary amounts.", Default: "C"},
		{Name: "lc_numeric", Doc: "Sets the locale for formatting numbers.", Default: "C"},
		{Name: "lc_time", Doc: "Sets the locale for formatting date and time values.", Default: "C"},
		{Name: "max_identifier_length", Doc: "Shows the maximum identifier length.", Default: "63", ReadOnly: true},
		{Name: "max_index_keys", Doc: "Shows the maximum number of index keys.", Default: "32", ReadOnly: true},
		{Name: "max_function_args", Doc: "Shows the maximum number of function arguments.", Default: "100", ReadOnly: true},
		{Name: "block_size", Doc: "Shows the size of a disk block.", Default: "8192", ReadOnly: true},
		{Name: "search_path", Doc: "Sets the schema search order for names that are not schema-qualified.", Default: "public, default"},
		{Name: "server_encoding", Doc: "Shows the server (database) character set encoding.", Default: "UTF8", Reported: true, ReadOnly: true},
		{Name: "server_version", Doc: "Shows the server version.", Default: syscat.PGVersion, Reported: true, ReadOnly: true},
		{Name: "server_version_num", Doc: "Shows the server version as an integer.", Default: strconv.Itoa(syscat.PGVersionNum), ReadOnly: true},
		{Name: "session_authorization", Doc: "Sets the session user name.", Default: "", Reported: true},
		{Name: "role", Doc: "Sets the current role.", Default: "none"},
		{Name: "standard_conforming_strings", Doc: "Causes '...' strings to treat backslashes literally.", Default: "on", Reported: true, Check: oneOf("on")},
		{Name: "statement_timeout", Doc: "Sets the maximum allowed duration of any statement.", Default: "0", Check: checkMillis},
		// pg_dump --quote-all-identifiers sets this to have the server's
		// deparsing functions quote every name; icegate's do not.
		{Name: "quote_all_identifiers", Doc: "When generating SQL fragments, quote all identifiers.", Default: "off", Check: checkQuoteAll},
		{Name: "idle_in_transaction_session_timeout", Doc: "Sets the maximum allowed idle time between queries, when in a transaction.", Default: "0", Check: checkMillisOf("idle_in_transaction_session_timeout")},
		{Name: StatementMemName, Doc: "Sets the most memory one statement may hold (sorts, hash tables, windows, aggregated and computed values), at most the server's max_statement_mem (0: that); past it the statement fails with 53200.", Default: defaultStatementMem, Check: checkMemory},
		{Name: OptimizerPassesName, Doc: "Names optimizer passes to skip (comma-separated), for debugging a plan; EXPLAIN VERBOSE lists the passes that ran.", Default: "", Check: checkOptimizerPasses},
		{Name: "TimeZone", Doc: "Sets the time zone for displaying and interpreting time stamps.", Default: "UTC", Reported: true, Check: checkTimeZone},
		{Name: "transaction_isolation", Doc: "Sets the current transaction's isolation level.", Default: "read committed", Check: checkIsolation},
		{Name: "default_transaction_isolation", Doc: "Sets the transaction isolation level of each new transaction.", Default: "read committed", Check: checkIsolation},
		{Name: "default_transaction_read_only", Doc: "Sets the default read-only status of new transactions.", Default: "off", Check: checkBool},
		{Name: "transaction_read_only", Doc: "Sets the current transaction's read-only status.", Default: "off", Check: checkBool},
		{Name: "default_transaction_deferrable", Doc: "Sets the default deferrable status of new transactions.", Default: "off", Check: checkBool},
		{Name: "transaction_deferrable", Doc: "Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures.", Default: "off", Check: checkBool},
		{Name: "scram_iterations", Doc: "Sets the iteration count for SCRAM secret generation.", Default: "4096"},
		{Name: "in_hot_standby", Doc: "Shows whether hot standby is currently active.", Default: "off", Reported: true, ReadOnly: true},
	}
}

// settingAliases maps alternative names to canonical ones (lower case).
var settingAliases = allSettingAliases()

// ownSettingAliases are the alternative names of PostgreSQL's settings.
func ownSettingAliases() map[string]string {
	return map[string]string{
		"time zone": "timezone",
		"names":     "client_encoding",
	}
}

// Lookup finds a setting by name, case-insensitively.
func Lookup(name string) *Def {
	if i, ok := settingIndex()[canonicalSettingName(name)]; ok {
		return &Defs[i]
	}
	return nil
}

// canonicalSettingName is the lower-case name a setting is indexed by.
func canonicalSettingName(name string) string {
	n := strings.ToLower(name)
	if strings.IndexByte(n, '.') > 0 {
		n = conf.NormalizeSettingName(n) // iceberg.split-size is iceberg.split_size
	}
	if a, ok := settingAliases[n]; ok {
		n = a
	}
	return n
}

// Values holds a session's current values, keyed by canonical name.
type Values struct {
	values map[string]string
	// custom holds placeholder settings whose names have a dot
	// ("myapp.tenant"), which PostgreSQL lets any session set.
	custom map[string]string
	// maxMem bounds statement_mem (memlimit.go); 0: no bound.
	maxMem int64
}

func New(user string) *Values {
	s := &Values{values: map[string]string{}, custom: map[string]string{}}
	for _, d := range Defs {
		s.values[d.Name] = d.Default
	}
	s.values["session_authorization"] = user
	return s
}

// Get returns the value of a setting, or "" and false when it is unknown.
func (s *Values) Get(name string) (string, bool) {
	d := Lookup(name)
	if d == nil {
		v, ok := s.custom[strings.ToLower(name)]
		return v, ok
	}
	return s.values[d.Name], true
}

// Set validates and stores a value. Errors: 42704 unknown setting, 55P02
// read-only, 22023 invalid value.
func (s *Values) Set(name, value string) error {
	d := Lookup(name)
	if d == nil {
		if IsCustom(name) {
			s.custom[strings.ToLower(name)] = value
			return nil
		}
		return Unknown(name)
	}
	if d.ReadOnly {
		if cur := s.values[d.Name]; strings.EqualFold(cur, value) {
			return nil
		}
		if d.Server != nil {
			return fixedSettingError(name, d.Server.Context)
		}
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed", strings.ToLower(name))
	}
	if d.Server != nil && d.Server.Context == "superuser" && s.values["is_superuser"] == "off" {
		// log_statement, log_min_duration_statement...: as PostgreSQL,
		// only a superuser may change them.
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set parameter \"%s\"", strings.ToLower(name))
	}
	return s.store(d, value)
}

// SetServerDefault sets a value from the server's configuration
// (log.statement...): checked as SET checks it, but not held to the
// session's privileges.
func (s *Values) SetServerDefault(name, value string) error {
	d := Lookup(name)
	if d == nil {
		return Unknown(name)
	}
	return s.store(d, value)
}

// SetAtStartup is set for a connection's startup parameters, which may
// also set PostgreSQL's settings fixed at connection start.
func (s *Values) SetAtStartup(name, value string) error {
	if d := Lookup(name); d != nil && d.Server != nil && d.ReadOnly && startupContext(d.Server.Context) {
		return s.store(d, value)
	}
	return s.Set(name, value)
}

// store validates a value of d and keeps it.
func (s *Values) store(d *Def, value string) error {
	if d.Check != nil {
		v, err := d.Check(value, s.values[d.Name])
		if err != nil {
			return err
		}
		value = v
	}
	if d.Name == StatementMemName {
		if err := s.checkMemoryMax(value); err != nil {
			return err
		}
	}
	s.values[d.Name] = value
	return nil
}

// Reset restores a setting to its default.
func (s *Values) Reset(name string, user string) error {
	d := Lookup(name)
	if d == nil {
		if IsCustom(name) {
			// A placeholder, once set, stays defined (empty).
			s.custom[strings.ToLower(name)] = ""
			return nil
		}
		return Unknown(name)
	}
	if d.ReadOnly {
		if d.Server != nil {
			return fixedSettingError(name, d.Server.Context)
		}
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed", strings.ToLower(name))
	}
	s.values[d.Name] = s.defaultOf(d)
	if d.Name == "session_authorization" {
		s.values[d.Name] = user
	}
	return nil
}

// ResetAll restores every changeable setting but the session's
// identity (session_authorization and role), which RESET ALL keeps in
// PostgreSQL; DISCARD ALL resets those too (ResetIdentity).
func (s *Values) ResetAll(user string) {
	for k := range s.custom {
		s.custom[k] = ""
	}
	for _, d := range Defs {
		if !d.ReadOnly && d.Name != "session_authorization" && d.Name != "role" {
			s.values[d.Name] = s.defaultOf(&d)
		}
	}
}

// ResetIdentity makes user the session user again, with no role set.
func (s *Values) ResetIdentity(user string) {
	s.values["session_authorization"] = user
	s.values["role"] = "none"
}

// Value is a setting's current value by canonical name ("" for none),
// without the checks and aliases of get.
func (s *Values) Value(name string) string { return s.values[name] }

// Put stores a value the caller has checked, under a canonical name.
func (s *Values) Put(name, v string) { s.values[name] = v }

// DeclareCustom makes a placeholder setting (a dotted name) exist, empty,
// if it does not yet.
func (s *Values) DeclareCustom(name string) {
	if _, ok := s.custom[strings.ToLower(name)]; !ok {
		s.custom[strings.ToLower(name)] = ""
	}
}

// Saved is a copy of a session's settings, to restore at ROLLBACK
// or ROLLBACK TO SAVEPOINT.
type Saved struct {
	values, custom map[string]string
}

func (s *Values) Save() Saved {
	return Saved{values: maps.Clone(s.values), custom: maps.Clone(s.custom)}
}

// A placeholder setting created since keeps existing, empty, as in
// PostgreSQL.
func (s *Values) Restore(st Saved) {
	custom := maps.Clone(st.custom)
	for k := range s.custom {
		if _, ok := custom[k]; !ok {
			custom[k] = ""
		}
	}
	s.values, s.custom = maps.Clone(st.values), custom
}

// RestoreOne sets a setting back to a saved value (key as canonicalKey
// returns it; "" for a custom setting means it did not exist).
func (s *Values) RestoreOne(key, v string) {
	if d := Lookup(key); d != nil {
		s.values[d.Name] = v
		return
	}
	if v == unsetMarker {
		v = ""
	}
	s.custom[key] = v
}

// unsetMarker stands for a custom setting that did not exist.
const unsetMarker = "\x00unset"

// Current returns a setting's value for restoreOne: a custom setting that
// does not exist is a marker value.
func (s *Values) Current(name string) (key, v string) {
	if d := Lookup(name); d != nil {
		return d.Name, s.values[d.Name]
	}
	key = strings.ToLower(name)
	if v, ok := s.custom[key]; ok {
		return key, v
	}
	return key, unsetMarker
}

// Reported returns the values of the settings reported by ParameterStatus.
func (s *Values) Reported() map[string]string {
	m := map[string]string{}
	for _, d := range Defs {
		if d.Reported {
			m[d.Name] = s.values[d.Name]
		}
	}
	return m
}

// ReportedEqual reports whether sent holds exactly the current values of
// the settings reported by ParameterStatus, without building them.
func (s *Values) ReportedEqual(sent map[string]string) bool {
	n := 0
	for _, d := range Defs {
		if d.Reported {
			n++
			if v, ok := sent[d.Name]; !ok || v != s.values[d.Name] {
				return false
			}
		}
	}
	return n == len(sent)
}

// Location returns the session time zone.
func (s *Values) Location() *time.Location {
	loc, err := pgtext.ParseTimeZone(s.values["TimeZone"])
	if err != nil {
		return time.UTC
	}
	return loc
}

// SearchPath returns the schemas of search_path in order.
func (s *Values) SearchPath() []string {
	return splitSearchPath(s.values["search_path"])
}

func InvalidValue(name, value string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, value)
}

func oneOf(vals ...string) func(string, string) (string, error) {
	return func(v, _ string) (string, error) {
		for _, ok := range vals {
			if strings.EqualFold(v, ok) {
				return ok, nil
			}
		}
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter: \"%s\"", v).
			WithHint("Available values: %s.", strings.Join(vals, ", "))
	}
}

func checkIsolation(v, _ string) (string, error) {
	switch l := strings.ToLower(strings.TrimSpace(v)); l {
	case "serializable", "repeatable read", "read committed", "read uncommitted":
		return l, nil
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"transaction_isolation\": \"%s\"", v).
		WithHint("Available values: serializable, repeatable read, read committed, read uncommitted.")
}

// checkQuoteAll accepts quote_all_identifiers = off only.
func checkQuoteAll(v, cur string) (string, error) {
	b, err := checkBool(v, cur)
	if err != nil || b == "off" {
		return b, err
	}
	return "", pgerr.New(pgerr.FeatureNotSupported, "quote_all_identifiers = on is not supported").
		WithDetail("icegate's quote_ident and catalog functions quote only the names that need it.")
}

// checkBool accepts PostgreSQL's boolean spellings and stores on/off.
func checkBool(v, _ string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1", "t", "y":
		return "on", nil
	case "off", "false", "no", "0", "f", "n":
		return "off", nil
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "parameter requires a Boolean value")
}

func checkIntRange(lo, hi int) func(string, string) (string, error) {
	return func(v, _ string) (string, error) {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter: \"%s\"", v)
		}
		if n < lo || n > hi {
			return "", pgerr.New(pgerr.InvalidParameterValue,
				"%d is outside the valid range for parameter (%d .. %d)", n, lo, hi)
		}
		return strconv.Itoa(n), nil
	}
}

func checkEncoding(v, _ string) (string, error) {
	switch strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(v), "-", "")) {
	case "UTF8", "UNICODE":
		return "UTF8", nil
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"client_encoding\": \"%s\"", v).
		WithDetail("icegate supports only the UTF8 client encoding.")
}

// checkDateStyle accepts PostgreSQL's DateStyle values: an output style
// (ISO, SQL, Postgres, German) and/or an order (DMY, MDY, YMD, with the
// aliases Euro/European and US/NonEuro/NonEuropean), case-insensitively.
// The result is PostgreSQL's canonical spelling ("ISO, MDY"); a part not
// given keeps its current value.
func checkDateStyle(v, cur string) (string, error) {
	style, order := "ISO", "MDY"
	if cs, co, ok := strings.Cut(cur, ", "); ok {
		style, order = cs, co
	}
	haveOrder := false
	for _, part := range strings.Split(v, ",") {
		p := strings.ToLower(strings.TrimSpace(part))
		switch p {
		case "iso":
			style = "ISO"
		case "sql":
			style = "SQL"
		case "postgres":
			style = "Postgres"
		case "german":
			style = "German"
			if !haveOrder {
				order = "DMY"
			}
		case "dmy", "euro", "european":
			order, haveOrder = "DMY", true
		case "mdy", "us", "noneuro", "noneuropean":
			order, haveOrder = "MDY", true
		case "ymd":
			order, haveOrder = "YMD", true
		case "default":
		default:
			return "", InvalidValue("DateStyle", v).WithDetail("Unrecognized key word: \"%s\".", strings.TrimSpace(part))
		}
	}
	return style + ", " + order, nil
}

// checkTimeZone accepts what pgtext.ParseTimeZone reads: IANA names,
// UTC/GMT/Z, numbers of hours and POSIX-style offsets.
func checkTimeZone(v, _ string) (string, error) {
	if _, err := pgtext.ParseTimeZone(v); err != nil {
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", v)
	}
	return v, nil
}

// PosixZone is the value SET TIME ZONE <number> and SET TIME ZONE
// INTERVAL store: an offset sec seconds EAST of Greenwich written in POSIX
// form, as PostgreSQL stores it: <+05>-05.
func PosixZone(sec int) string {
	if sec == 0 {
		return "<+00>-00" // PostgreSQL's spelling
	}
	return "<" + formatOffset(sec) + ">" + formatOffset(-sec)
}

func formatOffset(sec int) string {
	sign := '+'
	if sec < 0 {
		sign, sec = '-', -sec
	}
	if sec%3600 == 0 {
		return fmt.Sprintf("%c%02d", sign, sec/3600)
	}
	return fmt.Sprintf("%c%02d:%02d", sign, sec/3600, sec%3600/60)
}

// splitSearchPath splits a search_path value into schema names: quoted
// names keep their case, unquoted ones fold to lower case.
func splitSearchPath(v string) []string {
	var out []string
	for _, part := range strings.Split(v, ",") {
		p := strings.TrimSpace(part)
		if p == "" {
			continue
		}
		if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' {
			out = append(out, strings.ReplaceAll(p[1:len(p)-1], `""`, `"`))
			continue
		}
		out = append(out, strings.ToLower(p))
	}
	return out
}

// checkMillis accepts a time in milliseconds with an optional unit (ms, s,
// min, h, d), as PostgreSQL's time settings do; SHOW prints it as given.
func checkMillis(v, cur string) (string, error) { return checkMillisOf("statement_timeout")(v, cur) }

// checkMillisOf validates a duration setting called name.
func checkMillisOf(name string) func(v, _ string) (string, error) {
	return func(v, _ string) (string, error) {
		if _, ok := ParseMillis(v); !ok {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v)
		}
		return strings.TrimSpace(v), nil
	}
}

// ParseMillis parses "500", "5s", "1min", "250 ms" into milliseconds.
func ParseMillis(v string) (int64, bool) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	mult := map[string]int64{"": 1, "ms": 1, "s": 1000, "min": 60000, "h": 3600000, "d": 86400000}[strings.TrimSpace(s[i:])]
	if mult == 0 {
		return 0, false
	}
	return n * mult, true
}

// IsCustom reports whether name is a placeholder setting name
// (qualified with a dot, as extensions and applications use).
func IsCustom(name string) bool {
	if conf.IsReservedOptionName(name) {
		return false // iceberg.* holds only the options' settings
	}
	i := strings.IndexByte(name, '.')
	return i > 0 && i < len(name)-1
}

// Unknown is the error for a setting no one defined (42704).
func Unknown(name string) error {
	return pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter \"%s\"", strings.ToLower(name))
}
