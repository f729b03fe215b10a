package catalog

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/icegate/icegate/internal/pgerr"
)

// defaultCacheEntries bounds the parsed-file cache of a Filesystem catalog.
const defaultCacheEntries = 4096

// Filesystem is a Catalog (and a MutableCatalog: filesystem_write.go) over a
// warehouse directory in the layout of Hadoop catalogs: namespaces are
// directories (nested namespaces nested directories) and a table is a
// directory holding metadata/ with its metadata files.
type Filesystem struct {
	name     string
	root     string
	prefixes map[string]string
	cache    *fileCache

	mu  sync.Mutex
	ios map[string]FileIO // table directory -> its FileIO (keeps resolution caches)
	// stagedMarkers are the locked markers of the tables this process
	// staged (filesystem_stage.go), by table directory.
	stagedMarkers map[string]*os.File
	// adopted are the staged tables whose directory existed before they
	// were staged (filesystem_stage.go): discarding one removes only its
	// marker.
	adopted map[string]bool

	// hints remembers, per metadata directory, the version hint file last
	// read and the metadata file it named (filesystem_hint.go).
	hints map[string]hintEntry
	// paths are the paths of the tables loaded, by table (tablePaths).
	paths map[fsTableKey]fsTablePaths

	hintMu sync.Mutex   // serializes version hint updates (filesystem_write.go)
	sync   Syncer       // makes written files durable (atomic_file.go)
	writes writeRecords // what this process writes, for crash cleanup (filesystem_cleanup.go)
}

// NewFilesystem returns the catalog called name over the warehouse at root.
// prefixes maps written path prefixes to local directories (see NewLocalIO).
// root need not exist: the catalog is then empty.
func NewFilesystem(name, root string, prefixes map[string]string) (*Filesystem, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: warehouse %q: %w", name, root, err)
	}
	return &Filesystem{
		name:     name,
		root:     abs,
		prefixes: prefixes,
		cache:    newFileCache(defaultCacheEntries),
		ios:      make(map[string]FileIO),
		hints:    make(map[string]hintEntry),
		paths:    make(map[fsTableKey]fsTablePaths),
		sync:     OSSyncer{},
	}, nil
}

// SetSyncer replaces how the catalog makes written files durable (fsync by
// default): a test records the calls through it. Call it before use.
func (c *Filesystem) SetSyncer(s Syncer) { c.sync = s }

// Name implements Catalog.
func (c *Filesystem) Name() string { return c.name }

// Root returns the warehouse directory.
func (c *Filesystem) Root() string { return c.root }

