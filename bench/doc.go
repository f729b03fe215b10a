// Package bench holds icegate's benchmarks. They sit outside the statement
// flow and drive it whole, over the wire or through translate's Session:
//
//   - BenchmarkTranslate and BenchmarkWire run statements over the largest
//     fixture table (duckdb__lineitem_iceberg_gz, 111968 rows of TPC-H
//     lineitem) in-process and over the wire, so the cost of the protocol
//     and value encoding is the difference; each reports rows/s.
//   - BenchmarkCopyLineitem times COPY FROM STDIN of generated lineitem,
//     against icegate and optionally PostgreSQL.
//   - BenchmarkTPCH loads the eight TPC-H tables (bench/tpch) into a
//     warehouse once per process and runs the 22 queries over the wire;
//     bench/duckdb runs the same queries with DuckDB over the same Parquet
//     files and checks icegate's answers.
//   - BenchmarkTPCHObjectStore runs the same queries over a warehouse on
//     an S3-compatible server (versitygw, cold and through the disk
//     cache) beside the local warehouse.
//   - BenchmarkCommitsObjectStore counts the commits a second eight
//     writers get through one and three icegate processes whose
//     catalog's warehouse is on an S3-compatible server.
//
// Run with `make bench` or `go test -run '^$' -bench . ./bench/`; README.md
// has the TPC-H commands.
package bench
