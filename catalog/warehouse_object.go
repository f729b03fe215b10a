package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/objstore"
)

// objectWarehouse is a warehouse under a prefix of an object store
// (s3://bucket/prefix). Metadata files are written with a conditional
// write (If-None-Match), data and manifest files streamed (in parts when
// large); reads go through the store's cached ranged reader. Object
// stores have no folders: a table is the objects under its location.
type objectWarehouse struct {
	name  string // the catalog's, for messages
	store objstore.Store
	blobs *objstore.Cache // bytes of objects read (nil: none)
	base  string          // canonical root URI, no trailing slash
	cache *fileCache      // parsed metadata, manifest lists and manifests
}

var _ warehouse = (*objectWarehouse)(nil)

// newObjectWarehouse is the warehouse at root (an s3:// URI) of store.
func newObjectWarehouse(name string, store objstore.Store, blobs *objstore.Cache, root string) (*objectWarehouse, error) {
	base, err := objstore.Canonical(strings.TrimSuffix(root, "/"))
	if err != nil {
		return nil, fmt.Errorf("catalog %s: warehouse %s: %w", name, root, err)
	}
	return &objectWarehouse{name: name, store: store, blobs: blobs, base: strings.TrimSuffix(base, "/"),
		cache: newFileCache(defaultCacheEntries)}, nil
}

func (w *objectWarehouse) root() string { return w.base }

func (w *objectWarehouse) defaultLocation(id Identifier) string {
	return w.base + "/" + strings.Join(append(append([]string(nil), id.Namespace...), id.Name), "/")
}

// uri is the canonical URI of a location in the warehouse; others are
// refused (42501), as the local warehouse refuses paths outside it.
func (w *objectWarehouse) uri(loc string) (string, error) {
	if !objstore.IsObjectURI(loc) {
		return "", outsideWarehouse(w.name, loc)
	}
	u, err := objstore.Canonical(loc)
	if err != nil || (u != w.base && !strings.HasPrefix(u, w.base+"/")) {
		return "", outsideWarehouse(w.name, loc)
	}
	return u, nil
}

func (w *objectWarehouse) place(loc string) (string, error) { return w.uri(loc) }

// readAll reads a whole object.
func (w *objectWarehouse) readAll(ctx context.Context, u string) ([]byte, error) {
	r, err := objstore.Open(ctx, w.store, w.blobs, u, objstore.ReaderOptions{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data := make([]byte, r.Size())
	if _, err := r.ReadAt(data, 0); err != nil && !(errors.Is(err, io.EOF) && len(data) == 0) {
		return nil, err
	}
	return data, nil
}

// metadataBytes reads a metadata file, gunzipped if it is gzip.
func (w *objectWarehouse) metadataBytes(ctx context.Context, loc string) (string, []byte, error) {
	u, err := w.uri(loc)
	if err != nil {
		return "", nil, err
	}
	data, err := w.readAll(ctx, u)
	if err != nil {
		return "", nil, w.objectError(u, "", err)
	}
	data, err = gunzipMetadata(u, data)
	if err != nil {
		return "", nil, pgerr.Wrap(err, pgerr.DataCorrupted, "invalid data in file \"%s\": %v", u, err)
	}
	return u, data, nil
}

// objectError is the error for a file of table (may be "") that could not
// be read: the store's own errors name the object and carry a SQLSTATE.
func (w *objectWarehouse) objectError(u, table string, err error) error {
	if pgerr.As(err) != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	of := ""
	if table != "" {
		of = " of table \"" + table + "\""
	}
	if errors.Is(err, objstore.ErrNotFound) {
		return pgerr.Wrap(fmt.Errorf("%s: %w: %w", u, ErrNotFound, err), pgerr.UndefinedFile,
			"could not open file \"%s\"%s: no such object", u, of)
	}
	return pgerr.Wrap(err, pgerr.IOError, "could not read file \"%s\"%s: %v", u, of, err)
}

func (w *objectWarehouse) readTable(ctx context.Context, loc string) (*TableMetadata, error) {
	if u, err := w.uri(loc); err == nil {
		if v, ok := w.cache.get("metadata:" + u); ok {
			return v.(*TableMetadata), nil
		}
	}
	u, data, err := w.metadataBytes(ctx, loc)
	if err != nil {
		return nil, err
	}
	if isViewJSON(data) {
		return nil, fmt.Errorf("metadata %s: %w", u, errIsView)
	}
	m, err := ParseMetadata(data)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.DataCorrupted, "invalid data in file \"%s\": %v", u, err)
	}
	w.cache.put("metadata:"+u, m)
	return m, nil
}

