// Package ddl turns the DDL icegate parses into Iceberg metadata: the
// types of CREATE TABLE's columns (PostgreSQL's and Spark's spellings,
// types.go), partition specs from PARTITIONED BY or partitioning = '...',
// and the edits of ALTER TABLE: columns added, dropped, renamed, retyped or
// reordered, nested ones by path (schema.go), and Spark's ALTER TABLE
// forms kept as tokens by the dialect pass: ADD/DROP/REPLACE PARTITION
// FIELD, WRITE ORDERED BY, SET/DROP IDENTIFIER FIELDS, column changes
// (spark_columns.go, spark_partition.go). Constraints (constraint.go): a
// primary key becomes the identifier fields; UNIQUE, FOREIGN KEY, CHECK
// and EXCLUDE are accepted with the WARNING that they are not kept.
//
// Each edit produces catalog updates and the requirements that make a
// concurrent change fail; translate runs them as one commit per statement.
// ddl works on catalog values and parse's tokens only: it imports plan and
// parse and no session.
package ddl
