// Package procedure holds the procedures of CALL [catalog.]system.<name>(...)
// (Spark's Iceberg procedures, by Spark's names, parameters and result
// columns) and of Trino's ALTER TABLE t EXECUTE <name>(...).
//
// A Procedure declares its parameters (Param: name, ArgType, required or a
// default) and result columns, and a Run function over an Env (what it sees
// of the session: Table to resolve and load a table-name argument and get
// the catalog to commit to, Notice, Now) and its bound Args. Bind, in
// args.go, is the one place arguments are matched and converted: positional
// and named (name => value), defaults, NULL as absent, PostgreSQL's errors
// for unknown names and wrong types; expressions such as
// now() - interval '1 day' or TIMESTAMP '...' are evaluated by the session
// through an Evaluator.
//
// Builtins (registry.go) lists the procedures, one family file each
// (snapshot.go: ref moves and cherry-picks; add_files.go: plain Parquet
// files into a table; snapshot_table.go and migrate.go: a table of a
// Parquet directory, beside it or in its place; register.go: a table of a
// metadata file). trino.go maps Trino's table
// procedures onto them. Rules every procedure follows:
// it is one catalog commit (catalog.CommitChange for file changes,
// MutableCatalog.CommitTable with requirements for ref and metadata
// changes), so a lost race retries or fails with 40001 and never
// half-applies; a cancelled run leaves the table as it was; errors are
// internal/pgerr errors with PostgreSQL's SQLSTATEs. The format-level work
// (which files a snapshot reaches, ...) lives in catalog or engine as
// functions over catalog values; a procedure binds arguments and calls them.
//
// The package imports catalog, engine and internal packages, never the
// query compiler's stages (bind, plan, opt): translate implements Env and
// the Evaluator (call_exec.go) and runs the CALL statement.
package procedure
