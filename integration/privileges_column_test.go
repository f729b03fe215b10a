package integration

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// privColumnMatrix covers column privileges (SELECT, INSERT, UPDATE on
// columns: select lists, WHERE, ORDER BY, joins, subqueries, WITH,
// RETURNING, COPY, count(*), grant options, group roles, table-level
// revokes) and ALTER DEFAULT PRIVILEGES (global and per schema, FOR ROLE,
// views, revokes).
var privColumnMatrix = []privStep{
	{sql: "CREATE SCHEMA {s}"},
	{sql: "CREATE TABLE {s}.t (a int, b text, c int)"},
	{sql: "INSERT INTO {s}.t VALUES (1, 'x', 10)"},
	{sql: "CREATE ROLE {alice} LOGIN PASSWORD 'pw'"},
	{sql: "CREATE ROLE {bob} LOGIN PASSWORD 'pw'"},
	{sql: "CREATE ROLE {readers}"},
	{sql: "GRANT {readers} TO {bob}"},
	{sql: "GRANT USAGE ON SCHEMA {s} TO {alice}, {readers}"},
	{sql: "GRANT SELECT (a, b), UPDATE (c), INSERT (a) ON {s}.t TO {alice}"},
	{sql: "GRANT SELECT (z) ON {s}.t TO {alice}", want: "42703"},
	{sql: "GRANT DELETE (a) ON {s}.t TO {alice}", want: "0LP01"},

	// SELECT needs every column read, or any one for count(*).
	{as: "alice", sql: "SELECT a, b FROM {s}.t"},
	{as: "alice", sql: "SELECT count(*) FROM {s}.t"},
	{as: "alice", sql: "SELECT * FROM {s}.t", want: "42501"},
	{as: "alice", sql: "SELECT a FROM {s}.t WHERE c = 10", want: "42501"},
	{as: "alice", sql: "SELECT a FROM {s}.t ORDER BY c", want: "42501"},
	{as: "alice", sql: "SELECT a FROM {s}.t WHERE b = 'x' ORDER BY a"},
	{as: "alice", sql: "SELECT x.a FROM {s}.t x JOIN {s}.t y ON x.a = y.a"},
	{as: "alice", sql: "SELECT x.a FROM {s}.t x JOIN {s}.t y ON x.c = y.a", want: "42501"},
	{as: "alice", sql: "SELECT (SELECT max(c) FROM {s}.t)", want: "42501"},
	{as: "alice", sql: "SELECT a FROM {s}.t WHERE a IN (SELECT a FROM {s}.t)"},
	{as: "alice", sql: "SELECT b, count(*) FROM {s}.t GROUP BY b"},
	{as: "alice", sql: "SELECT b, sum(c) FROM {s}.t GROUP BY b", want: "42501"},
	{as: "alice", sql: "WITH w AS MATERIALIZED (SELECT b FROM {s}.t) SELECT * FROM w, w AS w2"},
	{as: "alice", sql: "WITH w AS (SELECT c FROM {s}.t) SELECT 1 FROM w", want: "42501"},
	{as: "alice", sql: copyTo + "COPY {s}.t (a, b) TO STDOUT"},
	{as: "alice", sql: copyTo + "COPY {s}.t TO STDOUT", want: "42501"},
	{as: "alice", sql: "SELECT * FROM {s}.t$snapshots", pg: "SELECT * FROM {s}.t", want: "42501"},
	{as: "alice", sql: "SELECT a FROM {s}.t FOR TIMESTAMP AS OF now()", pg: "SELECT * FROM {s}.t", want: "42501"},

	// UPDATE needs UPDATE on the columns set, SELECT on those read.
	{as: "alice", sql: "UPDATE {s}.t SET c = 11"},
	{as: "alice", sql: "UPDATE {s}.t SET c = 12 WHERE a = 1"},
	{as: "alice", sql: "UPDATE {s}.t SET c = a WHERE b = 'x' RETURNING a"},
	{as: "alice", sql: "UPDATE {s}.t SET c = a WHERE b = 'x' RETURNING a, c", want: "42501"},
	{as: "alice", sql: "UPDATE {s}.t SET b = 'y'", want: "42501"},
	{as: "alice", sql: "UPDATE {s}.t SET c = c + 1", want: "42501"},
	{as: "alice", sql: "UPDATE {s}.t SET c = 1 WHERE c = 1", want: "42501"},
	{as: "alice", sql: "DELETE FROM {s}.t WHERE a = 2", want: "42501"},

	// INSERT needs INSERT on the columns given.
	{as: "alice", sql: "INSERT INTO {s}.t (a) VALUES (2)"},
	{as: "alice", sql: "INSERT INTO {s}.t VALUES (3)"},
	{as: "alice", sql: "INSERT INTO {s}.t VALUES (3, 'z')", want: "42501"},
	{as: "alice", sql: "INSERT INTO {s}.t (b) VALUES ('z')", want: "42501"},
	{as: "alice", sql: "INSERT INTO {s}.t (a) SELECT a FROM {s}.t"},
	{as: "alice", sql: copyFrom + "COPY {s}.t (a, b) FROM STDIN", want: "42501"},
	{sql: "GRANT INSERT (b) ON {s}.t TO {alice}"},
	{as: "alice", sql: copyFrom + "COPY {s}.t (a, b) FROM STDIN"},
	{as: "alice", sql: copyFrom + "COPY {s}.t FROM STDIN", want: "42501"},

	// Through a group role; a table-level REVOKE takes the columns' too.
	{sql: "GRANT SELECT (c) ON {s}.t TO {readers}"},
	{as: "bob", sql: "SELECT c FROM {s}.t"},
	{as: "bob", sql: "SELECT a FROM {s}.t", want: "42501"},
	{sql: "REVOKE SELECT ON {s}.t FROM {readers}"},
	{as: "bob", sql: "SELECT c FROM {s}.t", want: "42501"},
	{sql: "REVOKE SELECT (b) ON {s}.t FROM {alice}"},
	{as: "alice", sql: "SELECT a, b FROM {s}.t", want: "42501"},
	{as: "alice", sql: "SELECT a FROM {s}.t"},

	// Grant options of columns.
	{sql: "GRANT SELECT (a) ON {s}.t TO {alice} WITH GRANT OPTION"},
	{as: "alice", sql: "GRANT SELECT (a) ON {s}.t TO {bob}"},
	{as: "bob", sql: "SELECT a FROM {s}.t"},
	{as: "alice", sql: "GRANT SELECT ON {s}.t TO {bob}", want: "42501"},

	// A renamed column keeps its privileges; a dropped one takes them along.
	{sql: "ALTER TABLE {s}.t RENAME COLUMN a TO a2"},
	{as: "alice", sql: "SELECT a2 FROM {s}.t"},
	{as: "bob", sql: "SELECT a2 FROM {s}.t"},
	{sql: "ALTER TABLE {s}.t RENAME COLUMN a2 TO a"},
	{as: "alice", sql: "UPDATE {s}.t SET c = 5"},
	{sql: "ALTER TABLE {s}.t DROP COLUMN c"},
	{sql: "ALTER TABLE {s}.t ADD COLUMN c int"},
	{as: "alice", sql: "UPDATE {s}.t SET c = 5", want: "42501"},

	// Default privileges: per schema, then for every schema.
	{sql: "ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT SELECT ON TABLES TO {alice}"},
	{sql: "CREATE TABLE {s}.d1 (x int)"},
	{as: "alice", sql: "SELECT * FROM {s}.d1"},
	{as: "alice", sql: "INSERT INTO {s}.d1 VALUES (1)", want: "42501"},
	{sql: "ALTER DEFAULT PRIVILEGES GRANT INSERT ON TABLES TO {alice}"},
	{sql: "CREATE TABLE {s}.d2 (x int)"},
	{as: "alice", sql: "INSERT INTO {s}.d2 VALUES (1)"},
	{as: "alice", sql: "SELECT * FROM {s}.d2"},
	{sql: "CREATE VIEW {s}.dv AS SELECT 1 AS one"},
	{as: "alice", sql: "SELECT * FROM {s}.dv"},
	{sql: "ALTER DEFAULT PRIVILEGES IN SCHEMA {s} REVOKE SELECT ON TABLES FROM {alice}"},
	{sql: "ALTER DEFAULT PRIVILEGES REVOKE INSERT ON TABLES FROM {alice}"},
	{sql: "CREATE TABLE {s}.d3 (x int)"},
	{as: "alice", sql: "SELECT * FROM {s}.d3", want: "42501"},
	{as: "alice", sql: "SELECT * FROM {s}.d1"},
	{sql: "ALTER DEFAULT PRIVILEGES IN SCHEMA {s}_nosuch GRANT SELECT ON TABLES TO {bob}", want: "3F000"},
	{sql: "ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO {s}_nosuch", want: "42704"},

	// A role's own defaults, and FOR ROLE.
	{sql: "GRANT CREATE ON SCHEMA {s} TO {alice}"},
	{as: "alice", sql: "ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT SELECT ON TABLES TO {bob}"},
	{as: "alice", sql: "CREATE TABLE {s}.a1 (x int)"},
	{as: "bob", sql: "SELECT * FROM {s}.a1"},
	{as: "bob", sql: "ALTER DEFAULT PRIVILEGES FOR ROLE {alice} GRANT SELECT ON TABLES TO {bob}", want: "42501"},
	{sql: "ALTER DEFAULT PRIVILEGES FOR ROLE {alice} IN SCHEMA {s} REVOKE SELECT ON TABLES FROM {bob}"},
	{as: "alice", sql: "CREATE TABLE {s}.a2 (x int)"},
	{as: "bob", sql: "SELECT * FROM {s}.a2", want: "42501"},
	{as: "alice", sql: "DROP TABLE {s}.a1"},
	{as: "alice", sql: "DROP TABLE {s}.a2"},
}

