package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/icegate/icegate/internal/pgerr"
)

var _ MutableCatalog = (*Filesystem)(nil)

const versionHintFile = "version-hint.text"

func qualified(ns []string, name string) string {
	return strings.Join(append(append([]string(nil), ns...), name), ".")
}

// CreateNamespace implements MutableCatalog: a directory under its parent
// namespace's. Namespace properties are not stored by this catalog.
func (c *Filesystem) CreateNamespace(ctx context.Context, ns []string, props map[string]string) (err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return err
	}
	name := strings.Join(ns, ".")
	if len(props) > 0 {
		return fmt.Errorf("create namespace %s: namespace properties in a filesystem catalog: %w", name, ErrUnsupported)
	}
	if len(ns) == 0 {
		return fmt.Errorf("create namespace: empty name: %w", ErrDataInvalid)
	}
	dir, err := c.namespaceDir(ns)
	if err != nil {
		return fmt.Errorf("create namespace %s: invalid name: %w", name, ErrDataInvalid)
	}
	parent := filepath.Dir(dir)
	if len(ns) == 1 {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return fmt.Errorf("create namespace %s: %w", name, err)
		}
	} else if st, err := os.Stat(parent); err != nil || !st.IsDir() || isTableDir(parent) {
		return fmt.Errorf("create namespace %s: parent namespace %s: %w", name, strings.Join(ns[:len(ns)-1], "."), ErrNotFound)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create namespace %s: %w", name, ErrAlreadyExists)
		}
		return fmt.Errorf("create namespace %s: %w", name, err)
	}
	if err := c.sync.SyncDir(parent); err != nil {
		return fmt.Errorf("create namespace %s: %w", name, err)
	}
	return nil
}

// DropNamespace implements MutableCatalog.
func (c *Filesystem) DropNamespace(ctx context.Context, ns []string) (err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return err
	}
	name := strings.Join(ns, ".")
	dir, err := c.namespaceDir(ns)
	if err != nil || len(ns) == 0 {
		return fmt.Errorf("drop namespace %s: %w", name, ErrNotFound)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() || isTableDir(dir) {
		return fmt.Errorf("drop namespace %s: %w", name, ErrNotFound)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("drop namespace %s: %w", name, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("drop namespace %s: it holds %s: %w", name, entries[0].Name(), ErrNotEmpty)
	}
	if err := os.Remove(dir); err != nil {
		if errors.Is(err, fs.ErrExist) { // ENOTEMPTY: something appeared meanwhile
			return fmt.Errorf("drop namespace %s: %w: %w", name, ErrNotEmpty, err)
		}
		return fmt.Errorf("drop namespace %s: %w", name, err)
	}
	return nil
}

// tableDir returns the directory of table id.
func (c *Filesystem) tableDir(id Identifier) (string, error) {
	nsDir, err := c.namespaceDir(id.Namespace)
	if err != nil || !validName(id.Name) {
		return "", fmt.Errorf("table %s: %w", qualified(id.Namespace, id.Name), ErrNotFound)
	}
	return filepath.Join(nsDir, id.Name), nil
}

// CreateTable implements MutableCatalog: the table directory with data/ and
// metadata/v1.metadata.json. The location is the table directory.
func (c *Filesystem) CreateTable(ctx context.Context, id Identifier, spec TableSpec) (_ *Table, err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := qualified(id.Namespace, id.Name)
	dir, meta, err := c.newTable(id, spec)
	if err != nil {
		return nil, err
	}
	data, err := MarshalMetadata(meta)
	if err != nil {
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	c.reclaimStaged(dir)
	if err := c.makeTableDir(dir, data); err != nil {
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	return c.LoadTable(ctx, id)
}

// makeTableDir creates the directory of a new table, dir, with data/ and
// metadata/ holding v1.metadata.json (data) and its version hint, each
// synced. A directory that exists is ErrAlreadyExists; on any other
// failure nothing is left behind.
func (c *Filesystem) makeTableDir(dir string, data []byte) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return ErrAlreadyExists
		}
		return err
	}
	c.forget(dir)
	metaDir := filepath.Join(dir, "metadata")
	err := c.sync.SyncDir(filepath.Dir(dir))
	if err == nil {
		err = os.Mkdir(filepath.Join(dir, "data"), 0o755)
	}
	if err == nil {
		err = os.Mkdir(metaDir, 0o755)
	}
	if err == nil {
		err = c.sync.SyncDir(dir)
	}
	if err == nil {
		err = createExclusive(c.sync, nil, metaDir, "v1.metadata.json", data, true)
	}
	if err == nil {
		err = replaceFile(c.sync, nil, metaDir, versionHintFile, []byte("1"), true)
	}
	if err != nil {
		os.RemoveAll(dir)
	}
	return err
}

