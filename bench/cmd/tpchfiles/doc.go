// Command tpchfiles prints, as JSON, the current data files of every table
// of a filesystem warehouse (by table name), resolved to local paths
// through icegate's catalog package. It sits outside the statement flow:
// bench/duckdb/tpch.mjs reads the Parquet files icegate wrote for the TPC-H
// benchmark into DuckDB views from its output.
//
//	go run ./bench/cmd/tpchfiles -warehouse /path
//
// A table whose current snapshot carries delete files is an error: a view
// over its data files alone would not be the table.
package main
