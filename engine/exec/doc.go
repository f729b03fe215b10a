// Package exec holds the engine's relational operators over Arrow record
// batches: Filter, Project, HashAggregate (whole, or partial + final
// under Gather), Sort, TopN, Limit, Values, Batches; HashJoin and
// NestedLoopJoin (inner, left, right, full, semi, anti, mark; null-aware
// and single-match modes); Window; UnionAll and SetOp (INTERSECT /
// EXCEPT [ALL]); TableFunc (set-returning functions); RecursiveUnion with
// its WorkTable; Gather (parallel pipelines); Materialized (a WITH query's
// result computed once and replayed to each of its readers).
//
// translate plans a statement into a tree of these operators on top of
// engine/scan's table scans; wire pulls batches from the root with Next.
// Operators evaluate bound expressions of engine/expr, compiled once in
// the constructor. Every operator follows engine.Operator: batches it
// returns stay valid until the next call to Next or Close, always have at
// least one row, and ctx is checked per batch. Operators allocate from
// expr.Allocator(ctx) (tests pass a checked allocator with
// expr.WithAllocator).
package exec
