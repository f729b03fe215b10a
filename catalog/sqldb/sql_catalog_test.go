package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/sqldb"
)

func TestParse(t *testing.T) {
	props := map[string]string{"jdbc.user": "ice", "jdbc.password": "pw"}
	for _, tc := range []struct {
		uri     string
		dialect catalog.SQLDialect
		dsn     string
		err     bool
	}{
		{uri: "jdbc:postgresql://db:5432/cat", dialect: catalog.SQLPostgres, dsn: "postgres://db:5432/cat?password=pw&user=ice"},
		{uri: "jdbc:postgresql://db/cat?user=a&password=b", dialect: catalog.SQLPostgres, dsn: "postgres://db/cat?password=b&user=a"},
		{uri: "postgresql://a:b@db/cat", dialect: catalog.SQLPostgres, dsn: "postgres://a:b@db/cat"},
		{uri: "postgresql+psycopg2://a@db/cat", dialect: catalog.SQLPostgres, dsn: "postgres://a@db/cat?password=pw"},
		{uri: "postgres://db/cat?sslmode=disable", dialect: catalog.SQLPostgres, dsn: "postgres://db/cat?password=pw&sslmode=disable&user=ice"},
		{uri: "jdbc:sqlite:/var/cat.db", dialect: catalog.SQLite, dsn: "file:/var/cat.db?_busy_timeout=10000&_txlock=immediate&_journal_mode=WAL"},
		{uri: "jdbc:sqlite:file:/var/cat.db", dialect: catalog.SQLite, dsn: "file:/var/cat.db?_busy_timeout=10000&_txlock=immediate&_journal_mode=WAL"},
		{uri: "sqlite:////var/cat.db", dialect: catalog.SQLite, dsn: "file:/var/cat.db?_busy_timeout=10000&_txlock=immediate&_journal_mode=WAL"},
		{uri: "sqlite:///cat.db", dialect: catalog.SQLite, dsn: "file:cat.db?_busy_timeout=10000&_txlock=immediate&_journal_mode=WAL"},
		{uri: "sqlite://", dialect: catalog.SQLite, dsn: "file::memory:?_busy_timeout=10000&_txlock=immediate"},
		{uri: "jdbc:sqlite::memory:", dialect: catalog.SQLite, dsn: "file::memory:?_busy_timeout=10000&_txlock=immediate"},
		{uri: "jdbc:mysql://db/cat", err: true},
		{uri: "thrift://metastore:9083", err: true},
		{uri: "", err: true},
	} {
		t.Run(tc.uri, func(t *testing.T) {
			d, dsn, err := sqldb.Parse(tc.uri, props)
			if tc.err {
				if err == nil {
					t.Fatalf("Parse(%q) = %v, %q; want an error", tc.uri, d, dsn)
				}
				return
			}
			if err != nil || d != tc.dialect || dsn != tc.dsn {
				t.Fatalf("Parse(%q) = %v, %q, %v; want %v, %q", tc.uri, d, dsn, err, tc.dialect, tc.dsn)
			}
		})
	}
}

// backends are the databases the catalog tests run on: SQLite always, and
// PostgreSQL when ICEGATE_TEST_PG names one (each test in a fresh
// database it drops afterwards).
func backends(t *testing.T) map[string]func(t *testing.T) string {
	out := map[string]func(t *testing.T) string{
		"sqlite": func(t *testing.T) string { return "jdbc:sqlite:" + filepath.Join(t.TempDir(), "catalog.db") },
	}
	if pg := os.Getenv("ICEGATE_TEST_PG"); pg != "" {
		out["postgres"] = func(t *testing.T) string { return freshPostgres(t, pg) }
	}
	return out
}

func freshPostgres(t *testing.T, admin string) string {
	t.Helper()
	ctx := context.Background()
	db, _, err := sqldb.Open(ctx, admin, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	name := fmt.Sprintf("sqlcat_%d", time.Now().UnixNano())
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	t.Cleanup(func() {
		db, _, err := sqldb.Open(ctx, admin, nil)
		if err == nil {
			db.ExecContext(ctx, "DROP DATABASE "+name+" WITH (FORCE)")
			db.Close()
		}
	})
	return u.String()
}

// open opens the catalog called name over the database at uri, with its
// files in warehouse.
func open(t *testing.T, uri, name, warehouse string) *catalog.SQL {
	t.Helper()
	ctx := context.Background()
	db, dialect, err := sqldb.Open(ctx, uri, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c, err := catalog.NewSQL(ctx, name, db, dialect, warehouse, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	return c
}

func schema() *catalog.Schema {
	return &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: 2, Name: "name", Type: &catalog.PrimitiveType{ID: catalog.TString}},
	}}
}

