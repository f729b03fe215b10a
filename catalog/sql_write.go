package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// CreateNamespace implements MutableCatalog: a row per property (the
// property "exists" when there are none). Its parent must exist.
func (c *SQL) CreateNamespace(ctx context.Context, ns []string, props map[string]string) error {
	key, err := namespaceKey(ns)
	if err != nil {
		return fmt.Errorf("create namespace: %w", ErrDataInvalid)
	}
	if len(ns) > 1 {
		ok, err := c.namespaceExists(ctx, ns[:len(ns)-1])
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("create namespace %s: parent %s: %w", key, strings.Join(ns[:len(ns)-1], "."), ErrNotFound)
		}
	}
	if ok, err := c.namespaceExists(ctx, ns); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("create namespace %s: %w", key, ErrAlreadyExists)
	}
	if len(props) == 0 {
		props = map[string]string{sqlNamespaceExists: "true"}
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return c.inTx(ctx, func(tx *sql.Tx) error {
		for _, k := range keys {
			res, err := tx.ExecContext(ctx, c.q(`INSERT INTO iceberg_namespace_properties
				(catalog_name, namespace, property_key, property_value) VALUES (?, ?, ?, ?)
				ON CONFLICT DO NOTHING`), c.name, key, k, props[k])
			if err != nil {
				return fmt.Errorf("create namespace %s: %w", key, err)
			}
			if n, err := res.RowsAffected(); err == nil && n == 0 {
				return fmt.Errorf("create namespace %s: %w", key, ErrAlreadyExists)
			}
		}
		return nil
	})
}

// inTx runs f in a transaction, committed when f returns nil.
func (c *SQL) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("catalog %s: begin: %w", c.name, err)
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("catalog %s: commit: %w", c.name, err)
	}
	return nil
}

// DropNamespace implements MutableCatalog: its rows go; a namespace that
// holds tables, views or namespaces is ErrNotEmpty.
func (c *SQL) DropNamespace(ctx context.Context, ns []string) error {
	key, err := namespaceKey(ns)
	if err != nil {
		return fmt.Errorf("drop namespace: %w", err)
	}
	if ok, err := c.namespaceExists(ctx, ns); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("drop namespace %s: %w", key, ErrNotFound)
	}
	like := likePrefix(key + ".")
	var one int
	err = c.db.QueryRowContext(ctx, c.q(`SELECT 1 FROM iceberg_tables
		WHERE catalog_name = ? AND (table_namespace = ? OR table_namespace LIKE ? ESCAPE '!')
		UNION ALL SELECT 1 FROM iceberg_namespace_properties
		WHERE catalog_name = ? AND namespace LIKE ? ESCAPE '!' LIMIT 1`), c.name, key, like, c.name, like).Scan(&one)
	if err == nil {
		return fmt.Errorf("drop namespace %s: %w", key, ErrNotEmpty)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("catalog %s: drop namespace %s: %w", c.name, key, err)
	}
	if _, err := c.db.ExecContext(ctx, c.q(`DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?`), c.name, key); err != nil {
		return fmt.Errorf("catalog %s: drop namespace %s: %w", c.name, key, err)
	}
	c.files.dropNamespace(ns)
	return nil
}

// tableLocation is the location a new table or view id gets: under the
// warehouse, a folder per namespace level, then the name.
func (c *SQL) tableLocation(id Identifier) (string, error) {
	if _, err := namespaceKey(id.Namespace); err != nil || !validName(id.Name) {
		return "", fmt.Errorf("%s: invalid name: %w", qualified(id.Namespace, id.Name), ErrDataInvalid)
	}
	return c.files.defaultLocation(id), nil
}

