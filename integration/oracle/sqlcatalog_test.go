package oracle

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver iceberg-go's sql catalog is given
	_ "github.com/mattn/go-sqlite3"    // the SQLite one
)

// TestSQLCatalogShared: icegate and iceberg-go serve one lakehouse through
// a SQL catalog (the JDBC catalog's tables, in SQLite, and in PostgreSQL
// when ICEGATE_TEST_PG names one): each reads what the other wrote, and a
// commit by one is seen by the other's next read.
func TestSQLCatalogShared(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dbPath := filepath.Join(t.TempDir(), "catalog.db")
		db, err := sql.Open("sqlite3", "file:"+dbPath+"?_busy_timeout=10000")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		sharedCatalog(t, db, sqlcat.SQLite, "jdbc:sqlite:"+dbPath)
	})
	t.Run("postgres", func(t *testing.T) {
		admin := os.Getenv("ICEGATE_TEST_PG")
		if admin == "" {
			t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to keep the catalog there; .ci/run does")
		}
		uri := freshPostgresDatabase(t, admin)
		db, err := sql.Open("pgx", uri)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		sharedCatalog(t, db, sqlcat.Postgres, uri)
	})
}

// freshPostgresDatabase creates a database on the PostgreSQL at admin,
// dropped when the test ends, and returns its URL.
func freshPostgresDatabase(t *testing.T, admin string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("oracle_sqlcat_%d", time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, admin); err == nil {
			c.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// sharedCatalog runs the shared-catalog checks with iceberg-go's catalog
// on db and icegate's on uri, the same database.
func sharedCatalog(t *testing.T, db *sql.DB, dialect sqlcat.SupportedDialect, uri string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	warehouse := filepath.Join(dir, "lake")
	cat, err := sqlcat.NewCatalog("lake", db, dialect, iceberg.Properties{"warehouse": "file://" + warehouse})
	if err != nil {
		t.Fatalf("iceberg-go sql catalog: %v", err)
	}
	defer cat.Close()
	if err := cat.CreateNamespace(ctx, table.Identifier{"shared"}, nil); err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	// iceberg-go writes a table with every primitive type.
	types := typesTable()
	if err := writeTable(ctx, cat, table.Identifier{"shared", "from_go"}, types); err != nil {
		t.Fatalf("iceberg-go writing: %v", err)
	}

	config := filepath.Join(dir, "icegate.yaml")
	body := fmt.Sprintf("catalogs:\n  lake:\n    type: sql\n    uri: %q\n    warehouse: %s\n", uri, warehouse)
	if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	port := startIcegateWith(t, "--config", config)
	conn := connectTo(ctx, t, port, "lake")

	compare := func(t *testing.T, ident table.Identifier) {
		t.Helper()
		tbl, err := cat.LoadTable(ctx, ident)
		if err != nil {
			t.Fatalf("iceberg-go load %v: %v", ident, err)
		}
		wantCols, want, err := scanTable(ctx, tbl)
		if err != nil {
			t.Fatalf("iceberg-go scan: %v", err)
		}
		gotCols, got, err := queryText(ctx, conn, fmt.Sprintf("SELECT * FROM %s.%s", ident[0], ident[1]))
		if err != nil {
			t.Fatalf("icegate: %v", err)
		}
		if !slices.Equal(gotCols, wantCols) {
			t.Fatalf("icegate columns %v, iceberg-go columns %v", gotCols, wantCols)
		}
		if len(want) == 0 {
			t.Fatalf("%v: no rows; the comparison checks nothing", ident)
		}
		for _, d := range diffRows(wantCols, got, want) {
			t.Errorf("%v: %s", ident, d)
		}
	}

	t.Run("icegate reads iceberg-go's table", func(t *testing.T) {
		compare(t, table.Identifier{"shared", "from_go"})
	})

	t.Run("iceberg-go reads icegate's table", func(t *testing.T) {
		for _, q := range []string{
			"CREATE TABLE shared.from_icegate (id bigint, name text, at timestamptz, amount numeric(12,2))",
			"INSERT INTO shared.from_icegate VALUES (1, 'one', '2026-01-02 03:04:05+00', 1.25), (2, NULL, NULL, -3.5)",
			"UPDATE shared.from_icegate SET name = 'two' WHERE id = 2",
		} {
			if _, err := conn.Exec(ctx, q); err != nil {
				t.Fatalf("icegate %s: %v", q, err)
			}
		}
		compare(t, table.Identifier{"shared", "from_icegate"})
	})

	t.Run("a commit by one is seen by the other", func(t *testing.T) {
		tbl, err := cat.LoadTable(ctx, table.Identifier{"shared", "from_icegate"})
		if err != nil {
			t.Fatal(err)
		}
		sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		defer b.Release()
		b.Field(0).(*array.Int64Builder).Append(3)
		b.Field(1).(*array.StringBuilder).Append("from go")
		b.Field(2).AppendNull()
		b.Field(3).AppendNull()
		rec := b.NewRecordBatch()
		defer rec.Release()
		at := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
		defer at.Release()
		if _, err := tbl.AppendTable(ctx, at, 16, nil); err != nil {
			t.Fatalf("iceberg-go append: %v", err)
		}
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM shared.from_icegate WHERE name = 'from go'").Scan(&n); err != nil || n != 1 {
			t.Fatalf("icegate after iceberg-go's append: %d rows, %v", n, err)
		}
		// And back: icegate's next commit builds on iceberg-go's.
		if _, err := conn.Exec(ctx, "DELETE FROM shared.from_icegate WHERE id = 1"); err != nil {
			t.Fatal(err)
		}
		compare(t, table.Identifier{"shared", "from_icegate"})
		var ids []int64
		rows, err := conn.Query(ctx, "SELECT id FROM shared.from_icegate ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if !slices.Equal(ids, []int64{2, 3}) {
			t.Fatalf("ids %v; want [2 3]", ids)
		}
	})

	t.Run("listings agree", func(t *testing.T) {
		var got []string
		for ident, err := range cat.ListTables(ctx, table.Identifier{"shared"}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ident[len(ident)-1])
		}
		slices.Sort(got)
		_, rows, err := queryText(ctx, conn, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'shared' ORDER BY 1")
		if err != nil {
			t.Fatal(err)
		}
		var fromIcegate []string
		for _, r := range rows {
			fromIcegate = append(fromIcegate, r[0].text)
		}
		if !slices.Equal(got, fromIcegate) {
			t.Fatalf("iceberg-go lists %v, icegate %v", got, fromIcegate)
		}
	})
}
