// Package syscat is PostgreSQL's system catalog as icegate serves it: the
// relations of pg_catalog (pg_namespace, pg_class, pg_attribute, pg_type,
// pg_proc...) and information_schema, computed from the Iceberg catalog so
// that the introspection queries of psql, JDBC/ODBC drivers and BI tools
// run unchanged.
//
// Where it sits in the statement flow: translate binds a name such as
// pg_catalog.pg_class to the Table registered here (Lookup) and takes its
// columns; at execution it builds a Snapshot of the warehouse (namespaces,
// tables and views with their columns, comments, identifier fields and
// summaries) and asks the Table for its rows (Table.Batch). The catalog
// functions that read the same facts (format_type, pg_table_is_visible,
// regclass input and output...) look them up in the Snapshot too.
//
// Object identifiers: built-in objects (types, catalogs, functions,
// pg_catalog and information_schema) carry PostgreSQL 15's OIDs; user
// schemas, tables and views get OIDs hashed from their names (ObjectOID), so
// the same object has the same OID in every session and across restarts.
//
// Generated data: shapes_gen.go (each pg_catalog relation's OID, relkind and
// columns) and builtins_gen.go (PostgreSQL's rows for the built-in types,
// functions, operators, casts, aggregates, ranges, access methods, operator
// classes, collations, languages and their comments) are written by
// "go run ./syscat/gen -pg URL" from a PostgreSQL 15 server; run it again
// when icegate learns new functions. The relations computed from the
// warehouse (pg_class, pg_attribute, pg_index, pg_constraint,
// pg_description...) are filled by name in pg_*.go; a relation no fill
// computes lists no rows. TestPgCatalogShapesMatchPostgres and
// TestPgCatalogRowsMatchPostgres compare both with the reference server.
package syscat
