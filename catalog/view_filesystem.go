package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// In a Filesystem catalog a view lives like a table: a directory with
// metadata/v<N>.metadata.json and version-hint.text. What the current
// metadata file holds (view-uuid or not) tells a view from a table.

// errIsView is the error of a table operation on a view: to the caller the
// table does not exist.
var errIsView = fmt.Errorf("a view, not a table: %w", ErrNotFound)

// errIsTable is the error of a view operation on a table.
var errIsTable = fmt.Errorf("a table, not a view: %w", ErrNotFound)

// Cache keys of a metadata file's parsed view metadata and of whether it
// is a view. They start with "metadata:<path>" so that forgetting a
// directory's "metadata:<dir>/" entries drops them too.
func viewKey(path string) string { return "metadata:" + path + "#view" }
func kindKey(path string) string { return "metadata:" + path + "#kind" }

// viewRetries bounds how often CREATE OR REPLACE retries a lost race.
const viewRetries = 5

// isViewDir reports whether the table-like directory dir holds a view. A
// directory whose metadata cannot be read counts as a table (loading it
// then reports the problem).
func (c *Filesystem) isViewDir(dir string) bool {
	path, err := currentMetadataFile(filepath.Join(dir, "metadata"))
	if err != nil {
		return false
	}
	isView, err := c.isViewFile(path)
	return err == nil && isView
}

// isViewFile reports whether the metadata file at path is view metadata,
// cached by path (metadata files are immutable).
func (c *Filesystem) isViewFile(path string) (bool, error) {
	if _, ok := c.cache.get("metadata:" + path); ok {
		return false, nil
	}
	if _, ok := c.cache.get(viewKey(path)); ok {
		return true, nil
	}
	if v, ok := c.cache.get(kindKey(path)); ok {
		return v.(bool), nil
	}
	data, err := readMetadataBytes(path)
	if err != nil {
		return false, err
	}
	isView := isViewJSON(data)
	c.cache.put(kindKey(path), isView)
	return isView, nil
}

// readViewMetadata reads and parses a view metadata file, cached by path.
// A table's metadata file is errIsTable.
func (c *Filesystem) readViewMetadata(path string) (*ViewMetadata, error) {
	if v, ok := c.cache.get(viewKey(path)); ok {
		return v.(*ViewMetadata), nil
	}
	if _, ok := c.cache.get("metadata:" + path); ok {
		return nil, fmt.Errorf("metadata %s: %w", path, errIsTable)
	}
	data, err := readMetadataBytes(path)
	if err != nil {
		return nil, err
	}
	if !isViewJSON(data) {
		c.cache.put(kindKey(path), false)
		return nil, fmt.Errorf("metadata %s: %w", path, errIsTable)
	}
	m, err := ParseViewMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("metadata %s: %w", path, err)
	}
	c.cache.put(viewKey(path), m)
	return m, nil
}

// ListViews implements Catalog.
func (c *Filesystem) ListViews(ctx context.Context, namespace []string) ([]Identifier, error) {
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
		return nil, fmt.Errorf("list views in %s: %w", strings.Join(namespace, "."), err)
	}
	var out []Identifier
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if isDir(dir, e) && !strings.HasPrefix(e.Name(), ".") && isTableDir(sub) && c.isViewDir(sub) {
			out = append(out, Identifier{Namespace: append([]string(nil), namespace...), Name: e.Name()})
		}
	}
	return out, nil
}

// LoadView implements Catalog. A table of that name is ErrNotFound.
func (c *Filesystem) LoadView(ctx context.Context, id Identifier) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := qualified(id.Namespace, id.Name)
	nsDir, err := c.namespaceDir(id.Namespace)
	if err != nil {
		return nil, err
	}
	if !validName(id.Name) {
		return nil, fmt.Errorf("load view %s: %w", name, ErrNotFound)
	}
	dir := filepath.Join(nsDir, id.Name)
	if !isTableDir(dir) {
		if _, err := os.Stat(nsDir); err != nil {
			return nil, fmt.Errorf("load view %s: namespace %s: %w", name, strings.Join(id.Namespace, "."), ErrNotFound)
		}
		return nil, fmt.Errorf("load view %s: %w", name, ErrNotFound)
	}
	path, err := currentMetadataFile(filepath.Join(dir, "metadata"))
	if err != nil {
		return nil, fmt.Errorf("load view %s: %w", name, err)
	}
	m, err := c.readViewMetadata(path)
	if err != nil {
		return nil, fmt.Errorf("load view %s: %w", name, err)
	}
	return &View{
		Ident:            Identifier{Namespace: append([]string(nil), id.Namespace...), Name: id.Name},
		MetadataLocation: path,
		Metadata:         m,
	}, nil
}