func id(ns, name string) catalog.Identifier {
	return catalog.Identifier{Namespace: strings.Split(ns, "."), Name: name}
}

func wantErr(t *testing.T, err, kind error) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error %v; want %v", err, kind)
	}
}

func TestSQLCatalog(t *testing.T) {
	for name, uri := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			dbURI := uri(t)
			c := open(t, dbURI, "lake", wh)

			// Namespaces: a parent must exist; nested ones list with
			// their ancestors; another catalog in the same database sees
			// none of them.
			wantErr(t, c.CreateNamespace(ctx, []string{"db", "sub"}, nil), catalog.ErrNotFound)
			if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			wantErr(t, c.CreateNamespace(ctx, []string{"db"}, nil), catalog.ErrAlreadyExists)
			if err := c.CreateNamespace(ctx, []string{"db", "sub"}, map[string]string{"owner": "ice"}); err != nil {
				t.Fatal(err)
			}
			// A namespace's location places its tables.
			placed := filepath.Join(wh, "elsewhere")
			if err := c.CreateNamespace(ctx, []string{"placed"}, map[string]string{"location": "file://" + placed}); err != nil {
				t.Fatal(err)
			}
			if pt, err := c.CreateTable(ctx, id("placed", "t"), catalog.TableSpec{Schema: schema()}); err != nil || pt.Metadata.Location != filepath.Join(placed, "t") {
				t.Fatalf("table of a namespace with a location: %v, %v", pt, err)
			}
			if err := c.DropTable(ctx, id("placed", "t"), true); err != nil {
				t.Fatal(err)
			}
			if err := c.DropNamespace(ctx, []string{"placed"}); err != nil {
				t.Fatal(err)
			}
			nss, err := c.ListNamespaces(ctx)
			if err != nil || !slices.EqualFunc(nss, [][]string{{"db"}, {"db", "sub"}}, slices.Equal[[]string]) {
				t.Fatalf("namespaces %v, %v", nss, err)
			}
			other := open(t, dbURI, "other", t.TempDir())
			if nss, err := other.ListNamespaces(ctx); err != nil || len(nss) != 0 {
				t.Fatalf("other catalog's namespaces %v, %v", nss, err)
			}

			// Tables: create, load, list; the files are where
			// JdbcCatalog puts them.
			tbl, err := c.CreateTable(ctx, id("db", "t"), catalog.TableSpec{Schema: schema()})
			if err != nil {
				t.Fatal(err)
			}
			wantDir := filepath.Join(wh, "db", "t")
			if tbl.Metadata.Location != wantDir || !strings.HasPrefix(tbl.MetadataLocation, wantDir+"/metadata/00000-") {
				t.Fatalf("location %s, metadata %s", tbl.Metadata.Location, tbl.MetadataLocation)
			}
			_, err = c.CreateTable(ctx, id("db", "t"), catalog.TableSpec{Schema: schema()})
			wantErr(t, err, catalog.ErrAlreadyExists)
			_, err = c.CreateTable(ctx, id("nope", "t"), catalog.TableSpec{Schema: schema()})
			wantErr(t, err, catalog.ErrNotFound)
			_, err = c.CreateTable(ctx, id("db", "out"), catalog.TableSpec{Schema: schema(), Location: "/etc/out"})
			wantErr(t, err, catalog.ErrOutsideWarehouse)
			if ids, err := c.ListTables(ctx, []string{"db"}); err != nil || len(ids) != 1 || ids[0].Name != "t" {
				t.Fatalf("tables %v, %v", ids, err)
			}
			_, err = c.ListTables(ctx, []string{"nope"})
			wantErr(t, err, catalog.ErrNotFound)

			// A commit moves the pointer and keeps the previous one.
			next, err := c.CommitTable(ctx, id("db", "t"), []catalog.Requirement{catalog.AssertTableUUID{UUID: tbl.Metadata.TableUUID}},
				[]catalog.Update{catalog.SetProperties{Updates: map[string]string{"k": "v"}}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(next.MetadataLocation, "/metadata/00001-") || next.Metadata.Properties["k"] != "v" {
				t.Fatalf("after commit: %s %v", next.MetadataLocation, next.Metadata.Properties)
			}
			loaded, err := c.LoadTable(ctx, id("db", "t"))
			if err != nil || loaded.MetadataLocation != next.MetadataLocation {
				t.Fatalf("load after commit: %v, %v", loaded, err)
			}
			db, _, err := sqldb.Open(ctx, dbURI, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var prev string
			if err := db.QueryRowContext(ctx, `SELECT previous_metadata_location FROM iceberg_tables WHERE catalog_name = 'lake'`).Scan(&prev); err != nil || prev != tbl.MetadataLocation {
				t.Fatalf("previous_metadata_location %q, %v; want %q", prev, err, tbl.MetadataLocation)
			}

			// Rename keeps the files where they are; drop without purge
			// keeps them, with purge removes them.
			if err := c.RenameTable(ctx, id("db", "t"), id("db.sub", "u")); err != nil {
				t.Fatal(err)
			}
			if _, err := c.LoadTable(ctx, id("db", "t")); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("old name after rename: %v", err)
			}
			moved, err := c.LoadTable(ctx, id("db.sub", "u"))
			if err != nil || moved.Metadata.Location != wantDir {
				t.Fatalf("renamed: %v, %v", moved, err)
			}
			wantErr(t, c.DropNamespace(ctx, []string{"db", "sub"}), catalog.ErrNotEmpty)
			if err := c.DropTable(ctx, id("db.sub", "u"), false); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(next.MetadataLocation); err != nil {
				t.Fatalf("drop without purge removed the metadata: %v", err)
			}
			// register_table brings it back from its metadata file.
			if _, err := c.RegisterTable(ctx, id("db", "back"), next.MetadataLocation); err != nil {
				t.Fatal(err)
			}
			if err := c.DropTable(ctx, id("db", "back"), true); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(wantDir); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("purge left %s: %v", wantDir, err)
			}
			wantErr(t, c.DropTable(ctx, id("db", "back"), false), catalog.ErrNotFound)
			if err := c.DropNamespace(ctx, []string{"db", "sub"}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestSQLCatalogConcurrentCommits: gateways commit to one table at once,
// each retrying when it loses; no commit is lost and the metadata log
// holds every one.
func TestSQLCatalogConcurrentCommits(t *testing.T) {
	for name, uri := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			dbURI := uri(t)
			gateways := []*catalog.SQL{open(t, dbURI, "lake", wh), open(t, dbURI, "lake", wh), open(t, dbURI, "lake", wh)}
			if err := gateways[0].CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := gateways[0].CreateTable(ctx, id("db", "t"), catalog.TableSpec{Schema: schema()}); err != nil {
				t.Fatal(err)
			}
			const commits = 6
			var wg sync.WaitGroup
			errs := make([]error, len(gateways))
			for g, c := range gateways {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for n := range commits {
						for {
							_, err := c.CommitTable(ctx, id("db", "t"), nil,
								[]catalog.Update{catalog.SetProperties{Updates: map[string]string{fmt.Sprintf("g%d-%d", g, n): "x"}}})
							if errors.Is(err, catalog.ErrCommitConflict) {
								continue
							}
							if err != nil {
								errs[g] = err
								return
							}
							break
						}
					}
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			final, err := gateways[1].LoadTable(ctx, id("db", "t"))
			if err != nil {
				t.Fatal(err)
			}
			for g := range gateways {
				for n := range commits {
					if final.Metadata.Properties[fmt.Sprintf("g%d-%d", g, n)] == "" {
						t.Fatalf("commit %d of gateway %d is lost: %v", n, g, final.Metadata.Properties)
					}
				}
			}
			if got := len(final.Metadata.MetadataLog); got != len(gateways)*commits {
				t.Fatalf("metadata log has %d entries; want %d", got, len(gateways)*commits)
			}
		})
	}
}

// commitBetween runs another commit once, when the catalog syncs the
// metadata directory it has just written its next metadata file to: after
// the commit read its base, before it swaps the pointer.
type commitBetween struct {
	other func()
	once  sync.Once
}

func (s *commitBetween) SyncFile(f *os.File) error { return f.Sync() }
func (s *commitBetween) SyncDir(dir string) error {
	if filepath.Base(dir) == "metadata" {
		s.once.Do(s.other)
	}
	return nil
}

// TestSQLCatalogCompareAndSwap: of two commits from the same base, the
// one that swaps second fails with ErrCommitConflict, leaves no metadata
// file behind, and the first stays current.
func TestSQLCatalogCompareAndSwap(t *testing.T) {
	for name, uri := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			dbURI := uri(t)
			a, b := open(t, dbURI, "lake", wh), open(t, dbURI, "lake", wh)
			if err := a.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := a.CreateTable(ctx, id("db", "t"), catalog.TableSpec{Schema: schema()}); err != nil {
				t.Fatal(err)
			}
			set := func(k string) []catalog.Update {
				return []catalog.Update{catalog.SetProperties{Updates: map[string]string{k: "x"}}}
			}
			var bErr error
			a.SetSyncer(&commitBetween{other: func() { _, bErr = b.CommitTable(ctx, id("db", "t"), nil, set("b")) }})
			_, err := a.CommitTable(ctx, id("db", "t"), nil, set("a"))
			wantErr(t, err, catalog.ErrCommitConflict)
			if bErr != nil {
				t.Fatal(bErr)
			}
			cur, err := a.LoadTable(ctx, id("db", "t"))
			if err != nil {
				t.Fatal(err)
			}
			if cur.Metadata.Properties["b"] != "x" || cur.Metadata.Properties["a"] != "" {
				t.Fatalf("current properties %v; want b's commit only", cur.Metadata.Properties)
			}
			files, _ := filepath.Glob(filepath.Join(wh, "db", "t", "metadata", "*.metadata.json"))
			if len(files) != 2 {
				t.Fatalf("metadata files %v; want the first and b's", files)
			}
			// a's retry commits on top of b's.
			if _, err := a.CommitTable(ctx, id("db", "t"), nil, set("a")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestSQLCatalogViewsAndStaging(t *testing.T) {
	for name, uri := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			c := open(t, uri(t), "lake", wh)
			if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			view := func(sql string) *catalog.ViewMetadata {
				m, err := catalog.NewViewMetadata(catalog.ViewSpec{Schema: schema(), SQL: sql, DefaultNamespace: []string{"db"}}, "", "", time.Now().UnixMilli())
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			if _, err := c.CreateView(ctx, id("db", "v"), view("SELECT 1"), false); err != nil {
				t.Fatal(err)
			}
			_, err := c.CreateView(ctx, id("db", "v"), view("SELECT 2"), false)
			wantErr(t, err, catalog.ErrAlreadyExists)
			v, err := c.CreateView(ctx, id("db", "v"), view("SELECT 2"), true)
			if err != nil {
				t.Fatal(err)
			}
			if sql, _, _ := v.SQL(); sql != "SELECT 2" || !strings.Contains(v.MetadataLocation, "/metadata/00001-") {
				t.Fatalf("replaced view: %q at %s", sql, v.MetadataLocation)
			}
			if _, err := c.LoadTable(ctx, id("db", "v")); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("a view loads as a table: %v", err)
			}
			if ids, err := c.ListViews(ctx, []string{"db"}); err != nil || len(ids) != 1 {
				t.Fatalf("views %v, %v", ids, err)
			}
			if ids, err := c.ListTables(ctx, []string{"db"}); err != nil || len(ids) != 0 {
				t.Fatalf("tables %v, %v", ids, err)
			}
			_, err = c.CreateTable(ctx, id("db", "v"), catalog.TableSpec{Schema: schema()})
			wantErr(t, err, catalog.ErrAlreadyExists)
			wantErr(t, c.DropTable(ctx, id("db", "v"), false), catalog.ErrNotFound)
			if err := c.DropView(ctx, id("db", "v")); err != nil {
				t.Fatal(err)
			}

			// A staged table is invisible and holds its name until it is
			// published; a discarded one leaves nothing.
			staged, err := c.StageTable(ctx, id("db", "s"), catalog.TableSpec{Schema: schema()})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.LoadTable(ctx, id("db", "s")); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("staged table loads: %v", err)
			}
			_, err = c.CreateTable(ctx, id("db", "s"), catalog.TableSpec{Schema: schema()})
			wantErr(t, err, catalog.ErrAlreadyExists)
			if _, err := c.PublishTable(ctx, id("db", "s"), staged.Metadata); err != nil {
				t.Fatal(err)
			}
			if _, err := c.LoadTable(ctx, id("db", "s")); err != nil {
				t.Fatal(err)
			}
			if _, err := c.StageTable(ctx, id("db", "gone"), catalog.TableSpec{Schema: schema()}); err != nil {
				t.Fatal(err)
			}
			if err := c.DiscardTable(ctx, id("db", "gone")); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(wh, "db", "gone")); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("discarded table left its directory: %v", err)
			}
		})
	}
}

