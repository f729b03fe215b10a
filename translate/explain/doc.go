// Package explain prints EXPLAIN's plans in PostgreSQL's shape, so that
// PostgreSQL's plan viewers (pgAdmin, DBeaver, the web explainers) draw
// icegate's plans.
//
// ParseOptions checks EXPLAIN's options as PostgreSQL 15 does (options.go).
// Build turns an optimized plan (package plan) into a tree of Nodes in
// PostgreSQL's terms (build.go: names, outputs, actual rows; nodes.go: the
// node of each plan node kind): node types PostgreSQL has ("Seq Scan",
// "Hash Join" with a "Hash" over the input the engine holds, "HashAggregate",
// "Sort", "Limit", "WindowAgg", "Append", "CTE Scan", ...), filters and
// projections folded into the nodes they apply to, uncorrelated subqueries
// as InitPlans, expressions printed as PostgreSQL prints them (deparse.go),
// row estimates from plan.Estimate with costs in PostgreSQL's units, and
// with ANALYZE what each node's operator did. Iceberg's own facts (the
// snapshot read with VERBOSE, what pruning skipped with ANALYZE) are extra
// details of the scan, keys starting "Iceberg". Modify puts a row-level
// change's ModifyTable node above its rows' plan.
//
// Plan.Lines prints the text format, Plan.Document the JSON, YAML and XML
// ones (format.go), each laid out as PostgreSQL lays it out: the same keys in
// the same order, the same indentation and escaping.
//
// The package imports translate/plan only, never translate itself: what it
// needs of a run (the operators' row counts and times, the scans' pruning)
// comes in Input as plain values, so rendering stays apart from the session
// and from lowering. icegate's own tree of its plan nodes, EXPLAIN (FORMAT
// ICEGATE), is plan.Select.Render.
package explain
