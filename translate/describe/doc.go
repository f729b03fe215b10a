// Package describe writes what Spark's metadata statements show of an
// Iceberg table, from its metadata alone: DESCRIBE [EXTENDED] of a table
// (Table) and of a column (Column), SHOW TBLPROPERTIES (Properties) and
// SHOW CREATE TABLE (CreateTable), with Spark's type names (SparkTypeName)
// and, for columns whose PostgreSQL type icegate records (json, varchar(n),
// ...), the Spark type those are stored as. The session resolves the table
// and its qualified name and returns the rows (translate/describe.go).
package describe
