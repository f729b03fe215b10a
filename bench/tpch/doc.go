// Package tpch generates the eight TPC-H tables for benchmarks and holds
// the 22 TPC-H queries. It sits outside the statement flow: bench/ uses it
// to produce the COPY FROM STDIN input it loads into icegate (and into
// PostgreSQL with the same code), and to run the queries over the wire;
// `icegate sample` (cmd/icegate) loads scale factor 0.01 of it into the
// sample lakehouse's schema tpch.
//
// The rows follow the value domains and key relationships of the TPC-H
// specification (section 4.2.3): l_orderkey references orders, (l_partkey,
// l_suppkey) references partsupp, o_custkey references a customer (never a
// multiple of 3), o_totalprice and o_orderstatus summarize the order's
// lines. They are not byte-identical to dbgen's: order keys are dense
// (1..1.5M*SF) and text columns are random words from a small vocabulary.
// At scale factor 1 lineitem has about 6M rows and 0.75 GB of COPY text.
package tpch
