package integration

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/fixtures"
)

// pgdumpSetup makes the tables TestPgDump dumps: one with a column of most
// types icegate stores and rows with NULLs, quotes, tabs, backslashes and
// non-ASCII text, one with defaults.
var pgdumpSetup = []string{
	`CREATE SCHEMA shop`,
	`CREATE TABLE shop.items (id bigint NOT NULL, name text, price numeric(10,2), ok boolean, d date,
		ts timestamp, tstz timestamptz, f float8, r real, i int, u uuid, b bytea, arr int[], tm time, v varchar(20))`,
	`INSERT INTO shop.items VALUES
		(1, 'it''s', 1.50, true, '2024-01-02', '2024-01-02 03:04:05.25', '2024-01-02 03:04:05+00', 1.5, 2.5, 3,
		 '550e8400-e29b-41d4-a716-446655440000', '\xdead', '{1,2,NULL}', '12:00:00', 'x'),
		(2, E'tab\there\\back ünï', -0.01, false, '1999-12-31', NULL, NULL, '-1e300', NULL, -7, NULL, '\x', '{}', NULL, NULL),
		(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
	`CREATE TABLE shop.defaults (k int NOT NULL, note text DEFAULT 'none', amount numeric(8,3) DEFAULT 1.5, at date DEFAULT '2020-02-29')`,
	`INSERT INTO shop.defaults (k) VALUES (1)`,
	`CREATE TABLE shop.keyed (id int NOT NULL PRIMARY KEY, v text)`,
	`COMMENT ON TABLE shop.keyed IS 'rows by id'`,
	`COMMENT ON COLUMN shop.keyed.v IS 'it''s the value'`,
	`CREATE VIEW shop.cheap AS SELECT id, name FROM shop.items WHERE price < 1`,
}

// pgdumpItems is what pg_dump writes for shop.items.
const pgdumpItems = `CREATE TABLE shop.items (
    id bigint NOT NULL,
    name text,
    price numeric(10,2),
    ok boolean,
    d date,
    ts timestamp without time zone,
    tstz timestamp with time zone,
    f double precision,
    r real,
    i integer,
    u uuid,
    b bytea,
    arr integer[],
    tm time without time zone,
    v character varying(20)
);`

// pgdumpItemsData is the COPY block of shop.items in a dump, rows in
// insertion order.
const pgdumpItemsData = "COPY shop.items (id, name, price, ok, d, ts, tstz, f, r, i, u, b, arr, tm, v) FROM stdin;\n" +
	"1\tit's\t1.50\tt\t2024-01-02\t2024-01-02 03:04:05.25\t2024-01-02 03:04:05+00\t1.5\t2.5\t3\t550e8400-e29b-41d4-a716-446655440000\t\\\\xdead\t{1,2,NULL}\t12:00:00\tx\n" +
	"2\ttab\\there\\\\back ünï\t-0.01\tf\t1999-12-31\t\\N\t\\N\t-1e+300\t\\N\t-7\t\\N\t\\\\x\t{}\t\\N\t\\N\n" +
	"3\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n" +
	"\\.\n"

// TestPgDump runs Debian 12's pg_dump (PostgreSQL 15) against icegate: the
// schema of a warehouse, one table with its rows, and a fixture table with
// every type. With ICEGATE_TEST_PG set, the dump is also restored into
// the reference PostgreSQL, which must accept every statement and then
// return the same rows.
func TestPgDump(t *testing.T) {
	pgDump, err := exec.LookPath("pg_dump")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pg_dump is not on PATH, and CI is set: CI must install postgresql-client (see .ci/run)")
		}
		t.Skip("pg_dump is not on PATH: install postgresql-client to run this test (it fails instead when CI is set)")
	}
	addr := startServer(t, t.TempDir(), serverOpts{})
	conn := connect(t, addr)
	for _, sql := range pgdumpSetup {
		if _, err := conn.Exec(testCtx(t), sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}

	t.Run("schema only", func(t *testing.T) {
		out := runPgDump(t, pgDump, addr, "--schema-only")
		for _, want := range []string{
			"-- Dumped from database version 15.",
			"CREATE SCHEMA shop;",
			pgdumpItems,
			"    note text DEFAULT 'none'::text,\n    amount numeric(8,3) DEFAULT 1.500,\n    at date DEFAULT '2020-02-29'::date\n",
			"ALTER TABLE ONLY shop.keyed\n    ADD CONSTRAINT keyed_pkey PRIMARY KEY (id);",
			"COMMENT ON TABLE shop.keyed IS 'rows by id';",
			"COMMENT ON COLUMN shop.keyed.v IS 'it''s the value';",
			"CREATE VIEW shop.cheap AS\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("the dump lacks\n%s\n--- dump:\n%s", want, out)
			}
		}
		// The public schema is PostgreSQL 15's: the dump leaves it alone.
		for _, unwanted := range []string{"SCHEMA public", "REVOKE", "GRANT", "COPY "} {
			if strings.Contains(out, unwanted) {
				t.Errorf("the dump has %q:\n%s", unwanted, out)
			}
		}
	})

	t.Run("one table with data", func(t *testing.T) {
		out := runPgDump(t, pgDump, addr, "-t", "shop.items")
		if !strings.Contains(out, pgdumpItems) || !strings.Contains(out, pgdumpItemsData) {
			t.Errorf("the dump of shop.items lacks its table or its rows\nwant:\n%s\n%s\n--- dump:\n%s", pgdumpItems, pgdumpItemsData, out)
		}
		if strings.Contains(out, "shop.defaults") {
			t.Errorf("-t shop.items dumped shop.defaults too:\n%s", out)
		}
	})

	t.Run("a fixture table of every type", func(t *testing.T) {
		fixAddr := startServer(t, fixtures.Warehouse(t), serverOpts{})
		out := runPgDump(t, pgDump, fixAddr, "-t", "iceberg.lithium__all_trino_types")
		want := "1\tt\t42\t9223372036854775807\t3.14\t2.718281828459045\t123456.78901\t2025-04-05\t12:34:56.123456\t" +
			"2025-04-05 12:34:56.123456\t2025-04-05 12:34:56.123456+00\tHello Iceberg\t550e8400-e29b-41d4-a716-446655440000\t" +
			"\\\\xdeadbeef\t{1.1,2.2,3.3}\n\\.\n"
		if !strings.Contains(out, "CREATE TABLE iceberg.lithium__all_trino_types (") || !strings.Contains(out, want) {
			t.Errorf("the dump lacks the table or its row\nwant:\n%s\n--- dump:\n%s", want, out)
		}
	})

	t.Run("custom format", func(t *testing.T) {
		if out := runPgDump(t, pgDump, addr, "-Fc"); !strings.HasPrefix(out, "PGDMP") {
			t.Errorf("pg_dump -Fc wrote no custom-format archive: %.40q", out)
		}
	})

	t.Run("what it cannot dump says so", func(t *testing.T) {
		// Parallel jobs need a snapshot shared between sessions.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		host, port, _ := net.SplitHostPort(addr)
		cmd := exec.CommandContext(ctx, pgDump, "-h", host, "-p", port, "-U", "icegate", "-Fd", "-j", "2", "-f", t.TempDir()+"/dump", "icegate")
		cmd.Env = append(cleanEnv(), "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable")
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "pg_export_snapshot is not supported") {
			t.Errorf("pg_dump -j 2: %v\n%s", err, out)
		}

		// A table name that does not exist: pg_dump's own message, and
		// icegate is still there afterwards.
		cmd = exec.CommandContext(ctx, pgDump, "-h", host, "-p", port, "-U", "icegate", "-t", "shop.nope", "--strict-names", "icegate")
		cmd.Env = append(cleanEnv(), "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable")
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "no matching tables were found") {
			t.Errorf("pg_dump -t shop.nope: %v\n%s", err, out)
		}
		var one int
		if err := conn.QueryRow(testCtx(t), "SELECT 1").Scan(&one); err != nil {
			t.Fatalf("icegate after the failed dump: %v", err)
		}
	})

	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Log("ICEGATE_TEST_PG is unset: the dump is not restored into PostgreSQL")
		return
	}
	t.Run("restores into PostgreSQL", func(t *testing.T) {
		psql, err := exec.LookPath("psql")
		if err != nil {
			t.Fatal("psql is not on PATH")
		}
		dump := runPgDump(t, pgDump, addr, "--no-owner")
		pg := connectPostgres(t, pgURL)
		db := fmt.Sprintf("icegate_pgdump_%d", time.Now().UnixNano())
		if _, err := pg.Exec(testCtx(t), "CREATE DATABASE "+db); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = pg.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db) })
		dbURL := replaceDatabase(t, pgURL, db)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dbURL)
		cmd.Env = cleanEnv()
		cmd.Stdin = strings.NewReader(dump)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("restoring the dump into PostgreSQL: %v\n%s", err, out)
		}
		query := "SELECT * FROM shop.items ORDER BY id; SELECT * FROM shop.defaults; SELECT * FROM shop.cheap ORDER BY id"
		host, port, _ := net.SplitHostPort(addr)
		got := psqlOutput(t, psql, "-h", host, "-p", port, "-U", "icegate", "-d", "icegate", "-c", query)
		want := psqlOutput(t, psql, "-d", dbURL, "-c", query)
		if got != want {
			t.Errorf("rows in icegate:\n%s\nrows restored into PostgreSQL:\n%s", got, want)
		}
	})
}

// pgSourceSetup is a PostgreSQL 15 database TestPgDumpIntoIcegate dumps
// with pg_dump and loads into icegate: the objects and statements a plain
// dump holds (schemas and owners, tables of the common types with their
// rows, defaults, comments, a view, primary keys, unique and foreign
// keys, an index).
var pgSourceSetup = []string{
	`CREATE SCHEMA shop`,
	`CREATE TABLE shop.items (id bigint NOT NULL, name text, price numeric(10,2), ok boolean, d date,
		ts timestamp, tstz timestamptz, f float8, r real, i int, u uuid, b bytea, arr int[], tm time, v varchar(20))`,
	`INSERT INTO shop.items VALUES
		(1, 'it''s', 1.50, true, '2024-01-02', '2024-01-02 03:04:05.25', '2024-01-02 03:04:05+00', 1.5, 2.5, 3,
		 '550e8400-e29b-41d4-a716-446655440000', '\xdead', '{1,2,NULL}', '12:00:00', 'x'),
		(2, E'tab\there\\back ünï', -0.01, false, '1999-12-31', NULL, NULL, '-1e300', NULL, -7, NULL, '\x', '{}', NULL, NULL)`,
	`CREATE TABLE shop.keyed (id int PRIMARY KEY, v text NOT NULL DEFAULT 'x')`,
	`INSERT INTO shop.keyed VALUES (1, 'one'), (2, 'two')`,
	`COMMENT ON TABLE shop.keyed IS 'rows by id'`,
	`COMMENT ON COLUMN shop.keyed.v IS 'it''s the value'`,
	`CREATE TABLE shop.child (id int PRIMARY KEY, keyed_id int REFERENCES shop.keyed (id), UNIQUE (keyed_id))`,
	`INSERT INTO shop.child VALUES (10, 1), (20, NULL)`,
	`CREATE TABLE public.plain (a int, b text)`,
	`INSERT INTO public.plain VALUES (1, 'x'), (NULL, NULL)`,
	`CREATE VIEW shop.cheap AS SELECT id, name FROM shop.items WHERE price < 1`,
	`CREATE INDEX items_name ON shop.items (name)`,
}

// TestPgDumpIntoIcegate dumps a PostgreSQL 15 database with pg_dump's
// plain format and loads it into icegate through psql with ON_ERROR_STOP:
// every statement must pass, and icegate must then return the rows
// PostgreSQL does, with the primary keys.
func TestPgDumpIntoIcegate(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to dump a database from; .ci/run does")
	}
	pgDump, err := exec.LookPath("pg_dump")
	if err != nil {
		t.Fatal("pg_dump is not on PATH")
	}
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Fatal("psql is not on PATH")
	}
	pg := connectPostgres(t, pgURL)
	db := fmt.Sprintf("icegate_pgload_%d", time.Now().UnixNano())
	if _, err := pg.Exec(testCtx(t), "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = pg.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db) })
	dbURL := replaceDatabase(t, pgURL, db)
	src := connectPostgres(t, dbURL)
	for _, sql := range pgSourceSetup {
		if _, err := src.Exec(testCtx(t), sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pgDump, "-d", dbURL)
	cmd.Env = cleanEnv()
	dump, err := cmd.Output()
	if err != nil {
		t.Fatalf("pg_dump of PostgreSQL: %v", err)
	}

	addr := startServer(t, t.TempDir(), serverOpts{})
	host, port, _ := net.SplitHostPort(addr)
	load := exec.CommandContext(ctx, psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", "icegate", "-d", "icegate")
	load.Env = append(cleanEnv(), "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable")
	load.Stdin = bytes.NewReader(dump)
	out, err := load.CombinedOutput()
	if err != nil {
		t.Fatalf("loading the dump into icegate: %v\n%s\n--- dump:\n%s", err, out, dump)
	}
	// What icegate does not keep, it says (the index over a plain column
	// it keeps: the query below compares it).
	for _, want := range []string{`UNIQUE constraint "child_keyed_id_key" is not kept`, `FOREIGN KEY constraint "child_keyed_id_fkey" is not kept`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("loading the dump did not warn %q:\n%s", want, out)
		}
	}
	query := `SELECT * FROM shop.items ORDER BY id; SELECT * FROM shop.keyed ORDER BY id; SELECT * FROM shop.child ORDER BY id;
		SELECT * FROM public.plain ORDER BY a; SELECT * FROM shop.cheap ORDER BY id;
		SELECT obj_description('shop.keyed'::regclass, 'pg_class'), col_description('shop.keyed'::regclass, 2);
		SELECT tc.table_name, kcu.column_name FROM information_schema.table_constraints tc
		  JOIN information_schema.key_column_usage kcu USING (constraint_schema, constraint_name)
		  WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = 'shop' ORDER BY 1, 2;
		SELECT indexname, indexdef FROM pg_indexes WHERE indexname = 'items_name'`
	got := psqlOutput(t, psql, "-h", host, "-p", port, "-U", "icegate", "-d", "icegate", "-c", query)
	want := psqlOutput(t, psql, "-d", dbURL, "-c", query)
	if got != want {
		t.Errorf("rows in icegate:\n%s\nrows in PostgreSQL:\n%s", got, want)
	}
}

// runPgDump runs pg_dump with args against the server at addr and returns
// the dump; it fails the test on a non-zero exit.
func runPgDump(t *testing.T, pgDump, addr string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	host, port, _ := net.SplitHostPort(addr)
	args = append(append([]string{"-h", host, "-p", port, "-U", "icegate"}, args...), "icegate")
	cmd := exec.CommandContext(ctx, pgDump, args...)
	cmd.Env = append(cleanEnv(), "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pg_dump %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// psqlOutput runs psql -A with args (PGTZ=UTC) and returns what it prints.
func psqlOutput(t *testing.T, psql string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, psql, append([]string{"-X", "-A", "-v", "ON_ERROR_STOP=1"}, args...)...)
	cmd.Env = append(cleanEnv(), "PGTZ=UTC", "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// replaceDatabase returns the connection string pgURL naming database db
// instead (a URL, or key=value pairs).
func replaceDatabase(t *testing.T, pgURL, db string) string {
	t.Helper()
	if u, err := url.Parse(pgURL); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path = "/" + db
		return u.String()
	}
	return pgURL + " dbname=" + db
}
