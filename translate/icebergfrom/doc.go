// Package icebergfrom binds Iceberg's own FROM items, which PostgreSQL
// does not have:
//
//   - a table read at a version (asof.go): t VERSION AS OF 123 / 'tag',
//     t TIMESTAMP AS OF '...', Spark's t.branch_b and t.tag_v, and the
//     table functions iceberg.snapshot('ns.t', v) and iceberg.as_of('ns.t',
//     ts) that plain PostgreSQL tools can send; each picks a snapshot and
//     the schema it is read with (Spark's rule), and the binder binds the
//     table's scan there (bind.Binder.BindTableAt);
//   - a table's changes (changes.go): t CHANGES BETWEEN a AND b and
//     iceberg.table_changes('ns.t', a [, b]), a changelog.Rel;
//   - its metadata tables (metatable.go): ns.t$snapshots, ns.t.files..., a
//     plan.Source whose rows package metatable computes when the
//     statement runs;
//   - iceberg.options() and iceberg.option() (options.go): the Iceberg
//     options in effect for a table, in FROM and in an expression.
//
// Items implements bind.IcebergFrom: the session hands it to the binder
// (bind.Env.IcebergFrom), which asks it where a FROM item or a call is one
// of these. The definitions bind over the binder's exported API (AddItem
// adds a FROM item to the query's scope, ExprWithoutColumns binds an AS OF
// value); the binder knows nothing of this package. The clauses are cut
// out of the text before parsing (package parse: asof.go, changes_parse.go)
// and found here by the offset of the table name they follow
// (parse.Stmt.AsOf).
//
// icebergfrom imports bind, plan, parse, metatable, changelog and regtype
// (qualified names); nothing under translate/ but package translate
// imports it.
package icebergfrom
