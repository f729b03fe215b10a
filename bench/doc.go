// Package bench holds icegate's benchmarks. They run whole statements over
// the largest fixture table (duckdb__lineitem_iceberg_gz, 111968 rows of
// TPC-H lineitem) two ways: in-process through translate's Session (parse,
// plan, engine, catalog; no protocol) and over the wire through pgx
// against the real server on a loopback port, so the cost of the protocol
// and value encoding is the difference. Each reports rows/s: table rows
// read per second.
//
// Run with `make bench` or `go test -run '^$' -bench . ./bench/`.
package bench
