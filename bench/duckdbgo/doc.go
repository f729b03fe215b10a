// Package duckdbgo runs the TPC-H queries of bench/tpch with DuckDB (its Go
// module, linked in through cgo) beside icegate, interleaved, over the same
// Parquet files. It sits outside the statement flow and drives it whole:
// icegate runs in the benchmark's process as bench/ runs it (a wire.Server
// over translate's Backend on a filesystem catalog, queried with pgx over
// loopback), and DuckDB reads the current data files of each icegate table
// through read_parquet views. Given a PostgreSQL database, it loads the
// same rows there with COPY, adds the TPC-H keys and indexes, and runs each
// query on PostgreSQL too.
//
// It is its own Go module so that DuckDB never becomes a dependency of
// icegate's main module; go.mod replaces icegate with the repository root.
// bench/README.md has the command; BenchmarkTPCHInterleaved is the
// benchmark.
package duckdbgo