// TestSQLCatalogFirstSchema: a database whose iceberg_tables predates
// iceberg_type serves tables and refuses views.
func TestSQLCatalogFirstSchema(t *testing.T) {
	ctx := context.Background()
	uri := "jdbc:sqlite:" + filepath.Join(t.TempDir(), "v0.db")
	db, _, err := sqldb.Open(ctx, uri, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE iceberg_tables (catalog_name VARCHAR(255) NOT NULL,
		table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL,
		metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000),
		PRIMARY KEY (catalog_name, table_namespace, table_name))`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	c := open(t, uri, "lake", t.TempDir())
	if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateTable(ctx, id("db", "t"), catalog.TableSpec{Schema: schema()}); err != nil {
		t.Fatal(err)
	}
	if ids, err := c.ListTables(ctx, []string{"db"}); err != nil || len(ids) != 1 {
		t.Fatalf("tables %v, %v", ids, err)
	}
	m, err := catalog.NewViewMetadata(catalog.ViewSpec{Schema: schema(), SQL: "SELECT 1"}, "", "", time.Now().UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateView(ctx, id("db", "v"), m, false)
	wantErr(t, err, catalog.ErrUnsupported)
}

// conflictCounter is a catalog over another that counts the commits that
// lost a race.
type conflictCounter struct {
	*catalog.SQL
	lost atomic.Int64
}

func (c *conflictCounter) Unwrap() catalog.MutableCatalog { return c.SQL }

func (c *conflictCounter) CommitTable(ctx context.Context, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*catalog.Table, error) {
	t, err := c.SQL.CommitTable(ctx, id, reqs, updates)
	if errors.Is(err, catalog.ErrCommitConflict) {
		c.lost.Add(1)
	}
	return t, err
}

// TestSQLCatalogWritersTakeTurns: eight writers appending to one table
// through one catalog take turns at committing instead of racing, so no
// commit loses a race and each is in the table.
func TestSQLCatalogWritersTakeTurns(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	c := &conflictCounter{SQL: open(t, "jdbc:sqlite:"+filepath.Join(t.TempDir(), "cat.db"), "lake", wh)}
	if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateTable(ctx, id("db", "t"), catalog.TableSpec{Schema: schema()}); err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 4
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				df := &catalog.DataFile{Content: catalog.ContentData, Path: fmt.Sprintf("%s/db/t/data/w%d-%d.parquet", wh, w, n),
					Format: catalog.FormatParquet, RecordCount: 1, FileSizeInBytes: 10}
				if _, err := catalog.Append(ctx, c, id("db", "t"), []*catalog.DataFile{df}, nil); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	final, err := c.LoadTable(ctx, id("db", "t"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(final.Metadata.Snapshots); got != writers*each {
		t.Fatalf("%d snapshots, want %d", got, writers*each)
	}
	if n := c.lost.Load(); n != 0 {
		t.Fatalf("%d commits lost a race among the writers of one catalog", n)
	}
}

// TestSQLCatalogNamespaceProperties: a namespace's properties are set,
// replaced and removed in one transaction, on every backend; a namespace
// left without properties is still there.
func TestSQLCatalogNamespaceProperties(t *testing.T) {
	for name, uri := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := open(t, uri(t), "lake", t.TempDir())
			if err := c.CreateNamespace(ctx, []string{"db"}, map[string]string{"owner": "ann", "comment": "x"}); err != nil {
				t.Fatal(err)
			}
			removed, missing, err := c.UpdateNamespaceProperties(ctx, []string{"db"}, []string{"comment", "nope"}, map[string]string{"owner": "bob", "location": "/w/db"})
			if err != nil || !slices.Equal(removed, []string{"comment"}) || !slices.Equal(missing, []string{"nope"}) {
				t.Fatalf("update = %v, %v, %v", removed, missing, err)
			}
			props, err := c.NamespaceProperties(ctx, []string{"db"})
			if err != nil || props["owner"] != "bob" || props["location"] != "/w/db" || props["comment"] != "" {
				t.Fatalf("properties = %v, %v", props, err)
			}
			if _, _, err := c.UpdateNamespaceProperties(ctx, []string{"db"}, []string{"owner", "location"}, nil); err != nil {
				t.Fatal(err)
			}
			ns, err := c.ListNamespaces(ctx)
			if err != nil || len(ns) != 1 {
				t.Fatalf("namespaces after removing every property: %v, %v", ns, err)
			}
		})
	}
}
