// Package translate is the SQL session: it sits between the protocol (package
// wire) and the engine, and drives the query compiler, whose stages are
// packages of their own:
//
//	translate/parse     query string -> statements (pg_query's AST, after the
//	                    dialect passes: Spark DDL, AS OF, hints, DESCRIBE/SHOW)
//	translate/bind      AST -> plan: names and types resolved with
//	                    PostgreSQL's rules against the catalog (the binder)
//	translate/plan      the relational plan the other stages share
//	translate/opt       plan -> cheaper plan, an ordered list of named passes
//	translate/lower     plan -> engine operators
//	translate/metatable Iceberg's metadata tables: columns and rows
//
// For each query string wire hands to a Session, Prepare parses it
// (parse.ParseContext; hints.Check then checks the OPTIONS hints against
// conf's option registry) and prepares each statement
// (statement.go). A query binds at Prepare, to describe its columns and
// parameters, and again at every Execute with the parameter values and a fresh
// table snapshot (only the first Execute of a statement without parameters
// runs the plan bound at Prepare; in a string of several statements a query
// first binds when described or run). At Execute, opt.Statement optimizes the
// bound plan and lower turns it into engine operators (session_env.go) whose
// Arrow batches stream back to wire through Rows. EXPLAIN optimizes the plan
// bound at Prepare and renders it (explain.go; PostgreSQL's formats are
// package explain's, FORMAT ICEGATE plan.Select.Render). The binder, and the plan
// leaves for system catalogs, metadata tables and change logs, are package
// bind, which sees the session through bind.Env (session_bindenv.go).
// Session settings (their registry and a session's values) are package
// settings; SET, SHOW and RESET run in show.go, and the optimizer reads
// optimizer_disabled_passes in opt_config.go.
//
// Statements that write: CREATE TABLE in both dialects binds into the same
// catalog.TableSpec (create_table.go with package ddl's types and partition
// specs; Spark's clauses come from parse.DDLExtras)
// and runs against a catalog.MutableCatalog (ddl_exec.go, ctas_exec.go).
// INSERT (bind/insert.go, insert_exec.go) and COPY FROM STDIN (copy_exec.go,
// with package copyexec's options and conversion) turn their rows into Arrow batches of the table's columns with
// PostgreSQL's assignment casts and text input rules, write them with
// engine/write and commit them with catalog.Append: one snapshot per
// statement, or nothing and no files left. DELETE, UPDATE and MERGE bind to a
// plan over the target (bind.DMLPlan: bind/dml.go, delete.go, update.go,
// merge*.go) that dml_exec.go lowers and feeds to engine/dml. Catalog
// errors become SQLSTATEs in errors_catalog.go.
//
// ALTER TABLE and COMMENT change metadata only (alter_exec.go): the schema
// edits of package ddl (add, drop, rename, promote, reorder columns, nested
// ones by path), table properties, and, in Spark's forms that the dialect
// pass keeps as tokens (parse.SparkAlter; alter_spark.go, ddl/spark_*.go), partition
// evolution, the write order and identifier fields. Each statement is one
// commit whose requirements make a concurrent change fail with 40001.
//
// Spark's metadata statements (DESCRIBE [EXTENDED], SHOW TABLES, SHOW SCHEMAS,
// SHOW TBLPROPERTIES, SHOW CREATE TABLE), which package parse recognises by
// tokens, run in describe.go and show_tables.go; package describe writes
// the text rows, shaped like Spark's, from a table's metadata.
//
// Sequences, views and kept indexes run in packages of their own, each
// seeing the session through a small Env the session implements
// (session_seqenv.go, session_viewenv.go, session_indexenv.go): seqexec
// (CREATE / ALTER / DROP SEQUENCE, serial and identity columns, nextval &
// co.), viewexec (CREATE / DROP VIEW, temporary views, resolving a view's
// name, a block's staged views) and indexexec (CREATE / DROP / ALTER
// INDEX). COPY's options and row conversion are copyexec's; the mapping of
// catalog errors to SQLSTATEs is caterr's.
//
// Transaction blocks (tx*.go) give a session PostgreSQL's behaviour around
// per-statement commits: one table snapshot per block (tx_catalog.go), the
// failed state, savepoints, SET LOCAL, READ ONLY. Cursors (cursor*.go) stream
// their query's batches as FETCH and MOVE ask for rows.
//
// The pg_query AST stays in the compiler: wire never sees it, and Statements
// keep their parse.Stmt only to bind again at Execute.
package translate