// newTable checks that table id can be created from spec and returns its
// directory and first metadata.
func (c *Filesystem) newTable(id Identifier, spec TableSpec) (string, *TableMetadata, error) {
	name := qualified(id.Namespace, id.Name)
	dir, err := c.tableDir(id)
	if err != nil {
		return "", nil, fmt.Errorf("create table %s: invalid name: %w", name, ErrDataInvalid)
	}
	nsDir := filepath.Dir(dir)
	if st, err := os.Stat(nsDir); err != nil || !st.IsDir() || isTableDir(nsDir) || len(id.Namespace) == 0 {
		return "", nil, fmt.Errorf("create table %s: namespace %s: %w", name, strings.Join(id.Namespace, "."), ErrNotFound)
	}
	if spec.Location != "" && !sameLocalDir(strings.TrimSuffix(stripScheme(spec.Location), "/"), dir) {
		loc := stripScheme(spec.Location)
		local := loc == spec.Location || strings.HasPrefix(spec.Location, "file:")
		if local && (hasDotDot(loc) || !filepath.IsAbs(loc) || !within(realParent(filepath.Clean(loc)), realPath(c.root))) {
			return "", nil, pgerr.Wrap(fmt.Errorf("create table %s: location %s: %w", name, spec.Location, ErrOutsideWarehouse),
				pgerr.InsufficientPrivilege, "location \"%s\" of table \"%s\" is outside the warehouse", spec.Location, name).
				WithHint("A table of this catalog lives in the warehouse, in the directory of its schema.")
		}
		return "", nil, fmt.Errorf("create table %s: location %s outside the warehouse layout: %w", name, spec.Location, ErrUnsupported)
	}
	meta, err := NewTableMetadata(spec, dir, newUUID())
	if err != nil {
		return "", nil, fmt.Errorf("create table %s: %w", name, err)
	}
	return dir, meta, nil
}

// latestMetadata returns the newest metadata file of a table's metadata
// directory and its version number. It follows v<N+1>.metadata.json past
// the version hint, which a writer updates only after its commit.
func latestMetadata(metaDir string) (string, int64, error) {
	path, err := currentMetadataFile(metaDir)
	if err != nil {
		return "", 0, err
	}
	v := metadataVersion(filepath.Base(path))
	if v < 0 {
		return "", 0, fmt.Errorf("metadata file %s has no version number: %w", path, ErrUnsupported)
	}
	for {
		next := filepath.Join(metaDir, "v"+strconv.FormatInt(v+1, 10)+".metadata.json")
		ok, err := committedFile(next)
		if err != nil {
			return "", 0, err
		}
		if !ok {
			return path, v, nil
		}
		path, v = next, v+1
	}
}

// advanceHint sets the version hint to version unless it names a newer one
// already (commits of this process finish in any order). The caller syncs
// metaDir.
func (c *Filesystem) advanceHint(metaDir string, version int64) error {
	c.hintMu.Lock()
	defer c.hintMu.Unlock()
	if old, err := os.ReadFile(filepath.Join(metaDir, versionHintFile)); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(old)), 10, 64); err == nil && n >= version {
			return nil
		}
	}
	return replaceFile(c.sync, c.recorder(filepath.Dir(metaDir)), metaDir, versionHintFile, []byte(strconv.FormatInt(version, 10)), false)
}

