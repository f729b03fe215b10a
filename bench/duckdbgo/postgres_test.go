package duckdbgo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/bench/tpch"
)

// testPostgres returns a connection string for a fresh schema of the
// PostgreSQL server at ICEGATE_TEST_PG (first on search_path, dropped when
// the test ends), and an admin connection.
func testPostgres(t *testing.T) (string, *pgx.Conn) {
	t.Helper()
	base := os.Getenv("ICEGATE_TEST_PG")
	if base == "" {
		t.Skip("ICEGATE_TEST_PG is unset: no PostgreSQL server to load TPC-H into")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(ctx) })
	schema := fmt.Sprintf("duckdbgo_test_%d", os.Getpid())
	if _, err := admin.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE; CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Error(err)
		}
	})
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("ICEGATE_TEST_PG=%q: want a postgres:// URL", base)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), admin
}

func TestPostgresLoad(t *testing.T) {
	dsn, admin := testPostgres(t)
	ctx := context.Background()
	const sf = 0.01 // at 0.001 (10 suppliers) the specification's partsupp rule repeats pairs
	want := map[string]int64{}
	for _, tbl := range tpch.Tables {
		n, _, err := tpch.WriteTable(io.Discard, tbl, sf, tpch.Text)
		if err != nil {
			t.Fatal(err)
		}
		want[tbl.Name] = n
	}
	pg, err := OpenPostgres(ctx, dsn, 2, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)

	loaded, err := pg.Load(ctx, sf, want, t.Logf)
	if err != nil || !loaded {
		t.Fatalf("first Load = %v, %v; want true, nil", loaded, err)
	}
	have, err := pg.Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !sameCounts(have, want) {
		t.Fatalf("counts after Load %v, want %v", have, want)
	}
	var schema string
	if err := pg.conn.QueryRow(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	keys := []struct {
		name, query string
		want        int
	}{
		{"primary keys", "SELECT count(*) FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 AND contype = 'p'", len(pgPrimaryKeys)},
		{"foreign keys", "SELECT count(*) FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 AND contype = 'f'", len(pgForeignKeys)},
		{"indexes", "SELECT count(*) FROM pg_indexes WHERE schemaname = $1", len(pgPrimaryKeys) + len(pgIndexes)},
		{"analyzed tables", "SELECT count(*) FROM pg_stat_user_tables WHERE schemaname = $1 AND last_analyze IS NOT NULL", len(tpch.Tables)},
	}
	for _, k := range keys {
		var n int
		if err := admin.QueryRow(ctx, k.query, schema).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != k.want {
			t.Errorf("%s: %d, want %d", k.name, n, k.want)
		}
	}

	if loaded, err := pg.Load(ctx, sf, want, t.Logf); err != nil || loaded {
		t.Fatalf("second Load = %v, %v; want false, nil (the tables hold the rows)", loaded, err)
	}
	want["lineitem"]++
	if _, err := pg.Load(ctx, sf, want, t.Logf); err == nil {
		t.Fatal("Load with a lineitem count the generator does not give succeeded, want a COPY count error")
	}
}

func TestPostgresTimeout(t *testing.T) {
	dsn, _ := testPostgres(t)
	ctx := context.Background()
	pg, err := OpenPostgres(ctx, dsn, 2, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	if _, err := pg.Drain(ctx, "SELECT pg_sleep(2)"); !errors.Is(err, ErrTimeout) {
		t.Fatalf("pg_sleep(2) past a 50ms timeout: %v, want ErrTimeout", err)
	}
	if n, err := pg.Drain(ctx, "SELECT 1"); err != nil || n != 1 {
		t.Fatalf("after the timeout: %d rows, %v; want 1 row on the same connection", n, err)
	}
	if _, err := pg.Drain(ctx, "SELECT 1/0"); err == nil || errors.Is(err, ErrTimeout) {
		t.Fatalf("division by zero: %v, want an error that is not a timeout", err)
	}
}
