// Package viewexec runs views for the session: CREATE [OR REPLACE] [TEMP]
// VIEW and DROP VIEW, the session's temporary views (Temp), and finding the
// view a name refers to (Exec.ResolveView, Exec.LookupView: the binder
// calls them through bind.Env for a name that is no table). A persistent
// view is Iceberg view metadata in the catalog holding the query's source
// text and output schema; a temporary view lives in the session only.
//
// It sees the session through Env (env.go): bind.Env, to bind a view's
// query, plus the catalog as the statement sees it, name resolution and
// the temporary views; translate's session implements it
// (session_viewenv.go). A transaction block's view changes are Staged
// (staged.go), which the session's block holds and COMMIT applies. This
// package imports bind, ddl, parse, plan and caterr, never translate.
package viewexec