// CommitTable implements MutableCatalog. The new metadata file is
// v<N+1>.metadata.json, created with a link that fails when another writer
// created it first: that lost race is ErrCommitConflict.
func (c *Filesystem) CommitTable(ctx context.Context, id Identifier, reqs []Requirement, updates []Update) (_ *Table, err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := qualified(id.Namespace, id.Name)
	dir, err := c.tableDir(id)
	if err != nil {
		return nil, err
	}
	if !isTableDir(dir) {
		// Tables come into being through CreateTable only.
		return nil, fmt.Errorf("commit table %s: %w", name, ErrNotFound)
	}
	metaDir := filepath.Join(dir, "metadata")
	basePath, version, err := latestMetadata(metaDir)
	if err != nil {
		return nil, c.metadataError(fmt.Errorf("commit table %s: %w", name, err))
	}
	base, err := c.readMetadata(basePath)
	if err != nil {
		return nil, c.metadataError(fmt.Errorf("commit table %s: %w", name, err))
	}
	if err := CheckRequirements(base, reqs); err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	b := NewMetadataBuilderFrom(base, metadataFileLocation(base, filepath.Base(basePath)))
	if err := b.Apply(updates...); err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	meta, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	if err := keepsLocation(c.name, name, base, meta); err != nil {
		return nil, err
	}
	data, err := MarshalMetadata(meta)
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	next := version + 1
	newName := "v" + strconv.FormatInt(next, 10) + ".metadata.json"
	// The files the commit references are synced (their directories too,
	// but for the metadata directory, synced here once for the manifests
	// and manifest lists written there) before the metadata file is linked.
	if err := c.sync.SyncDir(metaDir); err != nil {
		return nil, c.metadataError(fmt.Errorf("commit table %s: %w", name, &metadataPathError{path: metaDir + "/.", err: err}))
	}
	if err := createExclusive(c.sync, c.recorder(dir), metaDir, newName, data, false); err != nil {
		if errors.Is(err, fs.ErrExist) {
			if _, cerr := committedFile(filepath.Join(metaDir, newName)); cerr != nil {
				// Not another writer's commit: something else took the name.
				return nil, c.metadataError(fmt.Errorf("commit table %s: %w", name, cerr))
			}
			return nil, fmt.Errorf("commit table %s: version %d was committed concurrently: %w", name, next, ErrCommitConflict)
		}
		return nil, c.metadataError(fmt.Errorf("commit table %s: %w", name, &metadataPathError{path: filepath.Join(metaDir, newName), err: err}))
	}
	// The commit has happened: readers see it. What follows makes it and
	// the version hint durable (one sync of the directory for both), helps
	// readers and tidies; a failure is logged, not returned: the caller
	// would remove the files the visible commit references.
	if err := c.advanceHint(metaDir, next); err != nil {
		slog.Warn("update version hint", "table", name, "err", err)
	}
	if err := c.sync.SyncDir(metaDir); err != nil {
		slog.Error("commit is visible but its directory could not be synced: it may not survive a crash of the machine", "table", name, "err", err)
	}
	newPath := filepath.Join(metaDir, newName)
	c.cache.put("metadata:"+newPath, meta)
	tbl := &Table{
		Ident:            Identifier{Namespace: append([]string(nil), id.Namespace...), Name: id.Name},
		MetadataLocation: newPath,
		Metadata:         meta,
		IO:               c.tableIO(dir),
	}
	if meta.Properties[PropDeleteAfterCommit] == "true" {
		c.deleteDroppedMetadata(tbl, metaDir, base, b.baseLocation)
	}
	noteCommit(ctx, id, tbl.MetadataLocation, meta, updates)
	return tbl, nil
}

// metadataFileLocation is the written location of a metadata file of m.
func metadataFileLocation(m *TableMetadata, name string) string {
	return MetadataLocation(m) + "/" + name
}

