// Package lower turns an optimized plan (package plan; optimized by package
// opt) into a tree of engine operators whose Arrow batches are the query's
// rows.
//
// In a plan, an expression refers to a column by its plan.ColID; an
// operator's input is a batch whose columns are positions. Lowering keeps,
// for every operator it builds, the layout of its output (the ColID of each
// position) and rewrites each expression's columns from ids to positions
// (remap in lower.go): that map lives here and nowhere else. Scans read only
// the columns something above them needs, and their files are planned here
// with the pruning predicates the WHERE conditions give (prune.go).
//
// An uncorrelated subquery in an expression is run once, before the
// statement's rows (an InitPlan), through Env.RunNow, so that the session
// applies its limits to it; a shared WITH query becomes one Materialized its
// references read (cte.go); a correlated subquery the binder could not turn
// into a join runs per outer row (apply.go). Leaves defined outside package
// plan (system catalogs, metadata tables, change logs) lower themselves
// (plan.Source).
//
// lower sees the session only through Env: its TimeZone and how to run an
// InitPlan.
package lower
