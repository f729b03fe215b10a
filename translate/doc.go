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
// Statements that write go the other way. Before parsing, the dialect pass
// (dialect.go) cuts Spark's DDL clauses (USING, PARTITIONED BY,
// TBLPROPERTIES, LOCATION, COMMENT, PURGE, ARRAY<..>/MAP<..>/STRUCT<..>
// types) out of the text by token positions, so that CREATE TABLE in both
// dialects binds into the same catalog.TableSpec (bind_ddl.go) and runs
// against a catalog.MutableCatalog (ddl_exec.go, ctas_exec.go). INSERT
// (bind_insert.go, insert_exec.go) and COPY FROM STDIN (bind_copy.go,
// copy_exec.go) turn their rows into Arrow batches of the table's columns
// with PostgreSQL's assignment casts and text input rules, write them with
// engine/write and commit them with catalog.Append: one snapshot per
// statement, or nothing and no files left. Catalog errors become SQLSTATEs
// in errors_catalog.go.
//
// ALTER TABLE and COMMENT change metadata only (alter_exec.go): the schema
// edits of alter_schema.go (add, drop, rename, promote, reorder columns,
// nested ones by path), table properties, and, in Spark's forms that
// dialect_alter.go keeps as tokens (alter_spark*.go), partition evolution,
// the write order and identifier fields. Each statement is one commit whose
// requirements make a concurrent change fail with 40001.
//
// Spark's metadata statements (DESCRIBE [EXTENDED], SHOW TABLES, SHOW
// SCHEMAS, SHOW TBLPROPERTIES, SHOW CREATE TABLE) are not in PostgreSQL's
// grammar: describe_parse.go recognises them by tokens before the parser
// (any other SHOW stays a setting) and describe.go, show_tables.go and
// show_create.go answer them with text rows shaped like Spark's.
//
// Transaction blocks (tx*.go) give a session PostgreSQL's behaviour around
// per-statement commits: one table snapshot per block (tx_catalog.go), the
// failed state, savepoints, SET LOCAL, READ ONLY. Cursors (cursor*.go)
// stream their query's batches as FETCH and MOVE ask for rows.
//
// The pg_query AST never leaves this package: Statements keep it only to
// re-bind at Execute with the parameter values and a fresh table snapshot.
package translate