// ListNamespaces implements Catalog: every directory under the root that is
// not a table nor inside one, as a path of names.
func (c *Filesystem) ListNamespaces(ctx context.Context) (_ [][]string, err error) {
	defer func() { err = c.relative(err) }()
	var out [][]string
	var walk func(dir string, ns []string) error
	walk = func(dir string, ns []string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && len(ns) == 0 {
				return nil
			}
			return fmt.Errorf("list namespaces in %s: %w", dir, err)
		}
		for _, e := range entries {
			if !isDir(dir, e) || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			sub := filepath.Join(dir, e.Name())
			if isTableDir(sub) || isStagedDir(sub) {
				continue
			}
			child := append(append([]string(nil), ns...), e.Name())
			out = append(out, child)
			if err := walk(sub, child); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(c.root, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// ListTables implements Catalog. Views (directories whose metadata is view
// metadata) are not listed.
func (c *Filesystem) ListTables(ctx context.Context, namespace []string) (_ []Identifier, err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dir, err := c.namespaceDir(namespace)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("namespace %s: %w", strings.Join(namespace, "."), ErrNotFound)
		}
		return nil, fmt.Errorf("list tables in %s: %w", strings.Join(namespace, "."), err)
	}
	var out []Identifier
	for _, e := range entries {
		if isDir(dir, e) && !strings.HasPrefix(e.Name(), ".") && isTableDir(filepath.Join(dir, e.Name())) &&
			!c.isViewDir(filepath.Join(dir, e.Name())) {
			out = append(out, Identifier{Namespace: append([]string(nil), namespace...), Name: e.Name()})
		}
	}
	return out, nil
}

// LoadTable implements Catalog.
func (c *Filesystem) LoadTable(ctx context.Context, id Identifier) (_ *Table, err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	paths, err := c.tablePaths(id)
	if err != nil {
		return nil, err
	}
	nsDir, tableDir, metaDir := paths.nsDir, paths.tableDir, paths.metaDir
	// One stat of the version hint tells a table (isTableDir's common
	// case) and whether the hint last read still holds.
	hint, hintErr := os.Stat(paths.hint)
	if (hintErr != nil || hint.IsDir()) && !isTableDir(tableDir) {
		if _, err := os.Stat(nsDir); err != nil {
			return nil, fmt.Errorf("load table %s: namespace %s: %w", qualified(id.Namespace, id.Name), strings.Join(id.Namespace, "."), ErrNotFound)
		}
		return nil, fmt.Errorf("load table %s: %w", qualified(id.Namespace, id.Name), ErrNotFound)
	}
	metaPath, err := c.currentMetadataStat(metaDir, hint, hintErr)
	if err != nil {
		return nil, c.metadataError(fmt.Errorf("load table %s: %w", qualified(id.Namespace, id.Name), err))
	}
	meta, err := c.readMetadata(metaPath)
	if err != nil {
		return nil, c.metadataError(fmt.Errorf("load table %s: %w", qualified(id.Namespace, id.Name), err))
	}
	c.sweepOnce(ctx, tableDir)
	return &Table{
		Ident:            Identifier{Namespace: append([]string(nil), id.Namespace...), Name: id.Name},
		MetadataLocation: metaPath,
		Metadata:         meta,
		IO:               c.tableIO(tableDir),
	}, nil
}

// fsTablePaths are the directories and the version hint of a table of
// the filesystem catalog.
type fsTablePaths struct{ nsDir, tableDir, metaDir, hint string }

// fsTableKey is a table of a one-level namespace, the common case, as a
// map key that costs nothing to make.
type fsTableKey struct{ ns, name string }

// tablePaths returns id's paths (a pure function of the root and id),
// kept for the tables of one-level namespaces so that loading one again
// joins no path.
func (c *Filesystem) tablePaths(id Identifier) (fsTablePaths, error) {
	one := len(id.Namespace) == 1
	var key fsTableKey
	if one {
		key = fsTableKey{id.Namespace[0], id.Name}
		c.mu.Lock()
		p, ok := c.paths[key]
		c.mu.Unlock()
		if ok {
			return p, nil
		}
	}
	nsDir, err := c.namespaceDir(id.Namespace)
	if err != nil {
		return fsTablePaths{}, err
	}
	if !validName(id.Name) {
		return fsTablePaths{}, fmt.Errorf("load table %s: %w", qualified(id.Namespace, id.Name), ErrNotFound)
	}
	tableDir := filepath.Join(nsDir, id.Name)
	metaDir := filepath.Join(tableDir, "metadata")
	p := fsTablePaths{nsDir: nsDir, tableDir: tableDir, metaDir: metaDir, hint: filepath.Join(metaDir, "version-hint.text")}
	if one {
		c.mu.Lock()
		if len(c.paths) >= maxResolvedDirs {
			clear(c.paths)
		}
		c.paths[key] = p
		c.mu.Unlock()
	}
	return p, nil
}

func (c *Filesystem) tableIO(tableDir string) FileIO {
	c.mu.Lock()
	defer c.mu.Unlock()
	if fio, ok := c.ios[tableDir]; ok {
		return &cachingIO{FileIO: fio, cache: c.cache}
	}
	if len(c.ios) >= maxResolvedDirs {
		clear(c.ios)
	}
	fio := NewLocalIO(tableDir, c.root, c.prefixes)
	c.ios[tableDir] = fio
	return &cachingIO{FileIO: fio, cache: c.cache}
}

// readMetadata reads and parses a metadata file (gzip or plain), cached by
// path: metadata files are immutable.
func (c *Filesystem) readMetadata(path string) (*TableMetadata, error) {
	if v, ok := c.cache.get("metadata:" + path); ok {
		return v.(*TableMetadata), nil
	}
	if v, ok := c.cache.get(kindKey(path)); ok && v.(bool) {
		return nil, fmt.Errorf("metadata %s: %w", path, errIsView)
	}
	data, err := readMetadataBytes(path)
	if err != nil {
		return nil, &metadataPathError{path: path, err: err}
	}
	if isViewJSON(data) {
		c.cache.put(kindKey(path), true)
		return nil, fmt.Errorf("metadata %s: %w", path, errIsView)
	}
	m, err := ParseMetadata(data)
	if err != nil {
		return nil, &metadataPathError{path: path, err: err}
	}
	c.cache.put("metadata:"+path, m)
	return m, nil
}

// readMetadataBytes reads a metadata file, gunzipped if it is gzip.
func readMetadataBytes(path string) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("read metadata %s: %w", path, errNotRegular)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read metadata %s: %w", path, ErrNotFound)
		}
		return nil, fmt.Errorf("read metadata %s: %w", path, err)
	}
	return gunzipMetadata(path, data)
}

