package catalog

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/objstore"
)

// SQL is a catalog whose tables and views are rows of a database, in the
// schema Iceberg's JDBC catalog defined and Java's JdbcCatalog, PyIceberg's
// SqlCatalog and iceberg-go's sql catalog share, so that icegate and those
// engines serve one set of tables:
//
//	iceberg_tables(catalog_name, table_namespace, table_name,
//	    metadata_location, previous_metadata_location, iceberg_type)
//	iceberg_namespace_properties(catalog_name, namespace, property_key,
//	    property_value)
//
// Rows belong to the catalog whose catalog_name they carry; a namespace is
// its levels joined by dots. A row's metadata_location names the current
// metadata file. A commit writes the next metadata file and then swaps the
// row's pointer with a compare-and-swap (UPDATE ... WHERE
// metadata_location = the one the commit started from), so of two writers
// that start from the same metadata (in this process, another gateway or
// another engine) exactly one wins; the other gets ErrCommitConflict and
// retries as with any catalog.
//
// Files live in the warehouse directory, read and written as the
// filesystem catalog does (its FileIO, write records and crash sweep): a
// new table at <warehouse>/<namespace levels>/<name>, where JdbcCatalog
// places it, with metadata files named <version>-<uuid>.metadata.json. A
// table whose metadata lies outside the warehouse is refused (42501).
//
// Databases that created iceberg_tables without iceberg_type (the JDBC
// catalog's first schema) hold tables only: creating a view there is
// ErrUnsupported.
type SQL struct {
	name    string
	db      *sql.DB
	dialect SQLDialect
	files   warehouse // the warehouse's files
	views   bool      // iceberg_tables has iceberg_type

	stagedTables
	TableLocks // the commits of each table take turns in this process
}

// SQLDialect is the database a SQL catalog's rows are in.
type SQLDialect int

const (
	// SQLPostgres is PostgreSQL (placeholders $1, $2, ...).
	SQLPostgres SQLDialect = iota
	// SQLite is SQLite (placeholders ?).
	SQLite
)

const (
	sqlTableType = "TABLE"
	sqlViewType  = "VIEW"
	// sqlNamespaceExists is the property a namespace created without
	// properties is given, as the other JDBC catalogs do.
	sqlNamespaceExists = "exists"
	// sqlEncodedNamespace starts the namespace key iceberg-go writes for
	// namespaces whose levels hold dots: the levels as a JSON array.
	sqlEncodedNamespace = "__iceberg_namespace_v1__:"
)

var (
	_ MutableCatalog = (*SQL)(nil)
	_ TableStager    = (*SQL)(nil)
)

// NewSQL returns the catalog called name whose rows are in db and whose
// files are in the warehouse directory. It creates the two tables when
// db lacks them. prefixes maps written path prefixes to local directories
// (see NewLocalIO).
func NewSQL(ctx context.Context, name string, db *sql.DB, dialect SQLDialect, warehouse string, prefixes map[string]string) (*SQL, error) {
	files, err := NewFilesystem(name, warehouse, prefixes)
	if err != nil {
		return nil, err
	}
	return newSQL(ctx, name, db, dialect, &localWarehouse{name: name, files: files})
}

func newSQL(ctx context.Context, name string, db *sql.DB, dialect SQLDialect, files warehouse) (*SQL, error) {
	c := &SQL{name: name, db: db, dialect: dialect, files: files}
	for _, ddl := range []string{
		`CREATE TABLE IF NOT EXISTS iceberg_tables (
			catalog_name VARCHAR(255) NOT NULL,
			table_namespace VARCHAR(255) NOT NULL,
			table_name VARCHAR(255) NOT NULL,
			metadata_location VARCHAR(1000),
			previous_metadata_location VARCHAR(1000),
			iceberg_type VARCHAR(5),
			PRIMARY KEY (catalog_name, table_namespace, table_name))`,
		`CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (
			catalog_name VARCHAR(255) NOT NULL,
			namespace VARCHAR(255) NOT NULL,
			property_key VARCHAR(255) NOT NULL,
			property_value VARCHAR(1000),
			PRIMARY KEY (catalog_name, namespace, property_key))`,
	} {
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			return nil, fmt.Errorf("catalog %s: create the catalog's tables: %w", name, err)
		}
	}
	// A table created by the JDBC catalog's first schema has no
	// iceberg_type; this probe fails there.
	rows, err := db.QueryContext(ctx, `SELECT iceberg_type FROM iceberg_tables WHERE 1 = 0`)
	if err == nil {
		rows.Close()
		c.views = true
	}
	return c, nil
}

