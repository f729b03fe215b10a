// Package catalog is the Iceberg table format at the bottom of the statement
// flow: translate binds a table name, the engine asks a Catalog to load the
// table (filesystem catalog -> metadata JSON -> current snapshot), and
// PlanFiles turns a snapshot into FileScanTasks (manifest list -> manifests
// -> live data files with the delete files that apply to them) that
// engine/scan reads through the table's FileIO.
//
// The spec types and interfaces (types.go, schema.go, metadata.go, ...) are
// shared by the whole server; the rest of the package implements the format:
// metadata_json.go parses metadata files, manifest*.go read the Avro
// manifests, fileio.go resolves paths written on other machines to local
// files, filesystem.go is the Hadoop-layout catalog and plan.go the planner.
//
// The write side sits at the end of an INSERT: the engine writes data files
// and hands them to Append (append.go), which writes a manifest
// (manifest_write.go) and a manifest list (manifest_list_write.go), then
// commits a new snapshot through a MutableCatalog (catalog_write.go). A
// commit checks Requirements against the current metadata (requirement.go),
// applies Updates to a MetadataBuilder (update.go, builder.go), writes the
// result as JSON (metadata_write.go) and swaps it in atomically
// (filesystem_write.go); a lost race is ErrCommitConflict and is retried.
//
// Row-level changes (DELETE, UPDATE, MERGE, upserts, and a transaction's
// statements combined) commit through CommitChange (change*.go): a Change
// lists the data and delete files added and removed; staging rewrites the
// manifests holding removed files (change_stage.go), and validation checks
// the snapshots committed since the change's base for removals and new
// deletes that conflict with it (change_validate.go; ErrValidation, which a
// retry cannot fix). Append is the change that only adds data files.
//
// Views (view.go, view_json.go, view_filesystem.go) are Iceberg view
// metadata: the query text and output schema translate stores for CREATE
// VIEW and reads back to bind a view's query where its name is used. In the
// filesystem catalog a view is laid out like a table; its metadata (view-uuid
// instead of table-uuid) tells it from one.
package catalog
