// Package tpch generates TPC-H lineitem rows for benchmarks. It sits
// outside the statement flow: bench/ uses it to produce the COPY FROM STDIN
// input it loads into icegate and into PostgreSQL with the same code.
//
// The rows follow the value domains of the TPC-H specification (section
// 4.2.3) closely enough that the file has realistic sizes (about 0.7 GB and
// 6M rows at scale factor 1); they are not byte-identical to dbgen's.
package tpch
