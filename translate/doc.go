// Package translate is the SQL session: it sits between the protocol (package
// wire) and the engine.
//
// For each statement text wire hands to a Session, translate parses it with
// pg_query (PostgreSQL 17 grammar; parse.go), binds names and types against
// the catalog with PostgreSQL's rules (names.go, types.go, coerce.go,
// bind_*.go), builds a logical plan (plan.go) and, at Execute, lowers that
// plan to engine operators (lower.go) whose Arrow batches stream back to wire
// through Rows. Session settings (SET, SHOW, RESET, ParameterStatus) live in
// settings.go.
//
// The pg_query AST never leaves this package: Statements keep it only to
// re-bind at Execute with the parameter values and a fresh table snapshot.
package translate
