// Package oracle checks icegate's reading of the Iceberg table format
// against an independent implementation, github.com/apache/iceberg-go.
//
// It sits outside the statement flow, on the client side of the wire: the
// tests write tables with iceberg-go into a Hadoop-layout warehouse, start
// the icegate binary over it and compare what a PostgreSQL client (pgx, text
// format) receives for SELECT * with iceberg-go's own scan of the same
// table, printed as PostgreSQL prints each type. The module never imports
// icegate's packages, and the main module never imports iceberg-go.
//
// The reverse direction creates and fills tables through icegate's SQL
// (INSERT, COPY, CREATE TABLE AS) and checks them with iceberg-go: its scans
// against icegate's SELECT, and the snapshots, manifests and file metrics
// icegate wrote.
package oracle