// deleteDroppedMetadata removes the metadata files that fell off the
// metadata log in this commit (write.metadata.delete-after-commit.enabled).
func (c *Filesystem) deleteDroppedMetadata(tbl *Table, metaDir string, base *TableMetadata, baseLocation string) {
	kept := map[string]bool{}
	for _, e := range tbl.Metadata.MetadataLog {
		kept[e.MetadataFile] = true
	}
	old := append([]MetadataLogEntry{{MetadataFile: baseLocation}}, base.MetadataLog...)
	for _, e := range old {
		if kept[e.MetadataFile] || e.MetadataFile == "" {
			continue
		}
		local, err := tbl.IO.Resolve(e.MetadataFile)
		if err != nil || filepath.Dir(local) != metaDir {
			continue
		}
		if err := os.Remove(local); err != nil && !errors.Is(err, fs.ErrNotExist) {
			slog.Warn("delete old metadata file", "file", local, "err", err)
		}
	}
}

// DropTable implements MutableCatalog. As in Hadoop catalogs the table
// directory is removed either way; purge makes no difference to files
// outside it, which are never deleted.
func (c *Filesystem) DropTable(ctx context.Context, id Identifier, purge bool) (err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return err
	}
	dir, err := c.tableDir(id)
	if err != nil {
		return err
	}
	if !isTableDir(dir) {
		return fmt.Errorf("drop table %s: %w", qualified(id.Namespace, id.Name), ErrNotFound)
	}
	if c.isViewDir(dir) {
		return fmt.Errorf("drop table %s: %w", qualified(id.Namespace, id.Name), errIsView)
	}
	// Make the table disappear first, then remove the rest.
	if err := os.RemoveAll(filepath.Join(dir, "metadata")); err != nil {
		return fmt.Errorf("drop table %s: %w", qualified(id.Namespace, id.Name), err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("drop table %s: %w", qualified(id.Namespace, id.Name), err)
	}
	c.forget(dir)
	return nil
}

// forget drops what the catalog cached about the table in dir: a table
// created there later reuses the metadata file names.
func (c *Filesystem) forget(dir string) {
	c.releaseWrites(dir)
	c.mu.Lock()
	delete(c.ios, dir)
	c.mu.Unlock()
	c.cache.dropPrefix("metadata:" + dir + string(filepath.Separator))
}

// RenameTable implements MutableCatalog by renaming the table directory.
// Files keep the paths written in metadata; reads resolve them under the
// new directory.
func (c *Filesystem) RenameTable(ctx context.Context, from, to Identifier) (err error) {
	defer func() { err = c.relative(err) }()
	if err := ctx.Err(); err != nil {
		return err
	}
	src, err := c.tableDir(from)
	if err != nil {
		return err
	}
	if !isTableDir(src) {
		return fmt.Errorf("rename table %s: %w", qualified(from.Namespace, from.Name), ErrNotFound)
	}
	if c.isViewDir(src) {
		return fmt.Errorf("rename table %s: %w", qualified(from.Namespace, from.Name), errIsView)
	}
	dst, err := c.tableDir(to)
	if err != nil {
		return fmt.Errorf("rename table to %s: invalid name: %w", qualified(to.Namespace, to.Name), ErrDataInvalid)
	}
	nsDir := filepath.Dir(dst)
	if st, err := os.Stat(nsDir); err != nil || !st.IsDir() || isTableDir(nsDir) || len(to.Namespace) == 0 {
		return fmt.Errorf("rename table to %s: namespace %s: %w", qualified(to.Namespace, to.Name), strings.Join(to.Namespace, "."), ErrNotFound)
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("rename table to %s: %w", qualified(to.Namespace, to.Name), ErrAlreadyExists)
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("rename table %s to %s: %w", qualified(from.Namespace, from.Name), qualified(to.Namespace, to.Name), err)
	}
	c.forget(src)
	return nil
}

