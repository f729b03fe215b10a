package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// warehouse is where a catalog that keeps its pointers elsewhere (the SQL
// catalog's rows) keeps the files of its tables and views: a local
// directory (localWarehouse) or a prefix of an object store
// (objectWarehouse). Locations are as written in metadata; the warehouse
// refuses those outside it with 42501.
type warehouse interface {
	// root is the warehouse as locations spell it.
	root() string
	// defaultLocation is where a new table or view id goes: a folder per
	// namespace level under the root, then the name.
	defaultLocation(id Identifier) string
	// place is the location a table at loc is given: loc in the
	// warehouse's own spelling; a location outside it is refused.
	place(loc string) (string, error)
	// readTable and readView read (and cache) a metadata file.
	readTable(ctx context.Context, loc string) (*TableMetadata, error)
	readView(ctx context.Context, loc string) (*ViewMetadata, error)
	// exists reports whether the file at loc exists.
	exists(ctx context.Context, loc string) (bool, error)
	// writeMetadata writes data as the new file name of the metadata
	// folder metaDir (a location) of the table or view at tableLoc; it
	// fails when the file exists. It returns the file's location.
	writeMetadata(ctx context.Context, tableLoc, metaDir, name string, data []byte) (string, error)
	// cacheTable and cacheView remember a metadata file just written.
	cacheTable(loc string, m *TableMetadata)
	cacheView(loc string, m *ViewMetadata)
	// removeFile deletes a file that no pointer names (a commit that
	// lost); failures are logged.
	removeFile(ctx context.Context, loc string)
	// tableIO is the FileIO of the table whose current metadata file is
	// at metaLoc.
	tableIO(ctx context.Context, metaLoc string) FileIO
	// output is where the table writes its new files.
	output(t *Table) (OutputIO, error)
	// prepare makes what a new table at tableLoc needs before its files
	// are written, and reports whether it made its folder.
	prepare(ctx context.Context, tableLoc string) (made bool, err error)
	// removeTable deletes every file under the table's location.
	removeTable(ctx context.Context, tableLoc string) error
	// dropNamespace removes what a dropped namespace leaves (an empty
	// folder).
	dropNamespace(ns []string)
	// afterCommit deletes metadata files a commit of tbl dropped from its
	// log (write.metadata.delete-after-commit.enabled).
	afterCommit(tbl *Table, base *TableMetadata, baseLoc string)
	// relative rewrites an error's paths for messages.
	relative(err error) error
	setSyncer(s Syncer)
	close(ctx context.Context) error
}

// localWarehouse is a warehouse directory, read and written as the
// filesystem catalog does (its FileIO, write records and crash sweep).
type localWarehouse struct {
	name  string // the catalog's, for messages
	files *Filesystem
}

var _ warehouse = (*localWarehouse)(nil)

func (w *localWarehouse) root() string { return w.files.Root() }

func (w *localWarehouse) defaultLocation(id Identifier) string {
	return filepath.Join(append(append([]string{w.files.root}, id.Namespace...), id.Name)...)
}

// local is the local path of a file a row or metadata names, which must be
// in the warehouse (or under a configured prefix).
func (w *localWarehouse) local(written string) (string, error) {
	// The longest configured prefix that matches, as NewLocalIO resolves.
	froms := slices.SortedFunc(maps.Keys(w.files.prefixes), func(a, b string) int { return len(b) - len(a) })
	for _, from := range froms {
		to := w.files.prefixes[from]
		if rest, ok := strings.CutPrefix(written, from); ok {
			if !filepath.IsAbs(to) {
				to = filepath.Join(w.files.root, to)
			}
			p := filepath.Join(to, filepath.FromSlash(rest))
			if hasDotDot(rest) || !within(realParent(p), realPath(to)) {
				break
			}
			return p, nil
		}
	}
	p := stripScheme(written)
	if !filepath.IsAbs(p) || hasDotDot(p) || !within(realParent(filepath.Clean(p)), realPath(w.files.root)) {
		return "", outsideWarehouse(w.name, written)
	}
	return filepath.Clean(p), nil
}

// outsideWarehouse is the error for a file outside catalog's warehouse.
func outsideWarehouse(catalog, written string) error {
	return pgerr.Wrap(fmt.Errorf("%s: %w", written, ErrOutsideWarehouse), pgerr.InsufficientPrivilege,
		"file \"%s\" is outside the warehouse of catalog \"%s\"", written, catalog).
		WithHint("icegate reads and writes the files of a catalog's tables in its warehouse.")
}

func (w *localWarehouse) place(loc string) (string, error) { return w.local(loc) }

