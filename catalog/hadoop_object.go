package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/objstore"
)

// ObjectHadoop is the hadoop catalog on an object store: the filesystem
// catalog's layout (a table at <warehouse>/<namespace levels>/<name>, its
// versions metadata/v<N>.metadata.json and the hint
// metadata/version-hint.text) under an s3:// warehouse, as Spark's
// HadoopCatalog writes it through S3A.
//
// A commit writes v<N+1>.metadata.json with a conditional write
// (If-None-Match: *): of two writers that start from version N the store
// lets exactly one create it, and the other gets ErrCommitConflict and
// retries. The hint is then moved forward; readers follow the versions
// after the hinted one, so a hint left behind by a crash costs only a
// HEAD. A store that ignores conditional writes cannot arbitrate writers:
// the catalog finds that out at start (with a probe object) and is then
// read-only, saying why.
//
// A namespace is a folder that is not a table; CREATE SCHEMA writes the
// empty marker object "<namespace>/" that S3A writes for a directory.
// Renaming tables and views is not supported: an object store cannot
// move a folder in one step.
type ObjectHadoop struct {
	name     string
	w        *objectWarehouse
	readOnly error // why commits are refused (nil: they are not)

	stagedTables
	TableLocks // the commits of each table take turns in this process
}

var _ MutableCatalog = (*ObjectHadoop)(nil)

// conditionalWriter is a Store that can check that it honours
// If-None-Match.
type conditionalWriter interface {
	CheckConditionalWrites(ctx context.Context, prefix string) error
}

// NewObjectHadoop returns the hadoop catalog called name over the objects
// of store under root (s3://bucket/prefix), read through blobs.
func NewObjectHadoop(ctx context.Context, name string, store objstore.Store, blobs *objstore.Cache, root string) (*ObjectHadoop, error) {
	w, err := newObjectWarehouse(name, store, blobs, root)
	if err != nil {
		return nil, err
	}
	c := &ObjectHadoop{name: name, w: w}
	if cw, ok := store.(conditionalWriter); ok {
		if err := cw.CheckConditionalWrites(ctx, w.base+"/"); err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			c.readOnly = err
			slog.Warn("catalog is read-only: its object store cannot arbitrate two writers of one table", "catalog", name, "warehouse", w.base, "err", err)
		}
	}
	return c, nil
}

// Name implements Catalog.
func (c *ObjectHadoop) Name() string { return c.name }

// Root is the warehouse's location.
func (c *ObjectHadoop) Root() string { return c.w.base }

// ReadOnly is why the catalog refuses to commit, or nil.
func (c *ObjectHadoop) ReadOnly() error { return c.readOnly }

func (c *ObjectHadoop) refuseWrites(what string) error {
	if c.readOnly == nil {
		return nil
	}
	return pgerr.Wrap(fmt.Errorf("%s: %w: %w", what, ErrUnsupported, c.readOnly), pgerr.FeatureNotSupported,
		"catalog \"%s\" is read-only: its object store does not honour conditional writes (If-None-Match), so two writers could both commit", c.name).
		WithDetail("%v", c.readOnly).
		WithHint("Use a store with conditional writes, or the sql catalog, whose database arbitrates commits.")
}

// folder is the URI prefix of a namespace or table path, ending in "/".
func (c *ObjectHadoop) folder(levels ...string) (string, error) {
	for _, l := range levels {
		if !validName(l) {
			return "", fmt.Errorf("%s: invalid name: %w", strings.Join(levels, "."), ErrNotFound)
		}
	}
	if len(levels) == 0 {
		return c.w.base + "/", nil
	}
	return c.w.base + "/" + strings.Join(levels, "/") + "/", nil
}

func (c *ObjectHadoop) tableFolder(id Identifier) (string, error) {
	if len(id.Namespace) == 0 {
		return "", fmt.Errorf("%s: a table needs a namespace: %w", id.Name, ErrNotFound)
	}
	return c.folder(append(slices.Clone(id.Namespace), id.Name)...)
}

// isTable reports whether the folder holds a table (a metadata folder
// with a metadata file or the hint).
func (c *ObjectHadoop) isTable(ctx context.Context, folder string) (bool, error) {
	_, objects, err := objstore.ListDir(ctx, c.w.store, folder+"metadata/")
	if err != nil {
		return false, err
	}
	for _, o := range objects {
		name := o.URI[strings.LastIndexByte(o.URI, '/')+1:]
		if name == versionHintFile || metadataVersion(name) >= 0 {
			return true, nil
		}
	}
	return false, nil
}

