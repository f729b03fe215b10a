// Package dml applies row-level changes to an Iceberg table: it collects
// the rows a DELETE, UPDATE, MERGE or upsert removes (by data file and
// position) and the rows it adds, and turns them into files and a
// catalog.Change, copy-on-write (the affected data files are rewritten
// without the removed rows) or merge-on-read (position delete files or
// deletion vectors are written). Committing the change is the caller's
// (catalog.CommitChange, or a transaction's staging).
//
// It sits at the end of a row-level statement's flow: translate runs the
// statement's query, which yields for each affected target row its _file
// and _pos metadata columns (Writer.Delete) and the rows to write
// (Writer.Insert); Finish rewrites or adds delete files (cow.go, mor.go)
// and hands back the catalog.Change the session commits. Abort removes
// what was written when the statement or its commit fails.
package dml
