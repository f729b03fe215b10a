// Package objstore reads and writes objects of S3-compatible object stores
// for the catalogs: objects are named by URIs (s3://bucket/key; s3a:// and
// s3n:// are the same store), read by ranges through a bounded local cache,
// written in one request or in parts, and deleted and listed.
//
// It knows nothing of Iceberg: catalog builds its FileIO, OutputIO and the
// object-store catalogs on top of Store.
package objstore

import (
	"context"
	"errors"
	"io"
	"time"
)

// Errors a Store returns, wrapped with the object and the cause.
var (
	// ErrNotFound: the object (or its bucket) does not exist.
	ErrNotFound = errors.New("object not found")
	// ErrExists: a conditional write lost (If-None-Match: * and the object
	// exists, or an If-Match that no longer matches).
	ErrExists = errors.New("object already exists")
	// ErrChanged: the object changed between Head and a ranged read
	// (its ETag differs).
	ErrChanged = errors.New("object changed while being read")
	// ErrNoConditionalWrites: the store ignored or refused If-None-Match,
	// so it cannot arbitrate two writers.
	ErrNoConditionalWrites = errors.New("the store does not support conditional writes")
)

// Info describes an object.
type Info struct {
	URI     string // canonical: s3://bucket/key
	Size    int64
	ETag    string // as the store gives it, quotes removed
	ModTime time.Time
}

// Store is an object store. URIs are s3://, s3a:// or s3n:// URIs; results
// name objects by their canonical URI (Canonical). Every method retries
// what is safe to retry (throttling, 5xx, connection resets) with backoff
// before it gives up.
type Store interface {
	// Head returns an object's size and ETag.
	Head(ctx context.Context, uri string) (Info, error)
	// ReadRange reads len(p) bytes at off. With etag set the read fails
	// with ErrChanged when the object no longer has it. A range that ends
	// past the object's end reads what there is and returns io.EOF.
	ReadRange(ctx context.Context, uri, etag string, p []byte, off int64) (int, error)
	// Put writes a whole object in one request. With ifAbsent the write
	// succeeds only when no object of that name exists (ErrExists).
	Put(ctx context.Context, uri string, data []byte, ifAbsent bool) error
	// Create starts a streamed write of an object (multipart once it is
	// larger than one part). The object appears when Close returns nil;
	// Abort (or ctx ending before Close) leaves no object and no pending
	// upload.
	Create(ctx context.Context, uri string) (Writer, error)
	// Delete removes an object; a missing object is not an error.
	Delete(ctx context.Context, uri string) error
	// List calls fn for every object whose URI starts with prefix, in key
	// order, until fn returns an error (which List returns).
	List(ctx context.Context, prefix string, fn func(Info) error) error
}

// Writer is a streamed write of one object.
type Writer interface {
	io.WriteCloser
	// Abort discards what was written; after Close it does nothing.
	Abort() error
}