// namespaceExists reports whether the folder of ns has any object (its
// marker, or the tables in it) and is not a table.
func (c *ObjectHadoop) namespaceExists(ctx context.Context, ns []string) (bool, error) {
	if len(ns) == 0 {
		return true, nil
	}
	folder, err := c.folder(ns...)
	if err != nil {
		return false, nil
	}
	errAny := errors.New("an object")
	err = c.w.store.List(ctx, folder, func(objstore.Info) error { return errAny })
	if err != nil && !errors.Is(err, errAny) {
		return false, err
	}
	if err == nil {
		return false, nil
	}
	table, err := c.isTable(ctx, folder)
	return !table, err
}

// holdsOnlyTableFiles reports whether folder (not a table) holds nothing
// but data/ and metadata/ objects: the files a REST client writes at a
// staged table's location before the commit that creates the table. A
// folder CREATE SCHEMA made has its marker object, so it never qualifies.
func (c *ObjectHadoop) holdsOnlyTableFiles(ctx context.Context, folder string) (bool, error) {
	folder = strings.TrimSuffix(folder, "/") + "/"
	dirs, objects, err := objstore.ListDir(ctx, c.w.store, folder)
	if err != nil {
		return false, err
	}
	if len(objects) > 0 {
		return false, nil
	}
	for _, d := range dirs {
		if d != folder+"data/" && d != folder+"metadata/" {
			return false, nil
		}
	}
	return len(dirs) > 0, nil
}

// ListNamespaces implements Catalog: every folder that is not a table,
// at any depth.
func (c *ObjectHadoop) ListNamespaces(ctx context.Context) ([][]string, error) {
	var out [][]string
	var walk func(folder string, levels []string) error
	walk = func(folder string, levels []string) error {
		dirs, _, err := objstore.ListDir(ctx, c.w.store, folder)
		if err != nil {
			return err
		}
		for _, d := range dirs {
			name := strings.TrimSuffix(strings.TrimPrefix(d, folder), "/")
			if !validName(name) {
				continue
			}
			if table, err := c.isTable(ctx, d); err != nil {
				return err
			} else if table {
				continue
			}
			ns := append(slices.Clone(levels), name)
			out = append(out, ns)
			if err := walk(d, ns); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(c.w.base+"/", nil); err != nil {
		return nil, fmt.Errorf("catalog %s: list namespaces: %w", c.name, err)
	}
	return out, nil
}

// ListTables implements Catalog.
func (c *ObjectHadoop) ListTables(ctx context.Context, ns []string) ([]Identifier, error) {
	if ok, err := c.namespaceExists(ctx, ns); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("namespace %s: %w", strings.Join(ns, "."), ErrNotFound)
	}
	folder, _ := c.folder(ns...)
	dirs, _, err := objstore.ListDir(ctx, c.w.store, folder)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: list tables: %w", c.name, err)
	}
	var out []Identifier
	for _, d := range dirs {
		name := strings.TrimSuffix(strings.TrimPrefix(d, folder), "/")
		if !validName(name) {
			continue
		}
		if table, err := c.isTable(ctx, d); err != nil {
			return nil, err
		} else if table {
			out = append(out, Identifier{Namespace: slices.Clone(ns), Name: name})
		}
	}
	return out, nil
}

// current finds the current metadata file of the table in folder: the
// version the hint names, then the versions written after it; without a
// hint, the highest version listed. It returns the file's URI and
// version.
func (c *ObjectHadoop) current(ctx context.Context, folder string) (string, int64, error) {
	metaDir := folder + "metadata/"
	version := int64(-1)
	if data, err := c.readHint(ctx, metaDir+versionHintFile); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && n > 0 {
			if ok, err := c.w.exists(ctx, metaDir+versionedName(n)); err != nil {
				return "", 0, err
			} else if ok {
				version = n
			}
		}
	} else if !errors.Is(err, objstore.ErrNotFound) {
		return "", 0, c.w.objectError(metaDir+versionHintFile, "", err)
	}
	if version < 0 {
		_, objects, err := objstore.ListDir(ctx, c.w.store, metaDir)
		if err != nil {
			return "", 0, err
		}
		for _, o := range objects {
			name := o.URI[strings.LastIndexByte(o.URI, '/')+1:]
			if versionedFile.MatchString(name) && !strings.Contains(name, ".gz") {
				version = max(version, metadataVersion(name))
			}
		}
		if version < 0 {
			return "", 0, ErrNotFound
		}
	}
	// Versions committed after the hint moved (a writer that stopped
	// between its commit and the hint).
	for {
		ok, err := c.w.exists(ctx, metaDir+versionedName(version+1))
		if err != nil {
			return "", 0, err
		}
		if !ok {
			return metaDir + versionedName(version), version, nil
		}
		version++
	}
}

