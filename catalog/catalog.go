package catalog

import (
	"context"
	"io"
)

// Identifier names a table: its namespace (one or more levels) and name.
type Identifier struct {
	Namespace []string
	Name      string
}

// Catalog finds namespaces and tables and loads their metadata. Errors use
// the kinds of errors.go (ErrNotFound...) wrapped with context.
type Catalog interface {
	// Name is the catalog's name as used in three-part names.
	Name() string
	ListNamespaces(ctx context.Context) ([][]string, error)
	ListTables(ctx context.Context, namespace []string) ([]Identifier, error)
	// LoadTable loads the current metadata of a table. The returned Table is
	// immutable and safe for concurrent use.
	LoadTable(ctx context.Context, id Identifier) (*Table, error)
	// ListViews lists the views of a namespace (ListTables lists no views).
	ListViews(ctx context.Context, namespace []string) ([]Identifier, error)
	// LoadView loads the current metadata of a view; ErrNotFound when there
	// is none, also when the name is a table's (LoadTable likewise returns
	// ErrNotFound for a view).
	LoadView(ctx context.Context, id Identifier) (*View, error)
}

// Table is a loaded table: its current metadata and the FileIO that reads
// its files.
type Table struct {
	Ident            Identifier
	MetadataLocation string
	Metadata         *TableMetadata
	IO               FileIO
	// Uncommitted are the snapshots of Metadata that StageChange added
	// and no commit made durable yet (a transaction's own writes). The
	// first_row_id and sequence numbers their files have are provisional:
	// a commit of the transaction assigns its own.
	Uncommitted map[int64]bool
}

// File is an open file for random-access reads.
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// FileIO opens files named by paths as written in metadata, manifests and
// delete files. Paths written on another machine (s3://bucket/..., hdfs://,
// /tmp/..., file:/..., relative paths) resolve to local files by the table's
// rules: an explicit prefix map from configuration first, then the longest
// tail of the path that exists under the table's own directory.
type FileIO interface {
	// Resolve returns the local path a written path refers to, or an
	// ErrNotFound error. Two written paths of the same file resolve to the
	// same string, so resolved paths can be compared (position deletes name
	// data files with prefixes that differ from the manifests').
	Resolve(path string) (string, error)
	Open(ctx context.Context, path string) (File, error)
}

// SizedOpener is a FileIO that opens a file of known size more cheaply
// (an object store: without asking the store for its size and version).
// Iceberg's data, delete and manifest files never change once written,
// and manifests record their sizes.
type SizedOpener interface {
	OpenSized(ctx context.Context, path string, size int64) (File, error)
}

// OpenFile opens the immutable table file path, whose size metadata
// records, through fio: OpenSized when fio has it and size is known.
func OpenFile(ctx context.Context, fio FileIO, path string, size int64) (File, error) {
	if c, ok := fio.(*cachingIO); ok {
		fio = c.FileIO
	}
	if so, ok := fio.(SizedOpener); ok && size > 0 {
		return so.OpenSized(ctx, path, size)
	}
	return fio.Open(ctx, path)
}