// SetSyncer replaces how the catalog makes written files durable (fsync by
// default): a test records the calls, or acts between a commit's steps,
// through it. Call it before use.
func (c *SQL) SetSyncer(s Syncer) { c.files.setSyncer(s) }

// Name implements Catalog.
func (c *SQL) Name() string { return c.name }

// Root returns the warehouse directory.
func (c *SQL) Root() string { return c.files.root() }

// Close releases the write records of this process (see Filesystem.Close);
// the database stays open: its owner closes it.
func (c *SQL) Close(ctx context.Context) error { return c.files.close(ctx) }

// q rewrites ? placeholders for the dialect.
func (c *SQL) q(query string) string {
	if c.dialect != SQLPostgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// typeIs is the condition on iceberg_type for rows of kind (TABLE or
// VIEW); rows without a type are tables.
func (c *SQL) typeIs(kind string) string {
	if !c.views {
		if kind == sqlViewType {
			return "1 = 0"
		}
		return "1 = 1"
	}
	if kind == sqlViewType {
		return "iceberg_type = 'VIEW'"
	}
	return "(iceberg_type = 'TABLE' OR iceberg_type IS NULL)"
}

// namespaceKey is how a namespace is written in the catalog's rows.
func namespaceKey(ns []string) (string, error) {
	if len(ns) == 0 {
		return "", fmt.Errorf("empty namespace: %w", ErrNotFound)
	}
	for _, n := range ns {
		if !validName(n) || strings.Contains(n, ".") {
			return "", fmt.Errorf("namespace %s: a level is empty or holds a dot: %w", strings.Join(ns, "."), ErrNotFound)
		}
	}
	return strings.Join(ns, "."), nil
}

// parseNamespaceKey reads a namespace as the catalog's rows write it
// (levels joined by dots, or iceberg-go's encoded form).
func parseNamespaceKey(key string) []string {
	if rest, ok := strings.CutPrefix(key, sqlEncodedNamespace); ok {
		var levels []string
		if json.Unmarshal([]byte(rest), &levels) == nil && len(levels) > 0 {
			return levels
		}
	}
	return strings.Split(key, ".")
}

// likePrefix is a LIKE pattern (escape !) matching keys that start with p.
func likePrefix(p string) string {
	return strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(p) + "%"
}

// namespaceExists reports whether ns has properties, tables or views, or
// is the parent of a namespace that does.
func (c *SQL) namespaceExists(ctx context.Context, ns []string) (bool, error) {
	key, err := namespaceKey(ns)
	if err != nil {
		return false, nil
	}
	like := likePrefix(key + ".")
	var one int
	err = c.db.QueryRowContext(ctx, c.q(`SELECT 1 FROM iceberg_namespace_properties
		WHERE catalog_name = ? AND (namespace = ? OR namespace LIKE ? ESCAPE '!')
		UNION ALL SELECT 1 FROM iceberg_tables
		WHERE catalog_name = ? AND (table_namespace = ? OR table_namespace LIKE ? ESCAPE '!')
		LIMIT 1`), c.name, key, like, c.name, key, like).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("catalog %s: namespace %s: %w", c.name, key, err)
	}
	return true, nil
}

// ListNamespaces implements Catalog: every namespace the rows name, and
// their ancestors.
func (c *SQL) ListNamespaces(ctx context.Context) ([][]string, error) {
	rows, err := c.db.QueryContext(ctx, c.q(`SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?
		UNION SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?`), c.name, c.name)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: list namespaces: %w", c.name, err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	var out [][]string
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			return nil, fmt.Errorf("catalog %s: list namespaces: %w", c.name, err)
		}
		levels := parseNamespaceKey(key)
		for i := 1; i <= len(levels); i++ {
			k := strings.Join(levels[:i], "\x00")
			if !seen[k] {
				seen[k] = true
				out = append(out, slices.Clone(levels[:i]))
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("catalog %s: list namespaces: %w", c.name, err)
	}
	slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	return out, nil
}