// TestColumnPrivilegeMatrix runs privColumnMatrix as TestPrivilegeMatrix
// runs its matrix: against icegate and, with ICEGATE_TEST_PG, PostgreSQL.
func TestColumnPrivilegeMatrix(t *testing.T) {
	checkMatrix(t, privColumnMatrix)
}

// TestColumnPrivilegePrepared: a prepared statement checks column
// privileges at every execution, with parameters, so a REVOKE between two
// executions is seen.
func TestColumnPrivilegePrepared(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{password: "su", roles: true})
	names := map[string]string{"{alice}": "alice"}
	r := &igRunner{t: t, addr: addr, names: names, conns: map[string]*pgx.Conn{}}
	for _, q := range []string{"CREATE SCHEMA cp", "CREATE TABLE cp.t (a int, b int)", "INSERT INTO cp.t VALUES (1, 2)",
		"CREATE ROLE alice LOGIN PASSWORD 'pw'", "GRANT USAGE ON SCHEMA cp TO alice", "GRANT SELECT (a) ON cp.t TO alice"} {
		if err := r.run("", q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := r.run("alice", "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	alice := r.conns["alice"]
	for i, c := range []struct {
		revoke bool
		sql    string
		want   string
	}{
		{sql: "SELECT a FROM cp.t WHERE a = $1"},
		{sql: "SELECT a FROM cp.t WHERE a = $1"},
		{sql: "SELECT a FROM cp.t WHERE b = $1", want: "42501"},
		{revoke: true, sql: "SELECT a FROM cp.t WHERE a = $1", want: "42501"},
	} {
		if c.revoke {
			if err := r.run("", "REVOKE SELECT (a) ON cp.t FROM alice"); err != nil {
				t.Fatal(err)
			}
		}
		var got int
		err := alice.QueryRow(testCtx(t), c.sql, 1).Scan(&got)
		if code := sqlState(err); code != c.want {
			t.Errorf("step %d: %s: SQLSTATE %q, want %q (%v)", i, c.sql, code, c.want, err)
		}
	}
}
