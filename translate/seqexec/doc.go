// Package seqexec runs sequences for the session: CREATE, ALTER (options,
// RENAME TO) and DROP SEQUENCE (ddl.go); the sequences a table's serial and
// identity columns own, which CREATE TABLE makes (ColumnSeqs, columns.go)
// and which follow the table's DROP, RENAME and TRUNCATE ... RESTART
// IDENTITY; nextval('name') in a default resolved to its sequence when
// the default is defined (QualifyNextval); taking values by commit and the session's Cache of
// them, currval and lastval (cache.go); and the functions nextval, currval,
// setval, lastval, pg_get_serial_sequence and gen_random_uuid, which the
// session adds to the binder's system functions (WithFuncs, funcs.go).
//
// What a sequence is (its options and state in a table's properties) is
// package sequence's. This package sees the session through Env
// (env.go): its catalogs as writes and transaction blocks see them, name
// resolution, and its Cache; translate's session implements it
// (session_seqenv.go). It imports bind and sysfunc (the function API),
// parse, plan, regtype, sequence and caterr, never translate.
package seqexec
