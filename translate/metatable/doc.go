// Package metatable defines Iceberg's metadata tables (t$snapshots,
// t$files, t$position_deletes...): their columns, as Spark names and orders
// them, and how their rows are computed from a table's metadata.
//
// All lists one Def per kind (defs.go). A Def gives its Columns, which may
// depend on the table (partition is there only when the table has been
// partitioned), and its Rows, computed from a Source: the table, its
// metadata and the snapshot read. PerSnapshot kinds list the state of one
// snapshot and take time travel; the others list the table's whole history.
// Rows are plain Go values, one per column (Batch lists which Go type each
// column type takes), and Batch turns them into one Arrow batch. Nested
// values (summaries, partitions, bounds, readable_metrics) are jsonb, whose
// text is built here in PostgreSQL's canonical form (json.go, metrics.go).
// The rows come from the metadata file (history.go), manifest lists and
// manifests (manifests.go, files.go), and, for position_deletes, the
// position delete files and deletion vectors themselves, read through
// engine/scan (posdeletes.go).
//
// metatable knows nothing of names, binding or plans beyond plan.Type (its
// columns' types): among translate's packages it imports only plan (the
// compiler table in internal/layering/layering_test.go). Package bind
// binds a metadata table's name to a plan leaf that calls Rows and Batch
// when it is lowered (translate/bind/metatable.go) and tells package parse
// which names are metadata tables' (ByName); package translate lists the
// kinds in the system catalog (translate/metatable_syscat.go). A new kind
// is one more Def in All; those uses follow from it.
package metatable