func (w *objectWarehouse) readView(ctx context.Context, loc string) (*ViewMetadata, error) {
	if u, err := w.uri(loc); err == nil {
		if v, ok := w.cache.get(viewKey(u)); ok {
			return v.(*ViewMetadata), nil
		}
	}
	u, data, err := w.metadataBytes(ctx, loc)
	if err != nil {
		return nil, err
	}
	if !isViewJSON(data) {
		return nil, fmt.Errorf("metadata %s: %w", u, errIsTable)
	}
	m, err := ParseViewMetadata(data)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.DataCorrupted, "invalid data in file \"%s\": %v", u, err)
	}
	w.cache.put(viewKey(u), m)
	return m, nil
}

func (w *objectWarehouse) exists(ctx context.Context, loc string) (bool, error) {
	u, err := w.uri(loc)
	if err != nil {
		return false, err
	}
	if _, err := w.store.Head(ctx, u); err != nil {
		if errors.Is(err, objstore.ErrNotFound) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

func (w *objectWarehouse) writeMetadata(ctx context.Context, tableLoc, metaDir, name string, data []byte) (string, error) {
	u, err := w.uri(strings.TrimSuffix(metaDir, "/") + "/" + name)
	if err != nil {
		return "", err
	}
	if err := w.store.Put(ctx, u, data, true); err != nil {
		if errors.Is(err, objstore.ErrExists) {
			return "", fmt.Errorf("write %s: another writer wrote it first: %w", u, ErrCommitConflict)
		}
		return "", err
	}
	return u, nil
}

func (w *objectWarehouse) cacheTable(loc string, m *TableMetadata) {
	if u, err := w.uri(loc); err == nil {
		w.cache.put("metadata:"+u, m)
	}
}

func (w *objectWarehouse) cacheView(loc string, m *ViewMetadata) {
	if u, err := w.uri(loc); err == nil {
		w.cache.put(viewKey(u), m)
	}
}

func (w *objectWarehouse) removeFile(ctx context.Context, loc string) {
	u, err := w.uri(loc)
	if err != nil {
		return
	}
	// The commit failed: its file must go even when ctx is done.
	if err := w.store.Delete(context.WithoutCancel(ctx), u); err != nil {
		slog.Warn("delete file of a failed commit", "file", u, "err", err)
	}
}

func (w *objectWarehouse) tableIO(ctx context.Context, metaLoc string) FileIO {
	table := w.tableOf(metaLoc)
	return &cachingIO{FileIO: &objectIO{w: w, table: table}, cache: w.cache}
}

// tableOf is the dotted name of the table whose metadata file is at
// metaLoc (<location>/metadata/<file>), relative to the warehouse.
func (w *objectWarehouse) tableOf(metaLoc string) string {
	u, err := w.uri(metaLoc)
	if err != nil {
		return metaLoc
	}
	rest := strings.TrimPrefix(u, w.base+"/")
	if i := strings.LastIndex(rest, "/metadata/"); i >= 0 {
		rest = rest[:i]
	}
	return strings.ReplaceAll(rest, "/", ".")
}

func (w *objectWarehouse) output(t *Table) (OutputIO, error) {
	loc, err := w.uri(strings.TrimSuffix(t.Metadata.Location, "/"))
	if err != nil {
		return nil, err
	}
	return &objectOutput{w: w, location: loc, table: qualified(t.Ident.Namespace, t.Ident.Name)}, nil
}

func (w *objectWarehouse) prepare(ctx context.Context, tableLoc string) (bool, error) {
	u, err := w.uri(tableLoc)
	if err != nil {
		return false, err
	}
	// The table's "folder" is new when no object is under it.
	errAny := errors.New("an object")
	err = w.store.List(ctx, strings.TrimSuffix(u, "/")+"/", func(objstore.Info) error { return errAny })
	if errors.Is(err, errAny) {
		return false, nil
	}
	return err == nil, err
}

// removeTable deletes every object under the table's location, a few at
// a time.
func (w *objectWarehouse) removeTable(ctx context.Context, tableLoc string) error {
	u, err := w.uri(tableLoc)
	if err != nil {
		return err
	}
	prefix := strings.TrimSuffix(u, "/") + "/"
	w.cache.dropPrefix("metadata:" + prefix)
	var uris []string
	if err := w.store.List(ctx, prefix, func(i objstore.Info) error {
		uris = append(uris, i.URI)
		return nil
	}); err != nil {
		return err
	}
	return w.deleteAll(ctx, uris)
}

// deleteAll deletes objects, 8 at a time; the first failure is returned.
func (w *objectWarehouse) deleteAll(ctx context.Context, uris []string) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		sem   = make(chan struct{}, 8)
	)
	for _, u := range uris {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := w.store.Delete(ctx, u); err != nil {
				mu.Lock()
				first = cmpOr(first, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// cmpOr is a when set, else b.
func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func (w *objectWarehouse) dropNamespace(ns []string) {}

func (w *objectWarehouse) afterCommit(tbl *Table, base *TableMetadata, baseLoc string) {
	metaDir := strings.TrimSuffix(MetadataLocation(tbl.Metadata), "/") + "/"
	kept := map[string]bool{}
	for _, e := range tbl.Metadata.MetadataLog {
		if u, err := w.uri(e.MetadataFile); err == nil {
			kept[u] = true
		}
	}
	ctx := context.Background()
	for _, e := range append([]MetadataLogEntry{{MetadataFile: baseLoc}}, base.MetadataLog...) {
		u, err := w.uri(e.MetadataFile)
		if err != nil || kept[u] || !strings.HasPrefix(u, metaDir) {
			continue
		}
		if err := w.store.Delete(ctx, u); err != nil {
			slog.Warn("delete old metadata file", "file", u, "err", err)
		}
	}
}

func (w *objectWarehouse) relative(err error) error        { return err }
func (w *objectWarehouse) setSyncer(Syncer)                {}
func (w *objectWarehouse) close(ctx context.Context) error { return nil }

// objectIO is the FileIO of a table in an object warehouse.
type objectIO struct {
	w     *objectWarehouse
	table string
}

// Resolve implements FileIO: the canonical URI (s3a:// and s3n:// name
// the same objects as s3://).
func (o *objectIO) Resolve(path string) (string, error) { return o.w.uri(path) }

// Open implements FileIO.
func (o *objectIO) Open(ctx context.Context, path string) (File, error) {
	return o.open(ctx, path, objstore.ReaderOptions{})
}

// OpenSized implements SizedOpener: the table file never changes, so its
// size from the metadata stands for the store's HEAD, and its cached
// bytes are keyed by its URI and size.
func (o *objectIO) OpenSized(ctx context.Context, path string, size int64) (File, error) {
	return o.open(ctx, path, objstore.ReaderOptions{Known: &objstore.Info{Size: size}, Immutable: true})
}

func (o *objectIO) open(ctx context.Context, path string, opts objstore.ReaderOptions) (File, error) {
	u, err := o.w.uri(path)
	if err != nil {
		return nil, err
	}
	if opts.Known != nil {
		opts.Known.URI = u
	}
	r, err := objstore.Open(ctx, o.w.store, o.w.blobs, u, opts)
	if err != nil {
		return nil, o.w.objectError(u, o.table, err)
	}
	return &objectFile{Reader: r, w: o.w, uri: u, table: o.table}, nil
}

// describe implements describer: objects are named by their URI.
func (o *objectIO) describe(written string) (name, table, local string) {
	u, err := o.w.uri(written)
	if err != nil {
		return written, o.table, ""
	}
	return u, o.table, u
}

// objectFile is an open object; a failing read names it.
type objectFile struct {
	*objstore.Reader
	w          *objectWarehouse
	uri, table string
}

// ReadAt implements io.ReaderAt.
func (f *objectFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.Reader.ReadAt(p, off)
	if err != nil && err != io.EOF {
		err = f.w.objectError(f.uri, f.table, err)
	}
	return n, err
}

// objectOutput writes a table's new files under its location.
type objectOutput struct {
	w        *objectWarehouse
	location string // canonical
	table    string
}

func (o *objectOutput) uri(path string) (string, error) {
	u, err := o.w.uri(path)
	if err != nil || !strings.HasPrefix(u, o.location+"/") {
		return "", pgerr.Wrap(fmt.Errorf("output %s: %w", path, ErrOutsideWarehouse), pgerr.InsufficientPrivilege,
			"cannot write file \"%s\" of table \"%s\": it is not under the table's location", path, o.table).
			WithHint("Files of a table are written under its location (check the property write.data.path).")
	}
	return u, nil
}

// Create implements OutputIO. Names of new files carry a UUID, so a
// streamed write does not check that the object is new; the object
// appears only when Close succeeds.
func (o *objectOutput) Create(ctx context.Context, path string) (io.WriteCloser, error) {
	u, err := o.uri(path)
	if err != nil {
		return nil, err
	}
	wr, err := o.w.store.Create(ctx, u)
	if err != nil {
		return nil, err
	}
	return wr, nil
}

// Remove implements OutputIO.
func (o *objectOutput) Remove(ctx context.Context, path string) error {
	u, err := o.uri(path)
	if err != nil {
		return err
	}
	o.w.cache.dropPrefix("metadata:" + u)
	return o.w.store.Delete(context.WithoutCancel(ctx), u)
}
