// Package parse turns a query string into its statements: pg_query's AST
// (PostgreSQL 17 grammar) of each, with what the dialect passes took out of
// the text before pg_query could read it.
//
// Parse runs, in order: the depth guard (parse_depth.go), which refuses a
// statement nested too deep for the C parser with 54001 before any cgo call;
// Spark's metadata statements (DESCRIBE, SHOW TABLES / SCHEMAS /
// TBLPROPERTIES / CREATE TABLE), recognised by tokens and returned as a Stmt
// with Meta set and no Node (describe_parse.go); the procedure calls
// (dialect_call.go: keyword argument names, array(...), Trino's ALTER
// TABLE t EXECUTE, kept in Stmt.Call); the text passes of RewriteDialect: four-part metadata table names joined into t$kind
// (dialect_metaname.go), MERGE's UPDATE SET * and INSERT * (dialect_merge.go),
// Spark's DDL clauses and types (dialect.go), ALTER TABLE forms
// (dialect_alter.go) with branch and tag DDL (dialect_refs.go), NAMESPACE /
// DATABASE (dialect_namespace.go), REPLACE TABLE (dialect_replace.go) and
// INSERT OVERWRITE / PARTITION (dialect_insert.go); the time-travel clauses AS OF and CHANGES BETWEEN
// (asof.go, changes_parse.go); the OPTIONS hints after table names
// (hints.go); then pg_query itself, whose syntax errors become 42601 with
// the cursor position. ParseContext parses a long string in another
// goroutine so that a cancel or statement_timeout ends the wait.
//
// The passes read tokens through ScanTokens (dialect_scan.go), which leaves
// SQL comments out: a comment may stand wherever a space may.
//
// The passes keep offsets. Each blanks what it cuts, or writes a
// replacement no longer than the text it replaces, so every location
// pg_query reports is still a byte offset into the text the client sent
// (MERGE's DO NOTHING, two bytes longer than INSERT *, is the one exception,
// documented in dialect_merge.go). What a pass took out is kept beside the
// AST: per statement by its byte range (DDLExtras), or by the offset of the
// table name it follows, which is the RangeVar's location the binder sees
// (Stmt.AsOf, Stmt.Hints).
//
// parse checks syntax only. What the text means is checked by the layers
// above: the binder resolves the Spark type placeholders and the
// time-travel values and checks hints' options against the
// option registry (hints.Check in translate/hints, 22023).
//
// Besides, parse has the node utilities the statements that keep an
// expression or a name as text share (names.go: TableNameOf,
// TableNameOfList; expr_nodes.go: WalkExpr, DeparseExpr, RegclassLiteral,
// ContainsColumnRef, IsNextvalName).
//
// parse is a leaf of the compiler: it imports no other package under
// translate, nor translate itself (the compiler table in
// internal/layering/layering_test.go), and knows nothing of the catalog;
// what it must know of the layers above, which names are metadata tables',
// comes in Config.
package parse
