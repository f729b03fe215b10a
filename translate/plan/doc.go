// Package plan is the relational plan of a query: what the binder (package
// bind) builds, the optimizer (package opt) rewrites and package lower
// turns into engine operators.
//
// It holds the node kinds (rel.go: Scan, OneRow, Values, Filter, Project,
// Agg, Join, Sort, Limit, Window, SetOp, TableFunc, Recursive, WorkTable;
// cte.go: CTE and CTEScan, a WITH query its references share), Select (a
// bound query: its tree, its result columns and the statement's ColTable)
// and Subquery (an uncorrelated subquery inside an expression). Around them:
// PostgreSQL types as the binder tracks them (Type, ArrowOf; pgtype.go),
// the generic walkers (Map, Children, Exprs, Visit; children.go), column
// sets and expression helpers (RefsOf, Conjuncts, RewriteExpr, FreeRefs),
// row estimates and the join build side (estimate.go), and icegate's own
// EXPLAIN tree, EXPLAIN (FORMAT ICEGATE) (Select.Render in select.go,
// FormatExpr in explain.go; package explain prints PostgreSQL's formats).
//
// Expressions are engine/expr expressions, but until lowering a column is
// named by its ColID, not by a position: an *expr.Col in a plan carries the
// ColID in Idx. Ids are unique within a statement; the statement's ColTable
// holds each id's name, types and origin (tables' hidden metadata columns
// are numbered apart, from HiddenColBase). A node's output is a list of ids
// (OutCols), so moving a filter below a join or swapping a join's sides
// changes no expression, and a subquery's outer reference is simply an id
// its own tree does not produce (FreeRefs). Package lower alone maps ids to
// positions, per operator.
//
// Once bound, nodes are never changed in place. A tree may be optimized more than
// once (EXPLAIN optimizes the tree bound at Prepare at every Execute) and
// parts of it are shared (a CTE's body by its CTEScans), so a rewrite copies
// the nodes it changes: Map returns a copy with new inputs and expressions.
//
// Adding a node kind: a struct with OutCols; its cases in Map, Children and
// Exprs (children.go; Map returns a kind it does not know unchanged, so a
// rewrite would silently skip what is below it); OwnCols (colutil.go) when
// it creates columns; Estimate (estimate.go) unless its one input's estimate
// fits; its PostgreSQL node in package explain (builder.build, nodes.go;
// an unknown kind shows as a Custom Scan); its line in describeRel
// (select.go, and collectUsed when it lists
// input columns outside its expressions); its lowering in package lower
// (Lowerer.lower in lower.go); and in package opt only if a pass should see
// through it (pushDown keeps conditions above a kind it does not know). A
// leaf defined elsewhere (system catalogs, metadata tables, change logs)
// needs none of this: it implements Leaf, or Source to lower itself
// (source.go).
//
// plan imports no other package under translate, nor translate itself
// (the compiler table in internal/layering/layering_test.go enforces it):
// it knows nothing of SQL text, pg_query or the session, and names the
// catalog's tables and snapshots without loading any.
package plan
