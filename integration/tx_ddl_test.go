package integration

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestMigrationInTransaction runs a golang-migrate-style migration over
// pgx: CREATE TABLE + INSERT + ALTER TABLE ADD COLUMN + INSERT in one
// transaction. Another connection sees nothing until COMMIT, then all of
// it; a rolled back migration leaves nothing.
func TestMigrationInTransaction(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	conn, other := connect(t, addr), connect(t, addr)

	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE users (id bigint, email text)",
		"INSERT INTO users VALUES (1, 'a@example.com')",
		"ALTER TABLE users ADD COLUMN name text",
		"INSERT INTO users VALUES (2, 'b@example.com', 'Bea')",
	} {
		if _, err := tx.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var n int
	err = other.QueryRow(ctx, "SELECT count(*) FROM users").Scan(&n)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Fatalf("other connection before COMMIT: err %v, want 42P01", err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("COMMIT: %v", err)
	}
	var names []string
	rows, err := other.Query(ctx, "SELECT coalesce(name, '-') FROM users ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	names, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(names) != 2 || names[0] != "-" || names[1] != "Bea" {
		t.Fatalf("after COMMIT: %v %v", names, err)
	}

	tx, err = conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE rolled (a int)", "INSERT INTO rolled VALUES (1)", "ALTER TABLE users ADD COLUMN age int"} {
		if _, err := tx.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Exec(ctx, "SELECT * FROM rolled"); !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Fatalf("rolled back table: %v", err)
	}
	if _, err := other.Exec(ctx, "SELECT age FROM users"); !errors.As(err, &pe) || pe.Code != "42703" {
		t.Fatalf("rolled back column: %v", err)
	}
}

