// Package settings holds a session's settings (PostgreSQL's GUCs): the
// registry of every setting a session knows and a session's values.
//
// The registry (Defs, Lookup) joins three kinds: icegate's own settings and
// the PostgreSQL settings icegate acts on (settings.go: TimeZone,
// search_path, statement_timeout, statement_mem, the transaction
// characteristics, ...); the Iceberg options a session may set
// (settings_options.go, from conf's options registry); and every other
// PostgreSQL 15 setting, which icegate keeps, checks by type, unit and
// bounds and shows as PostgreSQL does without acting on it
// (settings_pg.go, from the list syscat generates off a reference server).
//
// Values is one session's current values: Set checks a value against its
// Def, Save and Restore take and give back a copy for ROLLBACK and
// savepoints, Reported lists what ParameterStatus sends. The session
// (package translate) owns a Values and decides when SET applies; this
// package knows nothing of sessions, statements or transactions.
package settings
