// Package indexexec runs the index statements for the session: CREATE
// INDEX, DROP INDEX, ALTER INDEX ... RENAME TO, and ALTER TABLE ... RENAME
// CONSTRAINT. Iceberg tables have no indexes; an index over plain columns
// is kept in its table's properties (kept.go), so that the system catalog
// lists it (Kept) and DROP INDEX drops it, as migration tools expect.
// Other indexes and constraints are accepted with a WARNING that they are
// not kept (package ddl's constraint.go).
//
// It sees the session through Env (env.go): the catalog to write to, the
// system catalog snapshot, and name resolution; translate's session
// implements it (session_indexenv.go). It imports ddl, parse, sequence
// and caterr, never translate.
package indexexec
