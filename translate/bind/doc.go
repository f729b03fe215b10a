// Package bind is the binder: it turns a parsed statement (package parse's
// pg_query AST) into a plan whose names and types are resolved with
// PostgreSQL's rules against the catalog.
//
// A Binder (binder.go, made by New) binds one statement once. What it holds:
//
//   - names and scopes: table names (1-3 parts, search_path) resolved
//     through Env, column names matched with PostgreSQL's case rules
//     (names.go), FROM items and their columns, outer references,
//     aggregates and WITH queries in scope (scope.go);
//   - types and coercion: Iceberg types as PostgreSQL OIDs (types.go),
//     expressions as Bound values typed with both (bound.go, expr.go),
//     casts, operators and functions resolved as PostgreSQL does (cast.go,
//     operator.go, func.go, const.go, array.go, row.go);
//   - each clause of a query: select.go (the SELECT list, WHERE, GROUP BY,
//     HAVING, ORDER BY, LIMIT), from.go (FROM, joins, views), grouping.go,
//     window.go, order.go, setop.go, values.go, with.go (CTEs, WITH
//     RECURSIVE; a WITH query read more than once or AS MATERIALIZED is one
//     plan.CTE), tablefunc.go (set-returning functions);
//   - subqueries turned into joins (subquery.go): IN / ANY / ALL and
//     correlated subqueries become mark, semi, anti or single-row left
//     joins; an uncorrelated scalar or EXISTS subquery stays a
//     plan.Subquery that lowering runs once;
//   - system functions and catalogs: sysfunc.go (the call site and API
//     the definitions in package translate/sysfunc bind with; they are
//     found through Env.SysFuncs), funcdef.go (likewise for Spark's
//     functions, package translate/sparkfunc, found through
//     Env.SparkFuncs; json_build.go for the JSON building functions and
//     jsonb's modification operators, package translate/jsonfunc, found
//     through Env.JSONFuncs), sysfunc_record.go (composite results),
//     regtype.go (the object identifier types in operators and
//     expressions; casts to and from the reg* types and their text forms
//     are package translate/regtype's, found through Env.RegTypes),
//     syscat.go
//     (pg_catalog and information_schema relations), sqlvalue.go
//     (CURRENT_DATE, CURRENT_USER...);
//   - view expansion: a view's stored query parsed again and bound as a
//     subquery in its own namespace (bindView in from.go; ViewDef);
//   - Iceberg's own FROM items: time travel, CHANGES BETWEEN, metadata
//     tables and iceberg.options() are package translate/icebergfrom's,
//     found through Env.IcebergFrom; iceberg_from.go is where the binder
//     asks for them and the scope API they bind with (AddItem,
//     BindTableAt); the hidden metadata columns of every table are
//     metacol.go's;
//   - DML targets: DELETE, UPDATE, MERGE, INSERT ... ON CONFLICT / RETURNING
//     as a query over the target joined with the sources (dml.go,
//     dml_target.go, delete.go, update.go, merge*.go, upsert*.go), plain
//     INSERT (insert.go), data-modifying WITH (dml_with_bind.go; package
//     translate runs them and tracks the rows they change).
//
// What it produces: a query becomes a plan.Select (BindSelect), a tree of
// package plan's nodes whose columns are plan.ColIDs; a row-level change
// becomes a DMLPlan (BindDelete, BindUpdate, BindMerge, BindUpsert) whose
// query says what happens to each target row; INSERT becomes an InsertPlan.
// Leaves defined here (system catalogs) are plan.Sources that lower
// themselves. Nothing here optimizes, lowers or
// runs a plan.
//
// bind imports plan, parse, metatable, settings, sequence, enumtype and
// conf (and the engine's packages for expressions and types), never
// lower, opt, translate or the packages of definitions it finds through
// Env (sysfunc, sparkfunc, jsonfunc, icebergfrom, regtype):
// internal/layering's compiler table enforces it. It sees the session only
// through Env (env.go): tables and views resolved against the catalog and
// search_path, the snapshot a table is read at, the session's identity,
// settings and option values.
//
// When it runs: package translate binds a statement at Prepare, to describe
// its result columns and parameter types, and again at every Execute with
// the parameter values (ParamSet) and a fresh table snapshot; a Binder is
// made afresh each time.
package bind