// NewOutput implements MutableCatalog: written paths under the table's
// location map to the same relative paths under its directory.
func (c *Filesystem) NewOutput(t *Table) (OutputIO, error) {
	dir, err := c.tableDir(t.Ident)
	if err != nil {
		return nil, err
	}
	return &fsOutput{location: strings.TrimSuffix(t.Metadata.Location, "/"), dir: dir, table: qualified(t.Ident.Namespace, t.Ident.Name),
		realDir: realPath(dir), sync: c.sync, cat: c}, nil
}

type fsOutput struct {
	location string
	dir      string
	table    string
	realDir  string // dir with its symbolic links followed
	sync     Syncer
	cat      *Filesystem // records what is written (filesystem_cleanup.go)
}

func (o *fsOutput) local(path string) (string, error) {
	rest, ok := strings.CutPrefix(path, o.location+"/")
	if !ok || hasDotDot(rest) {
		return "", o.refuse(path, "it is not under the table's location")
	}
	local := filepath.Join(o.dir, filepath.FromSlash(rest))
	if !strings.HasPrefix(local, o.dir+string(filepath.Separator)) {
		return "", o.refuse(path, "it leaves the table's directory")
	}
	return local, nil
}

// refuse is the error for writing a file outside the table's directory
// (a crafted write.data.path, a path with "..").
func (o *fsOutput) refuse(path, why string) error {
	shown := path
	if rest, ok := strings.CutPrefix(path, o.location+"/"); ok {
		shown = rest
	}
	return pgerr.Wrap(fmt.Errorf("output %s: %s: %w", path, why, ErrOutsideWarehouse), pgerr.InsufficientPrivilege,
		"cannot write file \"%s\" of table \"%s\": %s", shown, o.table, why).
		WithHint("Files of a table are written in its directory (check the property write.data.path).")
}

// Create implements OutputIO.
func (o *fsOutput) Create(ctx context.Context, path string) (_ io.WriteCloser, err error) {
	defer func() { err = o.cat.relative(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	local, err := o.local(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(local)
	if err := mkdirAllSynced(o.sync, dir); err != nil {
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	if r := realPath(dir); !within(r, o.realDir) {
		return nil, o.refuse(path, "its directory is a symbolic link that leads out of the table's directory")
	}
	if err := o.cat.recordWrite(o.dir, local); err != nil {
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	f, err := os.OpenFile(local, os.O_CREATE|os.O_EXCL|os.O_WRONLY|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("output %s: %w", path, ErrAlreadyExists)
		}
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	return &syncedFile{File: f, sync: o.sync, name: filepath.ToSlash(strings.TrimPrefix(local, o.dir+string(filepath.Separator))), table: o.table,
		dirSyncedLater: dir == filepath.Join(o.dir, "metadata")}, nil
}

// Remove implements OutputIO.
func (o *fsOutput) Remove(ctx context.Context, path string) (err error) {
	defer func() { err = o.cat.relative(err) }()
	local, err := o.local(path)
	if err != nil {
		return err
	}
	if err := os.Remove(local); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

// sameLocalDir reports whether the directory path a (which may not exist
// yet) is b, also when they are spelled through different symbolic links
// of their parents (a warehouse under /tmp, which is /private/tmp).
func sameLocalDir(a, b string) bool {
	if a == b {
		return true
	}
	if a == "" || !filepath.IsAbs(a) || hasDotDot(a) {
		return false
	}
	return realParent(filepath.Clean(a)) == realParent(b)
}

// realParent is p with the symbolic links of its parent directory
// followed (p itself need not exist).
func realParent(p string) string {
	return filepath.Join(realPath(filepath.Dir(p)), filepath.Base(p))
}

// keepsLocation refuses a commit of a hadoop catalog's table that moves
// it: the table lives in its directory, which its name gives (a REST
// client may send set-location).
func keepsLocation(catalogName, table string, base, next *TableMetadata) error {
	if next.Location == base.Location {
		return nil
	}
	return pgerr.Wrap(fmt.Errorf("commit table %s: set location %s: %w", table, next.Location, ErrUnsupported), pgerr.FeatureNotSupported,
		"a table of hadoop catalog \"%s\" lives at %s: its location cannot change", catalogName, base.Location)
}
