package syscat

// ServerSetting is one setting of PostgreSQL 15 as pg_settings describes it
// on a freshly booted server (settings_gen.go lists them all).
type ServerSetting struct {
	Name    string
	BootVal string // the value it boots with, in its unit
	// Shown is what SHOW prints of it on a fresh server ("4MB" for work_mem,
	// also values computed at start such as wal_buffers, and modes in
	// octal), or "" when the reference server's configuration set it.
	Shown    string
	Unit     string // "", "ms", "s", "min", "kB", "8kB", "MB", ...
	Category string
	Desc     string // short_desc
	// Context is when it may change: "user" and "superuser" by SET,
	// "backend" and "superuser-backend" at connection start, the others
	// ("internal", "postmaster", "sighup") never in a session.
	Context  string
	Vartype  string // bool, integer, real, string or enum
	Min, Max string // bounds of integer and real settings
	EnumVals []string
}