func (w *localWarehouse) readTable(ctx context.Context, loc string) (*TableMetadata, error) {
	local, err := w.local(loc)
	if err != nil {
		return nil, err
	}
	m, err := w.files.readMetadata(local)
	if err != nil {
		return nil, w.files.metadataError(err)
	}
	return m, nil
}

func (w *localWarehouse) readView(ctx context.Context, loc string) (*ViewMetadata, error) {
	local, err := w.local(loc)
	if err != nil {
		return nil, err
	}
	return w.files.readViewMetadata(local)
}

func (w *localWarehouse) exists(ctx context.Context, loc string) (bool, error) {
	local, err := w.local(loc)
	if err != nil {
		return false, err
	}
	st, err := os.Stat(local)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, err
	}
	return !st.IsDir(), nil
}

func (w *localWarehouse) writeMetadata(ctx context.Context, tableLoc, metaLoc, name string, data []byte) (string, error) {
	tableDir, err := w.local(tableLoc)
	if err != nil {
		return "", err
	}
	metaDir, err := w.local(metaLoc)
	if err != nil {
		return "", err
	}
	if err := mkdirAllSynced(w.files.sync, metaDir); err != nil {
		return "", err
	}
	var record func(string) error
	if within(metaDir, tableDir) {
		record = w.files.recorder(tableDir)
	}
	if err := createExclusive(w.files.sync, record, metaDir, name, data, true); err != nil {
		return "", err
	}
	return strings.TrimSuffix(metaLoc, "/") + "/" + name, nil
}

func (w *localWarehouse) cacheTable(loc string, m *TableMetadata) {
	if local, err := w.local(loc); err == nil {
		w.files.cache.put("metadata:"+local, m)
	}
}

func (w *localWarehouse) cacheView(loc string, m *ViewMetadata) {
	if local, err := w.local(loc); err == nil {
		w.files.cache.put(viewKey(local), m)
	}
}

func (w *localWarehouse) removeFile(ctx context.Context, loc string) {
	if local, err := w.local(loc); err == nil {
		os.Remove(local)
	}
}

// metadataTableDir is the local directory of the table whose metadata file
// is at local (<dir>/metadata/<file>).
func metadataTableDir(local string) string { return filepath.Dir(filepath.Dir(local)) }

func (w *localWarehouse) tableIO(ctx context.Context, metaLoc string) FileIO {
	local, err := w.local(metaLoc)
	if err != nil {
		return w.files.tableIO(w.files.root)
	}
	dir := metadataTableDir(local)
	w.files.sweepOnce(ctx, dir)
	return w.files.tableIO(dir)
}

// output maps written paths under the table's location to the same
// relative paths under its directory.
func (w *localWarehouse) output(t *Table) (OutputIO, error) {
	location := strings.TrimSuffix(t.Metadata.Location, "/")
	dir, err := w.local(location)
	if err != nil {
		return nil, w.files.relative(err)
	}
	return &fsOutput{location: location, dir: dir, table: qualified(t.Ident.Namespace, t.Ident.Name),
		realDir: realPath(dir), sync: w.files.sync, cat: w.files}, nil
}

func (w *localWarehouse) prepare(ctx context.Context, tableLoc string) (bool, error) {
	dir, err := w.local(tableLoc)
	if err != nil {
		return false, err
	}
	_, statErr := os.Stat(dir)
	made := errors.Is(statErr, fs.ErrNotExist)
	for _, sub := range []string{"data", "metadata"} {
		if err := mkdirAllSynced(w.files.sync, filepath.Join(dir, sub)); err != nil {
			return made, err
		}
	}
	return made, nil
}

func (w *localWarehouse) removeTable(ctx context.Context, tableLoc string) error {
	dir, err := w.local(tableLoc)
	if err != nil {
		return err
	}
	w.files.forget(dir)
	return os.RemoveAll(dir)
}

func (w *localWarehouse) dropNamespace(ns []string) {
	// The namespace's directory goes when it is empty: a table dropped
	// without purge keeps its files, and them their directory.
	if dir, err := w.files.namespaceDir(ns); err == nil {
		os.Remove(dir)
	}
}

func (w *localWarehouse) afterCommit(tbl *Table, base *TableMetadata, baseLoc string) {
	local, err := w.local(tbl.MetadataLocation)
	if err != nil {
		return
	}
	w.files.deleteDroppedMetadata(tbl, filepath.Dir(local), base, baseLoc)
}

func (w *localWarehouse) relative(err error) error        { return w.files.relative(err) }
func (w *localWarehouse) setSyncer(s Syncer)              { w.files.SetSyncer(s) }
func (w *localWarehouse) close(ctx context.Context) error { return w.files.Close(ctx) }