// newTable checks that table id can be created from spec (its namespace
// exists, its name is free, its location is in the warehouse) and returns
// its location and first metadata.
func (c *SQL) newTable(ctx context.Context, id Identifier, spec TableSpec) (string, *TableMetadata, error) {
	name := qualified(id.Namespace, id.Name)
	dir, err := c.tableLocation(id)
	if err != nil {
		return "", nil, fmt.Errorf("create table %w", err)
	}
	if ok, err := c.namespaceExists(ctx, id.Namespace); err != nil {
		return "", nil, err
	} else if !ok {
		return "", nil, fmt.Errorf("create table %s: namespace %s: %w", name, strings.Join(id.Namespace, "."), ErrNotFound)
	}
	if err := c.nameFree(ctx, id); err != nil {
		return "", nil, fmt.Errorf("create table %w", err)
	}
	if spec.Location == "" {
		// A namespace's location property places its new tables, as in
		// the other JDBC catalogs.
		if loc, err := c.namespaceProperty(ctx, id.Namespace, "location"); err != nil {
			return "", nil, err
		} else if loc != "" {
			spec.Location = strings.TrimSuffix(loc, "/") + "/" + id.Name
		}
	}
	if spec.Location != "" {
		local, err := c.files.place(strings.TrimSuffix(spec.Location, "/"))
		if err != nil {
			return "", nil, pgerr.Wrap(fmt.Errorf("create table %s: location %s: %w", name, spec.Location, ErrOutsideWarehouse),
				pgerr.InsufficientPrivilege, "location \"%s\" of table \"%s\" is outside the warehouse", spec.Location, name)
		}
		dir = local
	}
	meta, err := NewTableMetadata(spec, dir, newUUID())
	if err != nil {
		return "", nil, fmt.Errorf("create table %s: %w", name, err)
	}
	return dir, meta, nil
}

// namespaceProperty is the value of a namespace's property ("" when it
// has none).
func (c *SQL) namespaceProperty(ctx context.Context, ns []string, key string) (string, error) {
	nsKey, err := namespaceKey(ns)
	if err != nil {
		return "", nil
	}
	var v sql.NullString
	err = c.db.QueryRowContext(ctx, c.q(`SELECT property_value FROM iceberg_namespace_properties
		WHERE catalog_name = ? AND namespace = ? AND property_key = ?`), c.name, nsKey, key).Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("catalog %s: namespace %s: %w", c.name, nsKey, err)
	}
	return v.String, nil
}

// nameFree reports ErrAlreadyExists when id names a table or view, of the
// database or staged in this process.
func (c *SQL) nameFree(ctx context.Context, id Identifier) error {
	name := qualified(id.Namespace, id.Name)
	if _, staged := c.lookup(name); staged {
		return fmt.Errorf("%s: %w", name, ErrAlreadyExists)
	}
	_, err := c.pointer(ctx, id, sqlTableType)
	switch {
	case err == nil:
		return fmt.Errorf("%s: %w", name, ErrAlreadyExists)
	case errors.Is(err, errIsView):
		return fmt.Errorf("%s: a view of that name exists: %w", name, ErrAlreadyExists)
	case errors.Is(err, ErrNotFound):
		return nil
	}
	return err
}

// insert adds the row of a new table or view; a name taken meanwhile is
// ErrAlreadyExists.
func (c *SQL) insert(ctx context.Context, id Identifier, loc, kind string) error {
	return c.insertOn(ctx, c.db, id, loc, kind)
}