// readHint reads the version hint (a number, which other writers
// rewrite) with one ranged GET and no HEAD: a hint longer than 64 bytes
// is no version number.
func (c *ObjectHadoop) readHint(ctx context.Context, u string) ([]byte, error) {
	buf := make([]byte, 64)
	n, err := c.w.store.ReadRange(ctx, u, "", buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

func versionedName(v int64) string { return "v" + strconv.FormatInt(v, 10) + ".metadata.json" }

// LoadTable implements Catalog.
func (c *ObjectHadoop) LoadTable(ctx context.Context, id Identifier) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	folder, err := c.tableFolder(id)
	if err != nil {
		return nil, fmt.Errorf("load table %w", err)
	}
	loc, _, err := c.current(ctx, folder)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", name, err)
	}
	meta, err := c.w.readTable(ctx, loc)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", name, err)
	}
	return &Table{Ident: Identifier{Namespace: slices.Clone(id.Namespace), Name: id.Name}, MetadataLocation: loc,
		Metadata: meta, IO: c.w.tableIO(ctx, loc)}, nil
}

// ListViews implements Catalog: the hadoop catalog on an object store
// keeps no views.
func (c *ObjectHadoop) ListViews(ctx context.Context, ns []string) ([]Identifier, error) {
	return nil, nil
}

// LoadView implements Catalog.
func (c *ObjectHadoop) LoadView(ctx context.Context, id Identifier) (*View, error) {
	return nil, fmt.Errorf("load view %s: %w", qualified(id.Namespace, id.Name), ErrNotFound)
}

// CreateNamespace implements MutableCatalog: the marker object of the
// namespace's folder. Properties are not kept, as in Hadoop catalogs.
func (c *ObjectHadoop) CreateNamespace(ctx context.Context, ns []string, props map[string]string) error {
	if err := c.refuseWrites("create namespace"); err != nil {
		return err
	}
	folder, err := c.folder(ns...)
	if err != nil || len(ns) == 0 {
		return fmt.Errorf("create namespace: %w", ErrDataInvalid)
	}
	if ok, err := c.namespaceExists(ctx, ns[:len(ns)-1]); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("create namespace %s: parent %s: %w", strings.Join(ns, "."), strings.Join(ns[:len(ns)-1], "."), ErrNotFound)
	}
	if ok, err := c.namespaceExists(ctx, ns); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("create namespace %s: %w", strings.Join(ns, "."), ErrAlreadyExists)
	}
	if table, err := c.isTable(ctx, folder); err != nil {
		return err
	} else if table {
		return fmt.Errorf("create namespace %s: a table of that name exists: %w", strings.Join(ns, "."), ErrAlreadyExists)
	}
	if err := c.w.store.Put(ctx, folder, nil, true); err != nil && !errors.Is(err, objstore.ErrExists) {
		return fmt.Errorf("create namespace %s: %w", strings.Join(ns, "."), err)
	}
	return nil
}

// DropNamespace implements MutableCatalog.
func (c *ObjectHadoop) DropNamespace(ctx context.Context, ns []string) error {
	if err := c.refuseWrites("drop namespace"); err != nil {
		return err
	}
	key := strings.Join(ns, ".")
	if ok, err := c.namespaceExists(ctx, ns); err != nil {
		return err
	} else if !ok || len(ns) == 0 {
		return fmt.Errorf("drop namespace %s: %w", key, ErrNotFound)
	}
	folder, _ := c.folder(ns...)
	dirs, objects, err := objstore.ListDir(ctx, c.w.store, folder)
	if err != nil {
		return err
	}
	if len(dirs) > 0 || slices.ContainsFunc(objects, func(i objstore.Info) bool { return i.URI != folder }) {
		return fmt.Errorf("drop namespace %s: %w", key, ErrNotEmpty)
	}
	return c.w.store.Delete(ctx, folder)
}

// CreateTable implements MutableCatalog: v1.metadata.json, written only
// when no table of that name exists.
func (c *ObjectHadoop) CreateTable(ctx context.Context, id Identifier, spec TableSpec) (*Table, error) {
	meta, err := c.newTable(ctx, id, spec)
	if err != nil {
		return nil, err
	}
	return c.publish(ctx, id, meta, 1)
}

