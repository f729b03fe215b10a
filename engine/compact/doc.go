// Package compact rewrites a table's files without changing its rows: the
// work of the procedures rewrite_data_files and
// rewrite_position_delete_files (translate/procedure/rewrite.go).
//
// RewriteDataFiles (compact.go) picks data files by size, delete count,
// deleted fraction or a filter, groups them per partition (the files of
// older partition specs together, since their rows may belong to several
// partitions of the current spec), reads each group with engine/scan (its
// deletes applied; row lineage kept in format 3) and writes the rows with
// engine/write under the table's write properties, binpacked, in a sort
// order or in a z-order (zorder.go). The change removes the old files and
// the delete files that applied only to them, and commits as a "replace"
// snapshot through catalog.CommitChange, validated against the snapshots
// committed since the one read: a concurrent DELETE, UPDATE or MERGE of a
// rewritten file makes the commit fail (catalog.ErrValidation, 40001 to the
// client) rather than lose its deletes. Failures and cancellation remove
// the files written.
//
// RewritePositionDeletes (posdeletes.go) merges a partition's position
// delete files into one, dropping the positions of data files no longer
// live. ParseOptions and ParseSortOrder read the procedures' options and
// sort_order as Spark writes them.
package compact