// TestMigrationAsOneQueryString: golang-migrate's postgres driver sends a
// migration file as one query string (an implicit transaction).
func TestMigrationAsOneQueryString(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	conn := connect(t, addr)
	migration := `CREATE TABLE accounts (id bigint, email text);
INSERT INTO accounts VALUES (1, 'a@example.com');
ALTER TABLE accounts ADD COLUMN active boolean;
INSERT INTO accounts VALUES (2, 'b@example.com', true);
UPDATE accounts SET active = false WHERE active IS NULL;`
	if _, err := conn.Exec(ctx, migration, pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatalf("migration: %v", err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM accounts WHERE active IS NOT NULL").Scan(&n); err != nil || n != 2 {
		t.Fatalf("after the migration: %d rows with active set, %v", n, err)
	}
}

// TestFailedQueryStringTakesBackItsDDL: a query string of several
// statements is one implicit transaction, its schema changes included. A
// migration whose second statement fails leaves no table behind (and
// golang-migrate can mark it dirty and run it again); one that succeeds
// creates a serial column's table and fills it.
func TestFailedQueryStringTakesBackItsDDL(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	conn := connect(t, addr)
	var pe *pgconn.PgError
	_, err := conn.Exec(ctx, `CREATE TABLE audit (id bigserial PRIMARY KEY, at timestamptz DEFAULT now());
CREATE VIEW audit_v AS SELECT id FROM audit;
INSERT INTO audit_missing VALUES (1)`, pgx.QueryExecModeSimpleProtocol)
	if !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Fatalf("failing migration: %v, want 42P01", err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_class WHERE relname LIKE 'audit%'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("after the failed query string: %d relations named audit*, %v", n, err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE audit (id bigserial PRIMARY KEY, note text);
INSERT INTO audit (note) VALUES ('a'), ('b');
ALTER TABLE audit ADD COLUMN done boolean`, pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatalf("migration: %v", err)
	}
	rows, err := conn.Query(ctx, "SELECT id FROM audit ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(ids) != 2 || ids[0] != 1 || ids[1] != 2 {
		t.Fatalf("ids %v, %v", ids, err)
	}
}

// TestDropSchemaInQueryString: DROP SCHEMA after schema changes in the
// same query string (psql -c "DROP TABLE s.t; DROP SCHEMA s") works, as
// in PostgreSQL: what the string staged before it commits first.
func TestDropSchemaInQueryString(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	conn := connect(t, addr)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA s9; CREATE TABLE s9.t (a int); INSERT INTO s9.t VALUES (1); DROP TABLE s9.t; DROP SCHEMA s9; CREATE TABLE after_drop (a int)`, pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatalf("query string: %v", err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = 's9'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("schema s9: %d rows, %v", n, err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM after_drop").Scan(&n); err != nil || n != 0 {
		t.Fatalf("after_drop: %d rows, %v", n, err)
	}
}

// TestRenameInQueryString: a migration that rebuilds a table in one query
// string (create, fill, drop the old one, rename) runs, as in PostgreSQL:
// RENAME commits what the string staged before it.
func TestRenameInQueryString(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	conn := connect(t, addr)
	if _, err := conn.Exec(ctx, `CREATE TABLE accounts (id int, email text); INSERT INTO accounts VALUES (1, 'a')`, pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE accounts_new (id bigint, email text, active boolean);
INSERT INTO accounts_new SELECT id, email, true FROM accounts;
DROP TABLE accounts;
ALTER TABLE accounts_new RENAME TO accounts`, pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	var active bool
	if err := conn.QueryRow(ctx, "SELECT active FROM accounts WHERE id = 1").Scan(&active); err != nil || !active {
		t.Fatalf("after the rebuild: %v %v", active, err)
	}
}

// TestPurgeInQueryString: DROP TABLE ... PURGE of a table the string did
// not create deletes files no rollback brings back, so what the string
// staged before it commits first and the purge runs.
func TestPurgeInQueryString(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	conn := connect(t, addr)
	if _, err := conn.Exec(ctx, "CREATE TABLE r2 (x int)"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE r3 (x int); DROP TABLE r2 PURGE", pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatalf("create, then drop ... purge: %v", err)
	}
	var pe *pgconn.PgError
	if _, err := conn.Exec(ctx, "SELECT * FROM r2"); !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Fatalf("purged table r2: %v, want 42P01", err)
	}
	if _, err := conn.Exec(ctx, "SELECT * FROM r3"); err != nil {
		t.Fatalf("table r3: %v", err)
	}
}

// TestDeallocateProtocolStatement: a statement prepared with the protocol
// is freed by SQL DEALLOCATE inside a transaction, as PHP PDO and Perl DBI
// do, and the transaction goes on.
func TestDeallocateProtocolStatement(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	conn := connect(t, addr)
	if _, err := conn.Prepare(ctx, "pdo_stmt_00000001", "SELECT $1::int + 1"); err != nil {
		t.Fatal(err)
	}
	var listed int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE name = 'pdo_stmt_00000001' AND NOT from_sql").Scan(&listed); err != nil || listed != 1 {
		t.Fatalf("pg_prepared_statements: %d %v", listed, err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "DEALLOCATE pdo_stmt_00000001", pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatalf("DEALLOCATE: %v", err)
	}
	var one int
	if err := tx.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		t.Fatalf("after DEALLOCATE: %v", err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestQueryStringDDLRollsBack: a query string is one implicit transaction
// in PostgreSQL even when it starts with a schema change: a later error
// undoes the CREATE TABLE and the ALTER TABLE too, not only the rows.
func TestQueryStringDDLRollsBack(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	conn := connect(t, addr)
	var pe *pgconn.PgError
	for _, sql := range []string{
		"CREATE TABLE a (x int); INSERT INTO a VALUES (1); SELECT 1/0;",
		"CREATE TABLE a (x int); SELECT 1/0;",
	} {
		if _, err := conn.Exec(ctx, sql, pgx.QueryExecModeSimpleProtocol); !errors.As(err, &pe) || pe.Code != "22012" {
			t.Fatalf("%s: %v, want 22012", sql, err)
		}
		if _, err := conn.Exec(ctx, "SELECT * FROM a"); !errors.As(err, &pe) || pe.Code != "42P01" {
			t.Fatalf("after %s: table a: %v, want 42P01", sql, err)
		}
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE b (x int); INSERT INTO b VALUES (1)", pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "ALTER TABLE b ADD COLUMN y int; COMMENT ON TABLE b IS 'c'; SELECT 1/0", pgx.QueryExecModeSimpleProtocol); !errors.As(err, &pe) || pe.Code != "22012" {
		t.Fatalf("alter: %v, want 22012", err)
	}
	if _, err := conn.Exec(ctx, "SELECT y FROM b"); !errors.As(err, &pe) || pe.Code != "42703" {
		t.Fatalf("rolled back column: %v, want 42703", err)
	}
	// A string that succeeds commits its schema changes and rows together.
	if _, err := conn.Exec(ctx, "DROP TABLE b; CREATE TABLE c (x int); INSERT INTO c VALUES (5); ALTER TABLE c ADD COLUMN y int", pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT x FROM c WHERE y IS NULL").Scan(&n); err != nil || n != 5 {
		t.Fatalf("committed string: %d, %v", n, err)
	}
	if _, err := conn.Exec(ctx, "SELECT * FROM b"); !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Fatalf("dropped table b: %v, want 42P01", err)
	}
}