// CreateView implements MutableCatalog. A new view's directory gets
// metadata/v1.metadata.json; its UUID and location (the directory) are
// filled in when meta leaves them empty. With replace, an existing view
// gets meta's current version as its new current version (see
// ViewMetadata.ReplaceVersion) in v<N+1>.metadata.json. A table of that name
// is ErrAlreadyExists either way.
func (c *Filesystem) CreateView(ctx context.Context, id Identifier, meta *ViewMetadata, replace bool) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := qualified(id.Namespace, id.Name)
	if meta == nil {
		return nil, fmt.Errorf("create view %s: no metadata: %w", name, ErrDataInvalid)
	}
	if err := meta.validate(); err != nil {
		return nil, fmt.Errorf("create view %s: %w", name, err)
	}
	dir, err := c.tableDir(id)
	if err != nil {
		return nil, fmt.Errorf("create view %s: invalid name: %w", name, ErrDataInvalid)
	}
	nsDir := filepath.Dir(dir)
	if st, err := os.Stat(nsDir); err != nil || !st.IsDir() || isTableDir(nsDir) || len(id.Namespace) == 0 {
		return nil, fmt.Errorf("create view %s: namespace %s: %w", name, strings.Join(id.Namespace, "."), ErrNotFound)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create view %s: %w", name, err)
		}
		if !isTableDir(dir) {
			return nil, fmt.Errorf("create view %s: %w", name, ErrAlreadyExists)
		}
		if !c.isViewDir(dir) {
			return nil, fmt.Errorf("create view %s: a table of that name exists: %w", name, ErrAlreadyExists)
		}
		if !replace {
			return nil, fmt.Errorf("create view %s: %w", name, ErrAlreadyExists)
		}
		return c.replaceView(ctx, id, dir, meta)
	}
	c.forget(dir)
	m := *meta
	if m.ViewUUID == "" {
		m.ViewUUID = newUUID()
	}
	if m.Location == "" {
		m.Location = dir
	}
	data, err := MarshalViewMetadata(&m)
	if err == nil {
		err = os.Mkdir(filepath.Join(dir, "metadata"), 0o755)
	}
	metaDir := filepath.Join(dir, "metadata")
	if err == nil {
		err = createExclusive(c.sync, nil, metaDir, "v1.metadata.json", data, true)
	}
	if err == nil {
		err = replaceFile(c.sync, nil, metaDir, versionHintFile, []byte("1"), true)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("create view %s: %w", name, err)
	}
	return c.LoadView(ctx, id)
}

// replaceView commits a new version of the view in dir, retrying when
// another writer committed the same metadata version first.
func (c *Filesystem) replaceView(ctx context.Context, id Identifier, dir string, meta *ViewMetadata) (*View, error) {
	name := qualified(id.Namespace, id.Name)
	metaDir := filepath.Join(dir, "metadata")
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		basePath, version, err := latestMetadata(metaDir)
		if err != nil {
			return nil, fmt.Errorf("replace view %s: %w", name, err)
		}
		base, err := c.readViewMetadata(basePath)
		if err != nil {
			return nil, fmt.Errorf("replace view %s: %w", name, err)
		}
		next, data, err := base.replacementJSON(meta)
		if err != nil {
			return nil, fmt.Errorf("replace view %s: %w", name, err)
		}
		newName := "v" + strconv.FormatInt(version+1, 10) + ".metadata.json"
		if err := createExclusive(c.sync, nil, metaDir, newName, data, true); err != nil {
			if errors.Is(err, fs.ErrExist) && attempt < viewRetries {
				continue
			}
			if errors.Is(err, fs.ErrExist) {
				return nil, fmt.Errorf("replace view %s: version %d was committed concurrently: %w", name, version+1, ErrCommitConflict)
			}
			return nil, fmt.Errorf("replace view %s: %w", name, err)
		}
		if err := c.advanceHint(metaDir, version+1); err != nil {
			slog.Warn("update version hint", "view", name, "err", err)
		} else if err := c.sync.SyncDir(metaDir); err != nil {
			slog.Warn("sync view metadata directory", "view", name, "err", err)
		}
		newPath := filepath.Join(metaDir, newName)
		c.cache.put(viewKey(newPath), next)
		return &View{
			Ident:            Identifier{Namespace: append([]string(nil), id.Namespace...), Name: id.Name},
			MetadataLocation: newPath,
			Metadata:         next,
		}, nil
	}
}

// DropView implements MutableCatalog: the view's directory is removed. A
// table of that name is ErrNotFound.
func (c *Filesystem) DropView(ctx context.Context, id Identifier) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	name := qualified(id.Namespace, id.Name)
	dir, err := c.tableDir(id)
	if err != nil {
		return fmt.Errorf("drop view %s: %w", name, ErrNotFound)
	}
	if !isTableDir(dir) {
		return fmt.Errorf("drop view %s: %w", name, ErrNotFound)
	}
	if !c.isViewDir(dir) {
		return fmt.Errorf("drop view %s: %w", name, errIsTable)
	}
	if err := os.RemoveAll(filepath.Join(dir, "metadata")); err != nil {
		return fmt.Errorf("drop view %s: %w", name, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("drop view %s: %w", name, err)
	}
	c.forget(dir)
	return nil
}
