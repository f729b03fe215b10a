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
package catalog