// insertOn is insert through db.
func (c *SQL) insertOn(ctx context.Context, db execer, id Identifier, loc, kind string) error {
	key, err := namespaceKey(id.Namespace)
	if err != nil {
		return err
	}
	var res sql.Result
	if c.views {
		res, err = db.ExecContext(ctx, c.q(`INSERT INTO iceberg_tables
			(catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location, iceberg_type)
			VALUES (?, ?, ?, ?, NULL, ?) ON CONFLICT DO NOTHING`), c.name, key, id.Name, loc, kind)
	} else {
		res, err = db.ExecContext(ctx, c.q(`INSERT INTO iceberg_tables
			(catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location)
			VALUES (?, ?, ?, ?, NULL) ON CONFLICT DO NOTHING`), c.name, key, id.Name, loc)
	}
	if err != nil {
		return fmt.Errorf("catalog %s: %s: %w", c.name, qualified(id.Namespace, id.Name), err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("%s: %w", qualified(id.Namespace, id.Name), ErrAlreadyExists)
	}
	return nil
}

// swap moves the pointer of table or view id from base to next; another
// writer's commit since base is ErrCommitConflict.
func (c *SQL) swap(ctx context.Context, id Identifier, base, next string) error {
	return c.swapOn(ctx, c.db, id, base, next)
}

// execer runs a statement: the database, or one of its transactions.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// swapOn is swap through db.
func (c *SQL) swapOn(ctx context.Context, db execer, id Identifier, base, next string) error {
	key, err := namespaceKey(id.Namespace)
	if err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, c.q(`UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ?
		WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?`),
		next, base, c.name, key, id.Name, base)
	if err != nil {
		return fmt.Errorf("catalog %s: commit %s: %w", c.name, qualified(id.Namespace, id.Name), err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("catalog %s: commit %s: %w", c.name, qualified(id.Namespace, id.Name), err)
	}
	if n == 0 {
		return fmt.Errorf("commit %s: another writer committed first: %w", qualified(id.Namespace, id.Name), ErrCommitConflict)
	}
	return nil
}

// createFirst writes the first metadata file of a new table at tableLoc
// and adds its row.
func (c *SQL) createFirst(ctx context.Context, id Identifier, tableLoc string, meta *TableMetadata) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	data, err := MarshalMetadata(meta)
	if err != nil {
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	if _, err := c.files.prepare(ctx, tableLoc); err != nil {
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	loc, err := c.files.writeMetadata(ctx, tableLoc, MetadataLocation(meta), newMetadataName(0), data)
	if err != nil {
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	if err := c.insert(ctx, id, loc, sqlTableType); err != nil {
		c.files.removeFile(ctx, loc)
		return nil, fmt.Errorf("create table %w", err)
	}
	c.files.cacheTable(loc, meta)
	return c.loadAt(ctx, id, loc)
}

// CreateTable implements MutableCatalog.
func (c *SQL) CreateTable(ctx context.Context, id Identifier, spec TableSpec) (_ *Table, err error) {
	defer func() { err = c.files.relative(err) }()
	dir, meta, err := c.newTable(ctx, id, spec)
	if err != nil {
		return nil, err
	}
	return c.createFirst(ctx, id, dir, meta)
}

// CommitTable implements MutableCatalog: the next metadata file, then the
// compare-and-swap of the row's pointer.
func (c *SQL) CommitTable(ctx context.Context, id Identifier, reqs []Requirement, updates []Update) (_ *Table, err error) {
	defer func() { err = c.files.relative(err) }()
	name := qualified(id.Namespace, id.Name)
	baseLoc, err := c.pointer(ctx, id, sqlTableType)
	if err != nil {
		return nil, fmt.Errorf("commit table %w", err)
	}
	base, err := c.files.readTable(ctx, baseLoc)
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	meta, err := nextMetadata(name, base, baseLoc, reqs, updates)
	if err != nil {
		return nil, err
	}
	data, err := MarshalMetadata(meta)
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	loc, err := c.files.writeMetadata(ctx, base.Location, MetadataLocation(meta), newMetadataName(nextVersion(baseLoc, len(base.MetadataLog))), data)
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	if err := c.swap(ctx, id, baseLoc, loc); err != nil {
		c.files.removeFile(ctx, loc)
		return nil, err
	}
	c.files.cacheTable(loc, meta)
	tbl := &Table{
		Ident:            Identifier{Namespace: slices.Clone(id.Namespace), Name: id.Name},
		MetadataLocation: loc,
		Metadata:         meta,
		IO:               c.files.tableIO(ctx, loc),
	}
	if meta.Properties[PropDeleteAfterCommit] == "true" {
		c.files.afterCommit(tbl, base, baseLoc)
	}
	noteCommit(ctx, id, loc, meta, updates)
	return tbl, nil
}

// RegisterTable implements MutableCatalog: a row pointing at the metadata
// file, which must be in the warehouse; the files stay where they are.
func (c *SQL) RegisterTable(ctx context.Context, id Identifier, metadataFile string) (_ *Table, err error) {
	defer func() { err = c.files.relative(err) }()
	name := qualified(id.Namespace, id.Name)
	if _, err := c.tableLocation(id); err != nil {
		return nil, fmt.Errorf("register table %w", err)
	}
	if ok, err := c.namespaceExists(ctx, id.Namespace); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("register table %s: namespace %s: %w", name, strings.Join(id.Namespace, "."), ErrNotFound)
	}
	if _, err := c.files.place(metadataFile); err != nil {
		return nil, err
	}
	if ok, err := c.files.exists(ctx, metadataFile); err != nil || !ok {
		return nil, pgerr.New(pgerr.UndefinedFile, "metadata file \"%s\" does not exist", metadataFile)
	}
	if _, err := c.files.readTable(ctx, metadataFile); err != nil {
		return nil, fmt.Errorf("register table %s: %w", name, err)
	}
	if err := c.nameFree(ctx, id); err != nil {
		return nil, fmt.Errorf("register table %w", err)
	}
	if err := c.insert(ctx, id, metadataFile, sqlTableType); err != nil {
		return nil, fmt.Errorf("register table %w", err)
	}
	return c.loadAt(ctx, id, metadataFile)
}

// remove deletes the row of table or view id (by kind).
func (c *SQL) remove(ctx context.Context, id Identifier, kind string) error {
	key, err := namespaceKey(id.Namespace)
	if err != nil || !validName(id.Name) {
		return fmt.Errorf("%s: %w", qualified(id.Namespace, id.Name), ErrNotFound)
	}
	res, err := c.db.ExecContext(ctx, c.q(`DELETE FROM iceberg_tables
		WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND `+c.typeIs(kind)), c.name, key, id.Name)
	if err != nil {
		return fmt.Errorf("catalog %s: %s: %w", c.name, qualified(id.Namespace, id.Name), err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		// Not there, or the other kind's: say which.
		_, err := c.pointer(ctx, id, kind)
		if err == nil {
			err = fmt.Errorf("%s: %w", qualified(id.Namespace, id.Name), ErrCommitConflict)
		}
		return err
	}
	return nil
}

// DropTable implements MutableCatalog: the row goes; purge also removes
// the table's directory (in the warehouse), as the other JDBC catalogs'
// purge removes the table's files.
func (c *SQL) DropTable(ctx context.Context, id Identifier, purge bool) (err error) {
	defer func() { err = c.files.relative(err) }()
	var tableLoc string
	if purge {
		if t, err := c.LoadTable(ctx, id); err == nil {
			tableLoc = t.Metadata.Location
		}
	}
	if err := c.remove(ctx, id, sqlTableType); err != nil {
		return fmt.Errorf("drop table %w", err)
	}
	if tableLoc != "" {
		if err := c.files.removeTable(ctx, tableLoc); err != nil {
			return fmt.Errorf("drop table %s: purge: %w", qualified(id.Namespace, id.Name), err)
		}
	}
	return nil
}

// RenameTable implements MutableCatalog: the row takes the new name; the
// files keep their location.
func (c *SQL) RenameTable(ctx context.Context, from, to Identifier) (err error) {
	defer func() { err = c.files.relative(err) }()
	if _, err := c.pointer(ctx, from, sqlTableType); err != nil {
		return fmt.Errorf("rename table %w", err)
	}
	toKey, err := namespaceKey(to.Namespace)
	if err != nil || !validName(to.Name) {
		return fmt.Errorf("rename table to %s: invalid name: %w", qualified(to.Namespace, to.Name), ErrDataInvalid)
	}
	if ok, err := c.namespaceExists(ctx, to.Namespace); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("rename table to %s: namespace %s: %w", qualified(to.Namespace, to.Name), toKey, ErrNotFound)
	}
	if err := c.nameFree(ctx, to); err != nil {
		return fmt.Errorf("rename table to %w", err)
	}
	fromKey, _ := namespaceKey(from.Namespace)
	res, err := c.db.ExecContext(ctx, c.q(`UPDATE iceberg_tables SET table_namespace = ?, table_name = ?
		WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?`), toKey, to.Name, c.name, fromKey, from.Name)
	if err != nil {
		// The new name was taken meanwhile (the primary key refuses it).
		if _, perr := c.pointer(ctx, to, sqlTableType); perr == nil || errors.Is(perr, errIsView) {
			return fmt.Errorf("rename table to %s: %w", qualified(to.Namespace, to.Name), ErrAlreadyExists)
		}
		return fmt.Errorf("catalog %s: rename table %s: %w", c.name, qualified(from.Namespace, from.Name), err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("rename table %s: %w", qualified(from.Namespace, from.Name), ErrNotFound)
	}
	return nil
}

// NewOutput implements MutableCatalog: files under the table's location.
func (c *SQL) NewOutput(t *Table) (OutputIO, error) { return c.files.output(t) }

// CreateView implements MutableCatalog.
func (c *SQL) CreateView(ctx context.Context, id Identifier, meta *ViewMetadata, replace bool) (_ *View, err error) {
	defer func() { err = c.files.relative(err) }()
	name := qualified(id.Namespace, id.Name)
	if !c.views {
		return nil, fmt.Errorf("create view %s: catalog %s keeps its tables in the JDBC catalog's first schema, without iceberg_type: %w", name, c.name, ErrUnsupported)
	}
	if meta == nil {
		return nil, fmt.Errorf("create view %s: no metadata: %w", name, ErrDataInvalid)
	}
	if err := meta.validate(); err != nil {
		return nil, fmt.Errorf("create view %s: %w", name, err)
	}
	dir, err := c.tableLocation(id)
	if err != nil {
		return nil, fmt.Errorf("create view %w", err)
	}
	if ok, err := c.namespaceExists(ctx, id.Namespace); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("create view %s: namespace %s: %w", name, strings.Join(id.Namespace, "."), ErrNotFound)
	}
	for attempt := 0; ; attempt++ {
		baseLoc, err := c.pointer(ctx, id, sqlViewType)
		switch {
		case errors.Is(err, errIsTable):
			return nil, fmt.Errorf("create view %s: a table of that name exists: %w", name, ErrAlreadyExists)
		case err == nil && !replace:
			return nil, fmt.Errorf("create view %s: %w", name, ErrAlreadyExists)
		case err == nil:
			v, err := c.replaceView(ctx, id, baseLoc, meta)
			if errors.Is(err, ErrCommitConflict) && attempt < viewRetries {
				continue
			}
			return v, err
		case !errors.Is(err, ErrNotFound):
			return nil, err
		}
		m := *meta
		if m.ViewUUID == "" {
			m.ViewUUID = newUUID()
		}
		if m.Location == "" {
			m.Location = dir
		}
		data, err := MarshalViewMetadata(&m)
		if err != nil {
			return nil, fmt.Errorf("create view %s: %w", name, err)
		}
		loc, err := c.files.writeMetadata(ctx, dir, strings.TrimSuffix(m.Location, "/")+"/metadata", newMetadataName(0), data)
		if err != nil {
			return nil, fmt.Errorf("create view %s: %w", name, err)
		}
		if err := c.insert(ctx, id, loc, sqlViewType); err != nil {
			c.files.removeFile(ctx, loc)
			if errors.Is(err, ErrAlreadyExists) && attempt < viewRetries {
				continue // a view or table was created meanwhile: look again
			}
			return nil, fmt.Errorf("create view %w", err)
		}
		return c.LoadView(ctx, id)
	}
}

// replaceView commits meta's current version as the next version of the
// view whose metadata is at baseLoc.
func (c *SQL) replaceView(ctx context.Context, id Identifier, baseLoc string, meta *ViewMetadata) (*View, error) {
	name := qualified(id.Namespace, id.Name)
	base, err := c.files.readView(ctx, baseLoc)
	if err != nil {
		return nil, fmt.Errorf("replace view %s: %w", name, err)
	}
	next, data, err := base.replacementJSON(meta)
	if err != nil {
		return nil, fmt.Errorf("replace view %s: %w", name, err)
	}
	loc, err := c.files.writeMetadata(ctx, base.Location, baseLoc[:strings.LastIndexByte(baseLoc, '/')],
		newMetadataName(nextVersion(baseLoc, len(base.VersionLog))), data)
	if err != nil {
		return nil, fmt.Errorf("replace view %s: %w", name, err)
	}
	if err := c.swap(ctx, id, baseLoc, loc); err != nil {
		c.files.removeFile(ctx, loc)
		return nil, err
	}
	c.files.cacheView(loc, next)
	return &View{Ident: Identifier{Namespace: slices.Clone(id.Namespace), Name: id.Name}, MetadataLocation: loc, Metadata: next}, nil
}

// DropView implements MutableCatalog: the row goes (the metadata files
// stay, as a table's without purge).
func (c *SQL) DropView(ctx context.Context, id Identifier) (err error) {
	defer func() { err = c.files.relative(err) }()
	if err := c.remove(ctx, id, sqlViewType); err != nil {
		return fmt.Errorf("drop view %w", err)
	}
	return nil
}

// StageTable implements TableStager: the name is reserved in this process
// and the directory made; the row comes at PublishTable. Another gateway
// may take the name meanwhile: publishing then fails with
// ErrAlreadyExists.
func (c *SQL) StageTable(ctx context.Context, id Identifier, spec TableSpec) (_ *Table, err error) {
	defer func() { err = c.files.relative(err) }()
	dir, meta, err := c.newTable(ctx, id, spec)
	if err != nil {
		return nil, err
	}
	name := qualified(id.Namespace, id.Name)
	if !c.reserve(name, stagedDir{dir: dir}) {
		return nil, fmt.Errorf("create table %s: %w", name, ErrAlreadyExists)
	}
	made, err := c.files.prepare(ctx, dir)
	if err != nil {
		c.take(name)
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	c.setMade(name, made)
	return &Table{Ident: Identifier{Namespace: slices.Clone(id.Namespace), Name: id.Name}, Metadata: meta,
		IO: c.files.tableIO(ctx, MetadataLocation(meta)+"/staged.metadata.json")}, nil
}

// PublishTable implements TableStager: the first metadata file, then the
// row.
func (c *SQL) PublishTable(ctx context.Context, id Identifier, meta *TableMetadata) (_ *Table, err error) {
	defer func() { err = c.files.relative(err) }()
	name := qualified(id.Namespace, id.Name)
	st, ok := c.lookup(name)
	if !ok {
		return nil, fmt.Errorf("publish table %s: not a staged table: %w", name, ErrNotFound)
	}
	t, err := c.createFirst(ctx, id, st.dir, meta)
	if err != nil {
		return nil, err
	}
	c.take(name)
	return t, nil
}

// DiscardTable implements TableStager: the reservation goes, and the
// directory when staging made it. Files the block wrote into a directory
// that was there before are this process's recorded writes that no
// metadata references, which the crash sweep removes when the catalog
// closes.
func (c *SQL) DiscardTable(ctx context.Context, id Identifier) error {
	name := qualified(id.Namespace, id.Name)
	st, ok := c.take(name)
	if !ok || !st.made {
		return nil
	}
	if err := c.files.removeTable(ctx, st.dir); err != nil {
		return c.files.relative(fmt.Errorf("discard staged table %s: %w", name, err))
	}
	return nil
}
