// Package exec holds the engine's relational operators over Arrow record
// batches: Filter, Project, HashAggregate, Sort, TopN, Limit, Values and
// Batches.
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
