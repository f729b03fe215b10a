package catalog

import (
	"context"
	"io"
	"strings"
)

// MutableCatalog is a Catalog that can also create, change and drop
// namespaces and tables. Callers find it by type assertion on a Catalog.
// Errors use the kinds of errors.go: ErrNotFound, ErrAlreadyExists,
// ErrNotEmpty, ErrCommitConflict (a requirement failed or another writer won
// the race: reload and retry), ErrDataInvalid (an invalid update).
type MutableCatalog interface {
	Catalog
	// CreateNamespace creates a namespace; its parent must exist.
	CreateNamespace(ctx context.Context, namespace []string, props map[string]string) error
	// DropNamespace drops an empty namespace (ErrNotEmpty otherwise).
	DropNamespace(ctx context.Context, namespace []string) error
	// CreateTable creates a table with fresh field ids assigned to the
	// spec's schema, partition spec and sort order.
	CreateTable(ctx context.Context, id Identifier, spec TableSpec) (*Table, error)
	// CommitTable checks reqs against the current metadata, applies
	// updates and atomically makes the result the table's current metadata.
	CommitTable(ctx context.Context, id Identifier, reqs []Requirement, updates []Update) (*Table, error)
	// RegisterTable creates a table from an existing metadata file (Spark's
	// register_table); ErrAlreadyExists when the name is taken.
	RegisterTable(ctx context.Context, id Identifier, metadataFile string) (*Table, error)
	// DropTable drops a table; purge also deletes its data and metadata files.
	DropTable(ctx context.Context, id Identifier, purge bool) error
	// RenameTable renames a table (possibly into another namespace).
	RenameTable(ctx context.Context, from, to Identifier) error
	// NewOutput returns where new files of a loaded table are written.
	NewOutput(t *Table) (OutputIO, error)
	// CreateView creates a view from meta (NewViewMetadata). With replace,
	// an existing view gets meta's current version as its new current
	// version. A table or view of that name is ErrAlreadyExists (a view only
	// without replace).
	CreateView(ctx context.Context, id Identifier, meta *ViewMetadata, replace bool) (*View, error)
	// DropView drops a view; ErrNotFound when there is none (also when the
	// name is a table's: DropTable drops tables only).
	DropView(ctx context.Context, id Identifier) error
}

// OutputIO creates and removes files of one table. Paths are written paths
// (as they go into manifests and metadata): under the table's location.
type OutputIO interface {
	// Create creates a new file; it fails if the file exists.
	Create(ctx context.Context, path string) (io.WriteCloser, error)
	// Remove deletes a file; a missing file is not an error.
	Remove(ctx context.Context, path string) error
}

// TableSpec describes a table to create. Field ids in Schema, and the source
// ids in Spec and SortOrder that refer to them, are replaced by fresh ids
// (1, 2, ... breadth first; partition fields 1000, 1001, ...).
type TableSpec struct {
	Schema        *Schema
	Spec          *PartitionSpec // nil: unpartitioned
	SortOrder     *SortOrder     // nil: unsorted
	Location      string         // "": the catalog's default location
	Properties    map[string]string
	FormatVersion int // 0: 2
}

// DefaultFormatVersion is the format version of new tables.
const DefaultFormatVersion = 2

// DataLocation is where new data files of a table go: <location>/data.
// Paths under it are accepted by the table's OutputIO.
func DataLocation(m *TableMetadata) string {
	return strings.TrimSuffix(m.Location, "/") + "/data"
}

// MetadataLocation is where new metadata files of a table go:
// <location>/metadata.
func MetadataLocation(m *TableMetadata) string {
	return strings.TrimSuffix(m.Location, "/") + "/metadata"
}
