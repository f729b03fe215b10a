package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/objstore"
)

// This file gives catalogs that keep no warehouse of their own (the REST
// catalog client: the server owns the metadata files, the client reads and
// writes a table's data and manifests) the FileIO and OutputIO of a table
// by its location.

// ObjectFiles reads the files of tables in an object store, under root
// (s3://bucket or a prefix of it), through one cache of parsed metadata
// and manifests, and writes new files under each table's location.
type ObjectFiles struct {
	w *objectWarehouse
}

// NewObjectFiles returns the files of store under root; blobs caches the
// bytes read (nil: none). name is the catalog's, for messages.
func NewObjectFiles(name string, store objstore.Store, blobs *objstore.Cache, root string) (*ObjectFiles, error) {
	w, err := newObjectWarehouse(name, store, blobs, root)
	if err != nil {
		return nil, err
	}
	return &ObjectFiles{w: w}, nil
}

// TableIO is the FileIO of table id.
func (f *ObjectFiles) TableIO(id Identifier) FileIO {
	return &cachingIO{FileIO: &objectIO{w: f.w, table: qualified(id.Namespace, id.Name)}, cache: f.w.cache}
}

// Output is the OutputIO of table id at location: it creates files under
// the location only.
func (f *ObjectFiles) Output(id Identifier, location string) (OutputIO, error) {
	return f.w.output(&Table{Ident: id, Metadata: &TableMetadata{Location: location}})
}

// NewLocalTableIO is the FileIO and OutputIO of table id whose location is
// a local directory (an absolute path or a file: URI): new files are
// created under it. Reads stay inside the directory of the table's
// current metadata file (metadataFile, <dir>/metadata/<file>) when it is
// given, which a catalog that moves tables on rename keeps right while
// the location in the metadata still names the old directory; else inside
// the location. With root (a local warehouse directory the table's
// directory is in) reads may reach any file under root, as tables
// registered from another table's metadata need.
//
// cache, when set, keeps the parsed metadata files, manifest lists and
// manifests read through the FileIO (they never change once written),
// shared by every table given it: without it each commit parses the
// table's manifests again to check that no file is added twice.
func NewLocalTableIO(id Identifier, location, metadataFile, root string, cache *FileCache) (FileIO, OutputIO, error) {
	name := qualified(id.Namespace, id.Name)
	loc := strings.TrimSuffix(location, "/")
	dir := filepath.Clean(stripScheme(loc))
	if !filepath.IsAbs(dir) || hasDotDot(stripScheme(loc)) {
		return nil, nil, pgerr.Wrap(fmt.Errorf("table %s: location %s: %w", name, location, ErrOutsideWarehouse),
			pgerr.InsufficientPrivilege, "table \"%s\" has location \"%s\", which is not an absolute local path", name, location)
	}
	readDir := dir
	if mf := stripScheme(metadataFile); filepath.IsAbs(mf) && !hasDotDot(mf) {
		readDir = metadataTableDir(filepath.Clean(mf))
	}
	readRoot := readDir
	if r := filepath.Clean(stripScheme(root)); root != "" && filepath.IsAbs(r) && within(readDir, r) {
		readRoot = r
	}
	out := &localOutput{location: loc, dir: dir, table: name}
	fio := NewLocalIO(readDir, readRoot, nil)
	if cache != nil {
		fio = &cachingIO{FileIO: fio, cache: cache.c}
	}
	return fio, out, nil
}

// FileCache is a cache of parsed table files (metadata files, manifest
// lists, manifests) for NewLocalTableIO, bounded by a count of entries.
type FileCache struct{ c *fileCache }

// NewFileCache returns an empty cache of the default size.
func NewFileCache() *FileCache { return &FileCache{c: newFileCache(defaultCacheEntries)} }

// localOutput creates a table's new files in its local directory.
type localOutput struct {
	location string // as metadata writes it, no trailing slash
	dir      string
	table    string
}

func (o *localOutput) local(path string) (string, error) {
	rest, ok := strings.CutPrefix(path, o.location+"/")
	if !ok || hasDotDot(rest) {
		return "", pgerr.Wrap(fmt.Errorf("output %s: %w", path, ErrOutsideWarehouse), pgerr.InsufficientPrivilege,
			"cannot write file \"%s\" of table \"%s\": it is not under the table's location", path, o.table)
	}
	return filepath.Join(o.dir, filepath.FromSlash(rest)), nil
}

// Create implements OutputIO.
func (o *localOutput) Create(ctx context.Context, path string) (io.WriteCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	local, err := o.local(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	f, err := os.OpenFile(local, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("output %s: %w", path, ErrAlreadyExists)
		}
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	return f, nil
}

// Remove implements OutputIO.
func (o *localOutput) Remove(ctx context.Context, path string) error {
	local, err := o.local(path)
	if err != nil {
		return err
	}
	if err := os.Remove(local); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}