// newTable checks that table id can be created from spec (writes are
// allowed, its namespace exists, its name is free, its location is its
// folder) and returns its first metadata.
func (c *ObjectHadoop) newTable(ctx context.Context, id Identifier, spec TableSpec) (*TableMetadata, error) {
	name := qualified(id.Namespace, id.Name)
	if err := c.refuseWrites("create table " + name); err != nil {
		return nil, err
	}
	folder, err := c.tableFolder(id)
	if err != nil {
		return nil, fmt.Errorf("create table %w", err)
	}
	if ok, err := c.namespaceExists(ctx, id.Namespace); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("create table %s: namespace %s: %w", name, strings.Join(id.Namespace, "."), ErrNotFound)
	}
	loc := strings.TrimSuffix(folder, "/")
	if spec.Location != "" && strings.TrimSuffix(spec.Location, "/") != loc {
		if u, err := objstore.Canonical(strings.TrimSuffix(spec.Location, "/")); err != nil || u != loc {
			return nil, pgerr.Wrap(fmt.Errorf("create table %s: location %s: %w", name, spec.Location, ErrUnsupported), pgerr.FeatureNotSupported,
				"a table of hadoop catalog \"%s\" lives at %s: LOCATION cannot move it", c.name, loc)
		}
	}
	if _, staged := c.lookup(name); staged {
		return nil, fmt.Errorf("create table %s: %w", name, ErrAlreadyExists)
	}
	if ok, err := c.isTable(ctx, folder); err != nil {
		return nil, err
	} else if ok {
		return nil, fmt.Errorf("create table %s: %w", name, ErrAlreadyExists)
	}
	if ok, err := c.namespaceExists(ctx, append(slices.Clone(id.Namespace), id.Name)); err != nil {
		return nil, err
	} else if ok {
		if only, err := c.holdsOnlyTableFiles(ctx, folder); err != nil {
			return nil, err
		} else if !only {
			return nil, fmt.Errorf("create table %s: a namespace of that name exists: %w", name, ErrAlreadyExists)
		}
	}
	meta, err := NewTableMetadata(spec, loc, newUUID())
	if err != nil {
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	return meta, nil
}

// publish writes meta as version v of table id, arbitrated by the store:
// when v exists, another writer won (ErrAlreadyExists for v = 1).
func (c *ObjectHadoop) publish(ctx context.Context, id Identifier, meta *TableMetadata, v int64) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	data, err := MarshalMetadata(meta)
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	metaDir := MetadataLocation(meta)
	loc, err := c.w.writeMetadata(ctx, meta.Location, metaDir, versionedName(v), data)
	if err != nil {
		if errors.Is(err, ErrCommitConflict) && v == 1 {
			return nil, fmt.Errorf("create table %s: %w", name, ErrAlreadyExists)
		}
		if errors.Is(err, ErrCommitConflict) {
			return nil, fmt.Errorf("commit table %s: version %d was committed concurrently: %w", name, v, ErrCommitConflict)
		}
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	// The commit has happened; the hint only helps readers.
	hint := strings.TrimSuffix(metaDir, "/") + "/" + versionHintFile
	if u, err := c.w.uri(hint); err == nil {
		if err := c.w.store.Put(context.WithoutCancel(ctx), u, []byte(strconv.FormatInt(v, 10)), false); err != nil {
			slog.Warn("update version hint", "table", name, "err", err)
		}
	}
	c.w.cacheTable(loc, meta)
	return &Table{Ident: Identifier{Namespace: slices.Clone(id.Namespace), Name: id.Name}, MetadataLocation: loc,
		Metadata: meta, IO: c.w.tableIO(ctx, loc)}, nil
}

// CommitTable implements MutableCatalog.
func (c *ObjectHadoop) CommitTable(ctx context.Context, id Identifier, reqs []Requirement, updates []Update) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	if err := c.refuseWrites("commit table " + name); err != nil {
		return nil, err
	}
	folder, err := c.tableFolder(id)
	if err != nil {
		return nil, fmt.Errorf("commit table %w", err)
	}
	baseLoc, version, err := c.current(ctx, folder)
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	base, err := c.w.readTable(ctx, baseLoc)
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	meta, err := nextMetadata(name, base, baseLoc, reqs, updates)
	if err != nil {
		return nil, err
	}
	if err := keepsLocation(c.name, name, base, meta); err != nil {
		return nil, err
	}
	tbl, err := c.publish(ctx, id, meta, version+1)
	if err != nil {
		return nil, err
	}
	if meta.Properties[PropDeleteAfterCommit] == "true" {
		c.w.afterCommit(tbl, base, baseLoc)
	}
	noteCommit(ctx, id, tbl.MetadataLocation, meta, updates)
	return tbl, nil
}

