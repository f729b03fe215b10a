// Package hints checks the OPTIONS hints of a parsed query string
// (SELECT * FROM t /*+ OPTIONS('split-size'='1') */, which package parse
// reads from the scanner's comment tokens) against conf's registry of
// Iceberg options: an unknown, session-only, repeated or invalid option is
// 22023. The snapshot-id and as-of-timestamp options become the
// statement's time-travel clauses, as VERSION / TIMESTAMP AS OF would.
// ParseChecked parses a query string and checks its hints; ParseConfig is
// the parse configuration every caller uses (which names are metadata
// tables).
//
// hints imports parse and metatable (and conf); the binder (a view's
// stored query) and package translate use it.
package hints