// listKind lists the tables or views of a namespace.
func (c *SQL) listKind(ctx context.Context, ns []string, kind string) ([]Identifier, error) {
	ok, err := c.namespaceExists(ctx, ns)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("namespace %s: %w", strings.Join(ns, "."), ErrNotFound)
	}
	key, _ := namespaceKey(ns)
	rows, err := c.db.QueryContext(ctx, c.q(`SELECT table_name FROM iceberg_tables
		WHERE catalog_name = ? AND table_namespace = ? AND `+c.typeIs(kind)+` ORDER BY table_name`), c.name, key)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: list %s: %w", c.name, key, err)
	}
	defer rows.Close()
	var out []Identifier
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("catalog %s: list %s: %w", c.name, key, err)
		}
		out = append(out, Identifier{Namespace: slices.Clone(ns), Name: name})
	}
	return out, rows.Err()
}

// ListTables implements Catalog.
func (c *SQL) ListTables(ctx context.Context, ns []string) ([]Identifier, error) {
	return c.listKind(ctx, ns, sqlTableType)
}

// ListViews implements Catalog.
func (c *SQL) ListViews(ctx context.Context, ns []string) ([]Identifier, error) {
	return c.listKind(ctx, ns, sqlViewType)
}

// pointer returns the metadata location of the table or view id (by
// kind); ErrNotFound when there is no such row, errIsView/errIsTable when
// the name is the other kind's.
func (c *SQL) pointer(ctx context.Context, id Identifier, kind string) (string, error) {
	name := qualified(id.Namespace, id.Name)
	key, err := namespaceKey(id.Namespace)
	if err != nil || !validName(id.Name) {
		return "", fmt.Errorf("%s: %w", name, ErrNotFound)
	}
	var loc sql.NullString
	var typ sql.NullString
	typeCol := "NULL"
	if c.views {
		typeCol = "iceberg_type"
	}
	err = c.db.QueryRowContext(ctx, c.q(`SELECT metadata_location, `+typeCol+` FROM iceberg_tables
		WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?`), c.name, key, id.Name).Scan(&loc, &typ)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", fmt.Errorf("%s: %w", name, ErrNotFound)
	case err != nil:
		return "", fmt.Errorf("catalog %s: %s: %w", c.name, name, err)
	case typ.String == sqlViewType && kind != sqlViewType:
		return "", fmt.Errorf("%s: %w", name, errIsView)
	case typ.String != sqlViewType && kind == sqlViewType:
		return "", fmt.Errorf("%s: %w", name, errIsTable)
	case !loc.Valid || loc.String == "":
		return "", pgerr.New(pgerr.DataCorrupted, "table \"%s\" of catalog \"%s\" has no metadata location", name, c.name)
	}
	return loc.String, nil
}

// LoadTable implements Catalog.
func (c *SQL) LoadTable(ctx context.Context, id Identifier) (_ *Table, err error) {
	defer func() { err = c.files.relative(err) }()
	loc, err := c.pointer(ctx, id, sqlTableType)
	if err != nil {
		return nil, fmt.Errorf("load table %w", err)
	}
	return c.loadAt(ctx, id, loc)
}

func (c *SQL) loadAt(ctx context.Context, id Identifier, loc string) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	meta, err := c.files.readTable(ctx, loc)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", name, err)
	}
	return &Table{
		Ident:            Identifier{Namespace: slices.Clone(id.Namespace), Name: id.Name},
		MetadataLocation: loc,
		Metadata:         meta,
		IO:               c.files.tableIO(ctx, loc),
	}, nil
}

// LoadView implements Catalog.
func (c *SQL) LoadView(ctx context.Context, id Identifier) (_ *View, err error) {
	defer func() { err = c.files.relative(err) }()
	loc, err := c.pointer(ctx, id, sqlViewType)
	if err != nil {
		return nil, fmt.Errorf("load view %w", err)
	}
	m, err := c.files.readView(ctx, loc)
	if err != nil {
		return nil, fmt.Errorf("load view %s: %w", qualified(id.Namespace, id.Name), err)
	}
	return &View{Ident: Identifier{Namespace: slices.Clone(id.Namespace), Name: id.Name}, MetadataLocation: loc, Metadata: m}, nil
}