// gunzipMetadata is a metadata file's contents, gunzipped if they are gzip.
func gunzipMetadata(path string, data []byte) ([]byte, error) {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("read metadata %s: %w: %w", path, ErrDataInvalid, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("read metadata %s: %w: %w", path, ErrDataInvalid, err)
		}
	}
	return data, nil
}

func (c *Filesystem) namespaceDir(ns []string) (string, error) {
	for _, n := range ns {
		if !validName(n) {
			return "", fmt.Errorf("namespace %s: %w", strings.Join(ns, "."), ErrNotFound)
		}
	}
	return filepath.Join(append([]string{c.root}, ns...)...), nil
}

// validName rejects names that would leave their directory.
func validName(n string) bool {
	return n != "" && n != "." && n != ".." && !strings.ContainsAny(n, `/\`) && !strings.ContainsRune(n, 0)
}

func isDir(parent string, e os.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink != 0 {
		st, err := os.Stat(filepath.Join(parent, e.Name()))
		return err == nil && st.IsDir()
	}
	return false
}

// isTableDir reports whether dir holds metadata/ with a version hint or a
// metadata file.
func isTableDir(dir string) bool {
	meta := filepath.Join(dir, "metadata")
	// The common case without listing a directory of thousands of
	// manifests: a version hint.
	if st, err := os.Stat(filepath.Join(meta, "version-hint.text")); err == nil && !st.IsDir() {
		return true
	}
	entries, err := os.ReadDir(meta)
	if err != nil {
		return false
	}
	for _, e := range entries {
		n := e.Name()
		if n == "version-hint.text" || metadataVersion(n) >= 0 {
			return true
		}
	}
	return false
}

var (
	versionedFile = regexp.MustCompile(`^v(\d+)(\.gz)?\.metadata\.json(\.gz)?$`)
	numberedFile  = regexp.MustCompile(`^(\d+)-[^/]+?(\.gz)?\.metadata\.json(\.gz)?$`)
)

// metadataVersion returns the version number of a metadata file name
// ("v3.metadata.json", "00003-<uuid>.metadata.json", gzip variants), or -1.
func metadataVersion(name string) int64 {
	m := versionedFile.FindStringSubmatch(name)
	if m == nil {
		m = numberedFile.FindStringSubmatch(name)
	}
	if m == nil {
		return -1
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// currentMetadataFile picks the current metadata file of a table's metadata
// directory: the one version-hint.text names (a version number or a file
// stem), else the highest version among the metadata files.
func currentMetadataFile(metaDir string) (string, error) {
	if hint, err := os.ReadFile(filepath.Join(metaDir, "version-hint.text")); err == nil {
		if p := hintedFile(metaDir, strings.TrimSpace(string(hint))); p != "" {
			return followCommitted(metaDir, p)
		}
	}
	entries, err := os.ReadDir(metaDir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("metadata directory %s: %w", metaDir, ErrNotFound)
		}
		return "", fmt.Errorf("list %s: %w", metaDir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if metadataVersion(e.Name()) < 0 {
			continue
		}
		if !e.Type().IsRegular() {
			// A directory (or link, device...) named as a metadata file:
			// choosing around it could silently serve an old version.
			p := filepath.Join(metaDir, e.Name())
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
				return "", &metadataPathError{path: p, err: errNotRegular}
			}
		}
		names = append(names, e.Name())
	}
	if len(names) == 0 {
		return "", fmt.Errorf("no metadata file in %s: %w", metaDir, ErrNotFound)
	}
	sort.Slice(names, func(i, j int) bool {
		vi, vj := metadataVersion(names[i]), metadataVersion(names[j])
		if vi != vj {
			return vi < vj
		}
		return names[i] < names[j]
	})
	return filepath.Join(metaDir, names[len(names)-1]), nil
}

// followCommitted moves from the hinted metadata file vN.metadata.json to
// the versions committed after it: a commit links v<N+1> into place before
// it moves the hint (filesystem_write.go), so a crash between the two
// leaves the hint one version behind a commit that happened. Hadoop
// tables of other engines are read the same way.
func followCommitted(metaDir, p string) (string, error) {
	for {
		next := nextVersionFile(metaDir, p)
		if next == "" {
			return p, nil
		}
		ok, err := committedFile(next)
		if err != nil || !ok {
			return p, err
		}
		p = next
	}
}

// nextVersionFile is the metadata file in metaDir of the version after
// p's, "" when p's name is not vN.metadata.json.
func nextVersionFile(metaDir, p string) string {
	num, ok := strings.CutPrefix(filepath.Base(p), "v")
	if !ok {
		return ""
	}
	num, ok = strings.CutSuffix(num, ".metadata.json")
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil {
		return ""
	}
	return filepath.Join(metaDir, "v"+strconv.FormatInt(n+1, 10)+".metadata.json")
}

// committedFile reports whether the metadata file path exists. Anything
// else than a file there, or a failing stat other than "does not exist",
// is an error: the table's versions cannot be told.
func committedFile(path string) (bool, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, &metadataPathError{path: path, err: err}
	case !st.Mode().IsRegular():
		return false, &metadataPathError{path: path, err: errNotRegular}
	}
	return true, nil
}

// metadataPathError is an error about the metadata file at path (local).
type metadataPathError struct {
	path string
	err  error
}

func (e *metadataPathError) Error() string { return e.path + ": " + e.err.Error() }
func (e *metadataPathError) Unwrap() error { return e.err }

// metadataError gives an error about a metadata file its SQLSTATE and a
// message naming the file relative to its table.
func (c *Filesystem) metadataError(err error) error {
	var me *metadataPathError
	if pgerr.As(err) != nil || errors.Is(err, errIsView) || !errors.As(err, &me) {
		return err
	}
	return metadataFileError(c.root, me.path, err)
}

// hintedFile returns the metadata file a version hint names, or "".
func hintedFile(metaDir, hint string) string {
	if hint == "" || strings.ContainsAny(hint, `/\`) {
		return ""
	}
	var cands []string
	if _, err := strconv.ParseUint(hint, 10, 63); err == nil {
		cands = []string{"v" + hint + ".metadata.json", "v" + hint + ".gz.metadata.json", "v" + hint + ".metadata.json.gz"}
	} else {
		cands = []string{hint, hint + ".metadata.json", hint + ".gz.metadata.json", hint + ".metadata.json.gz"}
	}
	for _, n := range cands {
		p := filepath.Join(metaDir, n)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && (n != hint || metadataVersion(n) >= 0) {
			return p
		}
	}
	return ""
}