// RegisterTable implements MutableCatalog: a hadoop catalog finds its
// tables by their folders, so there is nothing to register.
func (c *ObjectHadoop) RegisterTable(ctx context.Context, id Identifier, metadataFile string) (*Table, error) {
	return nil, pgerr.Wrap(fmt.Errorf("register table %s: %w", qualified(id.Namespace, id.Name), ErrUnsupported), pgerr.FeatureNotSupported,
		"register_table is not supported by hadoop catalog \"%s\": it finds its tables by their location", c.name)
}

// DropTable implements MutableCatalog: as in Hadoop catalogs the table's
// objects go either way; its metadata first, so that the table
// disappears before its data.
func (c *ObjectHadoop) DropTable(ctx context.Context, id Identifier, purge bool) error {
	name := qualified(id.Namespace, id.Name)
	if err := c.refuseWrites("drop table " + name); err != nil {
		return err
	}
	folder, err := c.tableFolder(id)
	if err != nil {
		return fmt.Errorf("drop table %w", err)
	}
	if ok, err := c.isTable(ctx, folder); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("drop table %s: %w", name, ErrNotFound)
	}
	if err := c.w.removeTable(ctx, folder+"metadata"); err != nil {
		return fmt.Errorf("drop table %s: %w", name, err)
	}
	if err := c.w.removeTable(ctx, strings.TrimSuffix(folder, "/")); err != nil {
		return fmt.Errorf("drop table %s: %w", name, err)
	}
	return nil
}

// RenameTable implements MutableCatalog: not on an object store.
func (c *ObjectHadoop) RenameTable(ctx context.Context, from, to Identifier) error {
	return pgerr.Wrap(fmt.Errorf("rename table %s: %w", qualified(from.Namespace, from.Name), ErrUnsupported), pgerr.FeatureNotSupported,
		"renaming a table is not supported by hadoop catalog \"%s\" on an object store", c.name).
		WithDetail("A table of a hadoop catalog is the folder it lives in, which an object store cannot move in one step.").
		WithHint("Use a sql catalog, whose tables are rows that rename in one step.")
}

// NewOutput implements MutableCatalog.
func (c *ObjectHadoop) NewOutput(t *Table) (OutputIO, error) { return c.w.output(t) }

// CreateView implements MutableCatalog: not in this catalog.
func (c *ObjectHadoop) CreateView(ctx context.Context, id Identifier, meta *ViewMetadata, replace bool) (*View, error) {
	return nil, pgerr.Wrap(fmt.Errorf("create view %s: %w", qualified(id.Namespace, id.Name), ErrUnsupported), pgerr.FeatureNotSupported,
		"views are not supported by hadoop catalog \"%s\" on an object store", c.name).
		WithHint("Use a sql catalog, which keeps views.")
}

// DropView implements MutableCatalog.
func (c *ObjectHadoop) DropView(ctx context.Context, id Identifier) error {
	return fmt.Errorf("drop view %s: %w", qualified(id.Namespace, id.Name), ErrNotFound)
}

var _ TableStager = (*ObjectHadoop)(nil)

// StageTable implements TableStager: the name is reserved in this process
// and the table's files go under its location; v1.metadata.json comes at
// PublishTable, written only if no other writer created the table
// meanwhile (ErrAlreadyExists then).
func (c *ObjectHadoop) StageTable(ctx context.Context, id Identifier, spec TableSpec) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	meta, err := c.newTable(ctx, id, spec)
	if err != nil {
		return nil, err
	}
	made, err := c.w.prepare(ctx, meta.Location)
	if err != nil {
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	if !c.reserve(name, stagedDir{dir: meta.Location, made: made}) {
		return nil, fmt.Errorf("create table %s: %w", name, ErrAlreadyExists)
	}
	return &Table{Ident: Identifier{Namespace: slices.Clone(id.Namespace), Name: id.Name}, Metadata: meta,
		IO: c.w.tableIO(ctx, MetadataLocation(meta)+"/"+versionedName(1))}, nil
}

// PublishTable implements TableStager.
func (c *ObjectHadoop) PublishTable(ctx context.Context, id Identifier, meta *TableMetadata) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	if _, ok := c.lookup(name); !ok {
		return nil, fmt.Errorf("publish table %s: not a staged table: %w", name, ErrNotFound)
	}
	t, err := c.publish(ctx, id, meta, 1)
	if err != nil {
		return nil, err
	}
	c.take(name)
	return t, nil
}

// DiscardTable implements TableStager: the reservation goes, and the
// objects the block wrote when the table's folder was empty before.
func (c *ObjectHadoop) DiscardTable(ctx context.Context, id Identifier) error {
	name := qualified(id.Namespace, id.Name)
	st, ok := c.take(name)
	if !ok || !st.made {
		return nil
	}
	return c.w.removeTable(context.WithoutCancel(ctx), st.dir)
}