// newMetadataName is the name of metadata file version v:
// <v, five digits>-<uuid>.metadata.json.
func newMetadataName(v int64) string {
	return fmt.Sprintf("%05d-%s.metadata.json", v, newUUID())
}

// nextVersion is the version of the metadata file after the one at loc.
func nextVersion(loc string, logLen int) int64 {
	if v := metadataVersion(filepath.Base(loc)); v >= 0 {
		return v + 1
	}
	return int64(logLen) + 1
}

// AdvisorySession implements AdvisoryLocker on PostgreSQL: a connection
// of the catalog's database per client session, on which the locks are
// PostgreSQL's own. SQLite has none: ErrUnsupported.
func (c *SQL) AdvisorySession(ctx context.Context) (AdvisorySession, error) {
	if c.dialect != SQLPostgres {
		return nil, fmt.Errorf("catalog %s: advisory locks in SQLite: %w", c.name, ErrUnsupported)
	}
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: advisory locks: %w", c.name, err)
	}
	return &sqlAdvisory{conn: conn}, nil
}

type sqlAdvisory struct{ conn *sql.Conn }

// call runs the advisory function fn ("pg_advisory_lock"...) on key.
func (a *sqlAdvisory) call(ctx context.Context, fn string, key int64, pair bool) (bool, error) {
	var q string
	var args []any
	if pair {
		q, args = "SELECT "+fn+"($1::int4, $2::int4)", []any{int32(key >> 32), int32(key)}
	} else {
		q, args = "SELECT "+fn+"($1::int8)", []any{key}
	}
	var ok bool
	if err := a.conn.QueryRowContext(ctx, q, args...).Scan(&ok); err != nil {
		return false, fmt.Errorf("advisory lock: %w", err)
	}
	return ok, nil
}

func (a *sqlAdvisory) Lock(ctx context.Context, key int64, pair, shared, wait bool) (bool, error) {
	fn := "pg_try_advisory_lock"
	if wait {
		fn = "pg_advisory_lock"
	}
	if shared {
		fn += "_shared"
	}
	if !wait {
		return a.call(ctx, fn, key, pair)
	}
	// pg_advisory_lock returns void once it has the lock.
	var err error
	if pair {
		_, err = a.conn.ExecContext(ctx, "SELECT "+fn+"($1::int4, $2::int4)", int32(key>>32), int32(key))
	} else {
		_, err = a.conn.ExecContext(ctx, "SELECT "+fn+"($1::int8)", key)
	}
	if err != nil {
		return false, fmt.Errorf("advisory lock: %w", err)
	}
	return true, nil
}

func (a *sqlAdvisory) Unlock(ctx context.Context, key int64, pair, shared bool) (bool, error) {
	fn := "pg_advisory_unlock"
	if shared {
		fn += "_shared"
	}
	return a.call(ctx, fn, key, pair)
}

func (a *sqlAdvisory) UnlockAll(ctx context.Context) error {
	_, err := a.conn.ExecContext(ctx, "SELECT pg_advisory_unlock_all()")
	return err
}

func (a *sqlAdvisory) Close() error {
	// Closing returns the connection to the pool: release the locks
	// first, and when that fails, discard the connection (which releases
	// them) rather than pool it.
	if err := a.UnlockAll(context.Background()); err != nil {
		a.conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	return a.conn.Close()
}

// NewSQLObjects returns the catalog called name whose rows are in db and
// whose files are objects of store under warehouse (s3://bucket/prefix),
// read through blobs (nil: no local cache).
func NewSQLObjects(ctx context.Context, name string, db *sql.DB, dialect SQLDialect, store objstore.Store, blobs *objstore.Cache, warehouse string) (*SQL, error) {
	files, err := newObjectWarehouse(name, store, blobs, warehouse)
	if err != nil {
		return nil, err
	}
	return newSQL(ctx, name, db, dialect, files)
}
