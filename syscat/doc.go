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
package syscat
