package integration

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// sessStep is one statement of the session-identity script, run on one
// connection of the superuser.
type sessStep struct {
	sql string // {s} {alice} {bob} {readers} {su} are replaced
	// want is the SQLSTATE expected ("" success) of both servers.
	want string
	// value, when set, is the text of the first column of the first row.
	value string
	// ig, when set, is icegate's SQLSTATE where it departs from
	// PostgreSQL on purpose (PostgreSQL's is then want).
	ig string
	// igOnly marks an Iceberg-only statement PostgreSQL does not run.
	igOnly bool
}

// roleSessionScript covers SET ROLE, SET LOCAL ROLE, RESET ROLE, SET
// SESSION AUTHORIZATION, the identity functions and SHOW role, privileges
// and ownership as the current role, pg_authid / pg_shadow / pg_user,
// unqualified names in a schema without USAGE, role statements in a block,
// REASSIGN OWNED, DROP OWNED and DROP ROLE's dependencies.
var roleSessionScript = []sessStep{
	{sql: "CREATE SCHEMA {s}"},
	{sql: "CREATE TABLE {s}.t (a int)"},
	{sql: "INSERT INTO {s}.t VALUES (1)"},
	{sql: "CREATE ROLE {alice} LOGIN PASSWORD 'pw'"},
	{sql: "CREATE ROLE {bob} LOGIN PASSWORD 'pw'"},
	{sql: "CREATE ROLE {readers}"},
	{sql: "GRANT {readers} TO {alice}"},
	{sql: "GRANT USAGE ON SCHEMA {s} TO {readers}"},
	{sql: "GRANT SELECT ON {s}.t TO {readers}"},
	{sql: "SELECT current_user || ',' || session_user || ',' || current_role", value: "{su},{su},{su}"},
	{sql: "SHOW role", value: "none"},
	{sql: "SELECT count(*)::text FROM {s}.t", value: "1"},

	// A superuser session may take any role; privileges are then the role's.
	{sql: "SET ROLE {alice}"},
	{sql: "SELECT current_user || ',' || session_user || ',' || current_role", value: "{alice},{su},{alice}"},
	{sql: "SHOW role", value: "{alice}"},
	{sql: "SHOW is_superuser", value: "off"},
	{sql: "SELECT count(*)::text FROM {s}.t", value: "1"},
	{sql: "INSERT INTO {s}.t VALUES (2)", want: "42501"},
	{sql: "SELECT count(*) FROM pg_authid", want: "42501"},
	{sql: "SELECT count(*) FROM pg_shadow", want: "42501"},
	{sql: "SELECT usename::text FROM pg_user WHERE usename = '{alice}'", value: "{alice}"},
	{sql: "SET ROLE {bob}"},
	{sql: "SELECT count(*)::text FROM {s}.t", want: "42501"},
	{sql: "RESET ROLE"},
	{sql: "SHOW role", value: "none"},
	{sql: "SHOW is_superuser", value: "on"},
	{sql: "SET ROLE {s}_nosuch", want: "22023"},

	// Another session user: SET ROLE needs membership.
	{sql: "SET SESSION AUTHORIZATION {alice}"},
	{sql: "SELECT current_user || ',' || session_user", value: "{alice},{alice}"},
	{sql: "SET ROLE {bob}", want: "42501"},
	{sql: "SET ROLE {readers}"},
	{sql: "SELECT current_user || ',' || session_user", value: "{readers},{alice}"},
	{sql: "SELECT count(*)::text FROM {s}.t", value: "1"},
	{sql: "SET ROLE NONE"},
	{sql: "SELECT current_user", value: "{alice}"},
	{sql: "SET ROLE {readers}"},
	{sql: "SET SESSION AUTHORIZATION {alice}"}, // drops the role set
	{sql: "SHOW role", value: "none"},
	{sql: "RESET SESSION AUTHORIZATION"},
	{sql: "SELECT current_user || ',' || session_user", value: "{su},{su}"},

	// RESET ALL keeps the identity; DISCARD ALL does not.
	{sql: "SET ROLE {alice}"},
	{sql: "RESET ALL"},
	{sql: "SELECT current_user", value: "{alice}"},
	{sql: "DISCARD ALL"},
	{sql: "SELECT current_user", value: "{su}"},

	// What the current role creates, it owns.
	{sql: "GRANT CREATE ON SCHEMA {s} TO {readers}"},
	{sql: "SET ROLE {readers}"},
	{sql: "CREATE TABLE {s}.r (x int)"},
	{sql: "RESET ROLE"},
	{sql: "SELECT tableowner::text FROM pg_tables WHERE schemaname = '{s}' AND tablename = 'r'", value: "{readers}"},
	{sql: "SET ROLE {bob}"},
	{sql: "SELECT count(*) FROM {s}.r", want: "42501"},
	{sql: "RESET ROLE"},

	// SET LOCAL ROLE lasts until the block ends; ROLLBACK undoes SET ROLE.
	{sql: "BEGIN"},
	{sql: "SET LOCAL ROLE {alice}"},
	{sql: "SELECT current_user", value: "{alice}"},
	{sql: "COMMIT"},
	{sql: "SELECT current_user", value: "{su}"},
	{sql: "BEGIN"},
	{sql: "SET ROLE {alice}"},
	{sql: "ROLLBACK"},
	{sql: "SELECT current_user", value: "{su}"},
	{sql: "SHOW is_superuser", value: "on"},

	// Superusers read the verifiers.
	{sql: "SELECT left(rolpassword, 14) FROM pg_authid WHERE rolname = '{alice}'", value: "SCRAM-SHA-256$"},
	{sql: "SELECT left(passwd, 14) FROM pg_shadow WHERE usename = '{bob}'", value: "SCRAM-SHA-256$"},
	{sql: "SELECT count(*)::text FROM pg_authid WHERE rolname = '{readers}' AND rolpassword IS NULL AND NOT rolcanlogin", value: "1"},

	// A schema without USAGE: qualified names are denied, unqualified ones
	// are not found there.
	{sql: "SET ROLE {bob}"},
	{sql: "SET search_path = {s}"},
	{sql: "SELECT * FROM t", want: "42P01"},
	{sql: "SELECT * FROM {s}.t", want: "42501"},
	{sql: "SET ROLE {alice}"},
	{sql: "SELECT count(*)::text FROM t", value: "1"},
	{sql: "RESET search_path"},
	{sql: "RESET ROLE"},

	// Role statements in a block take effect at COMMIT: the block sees
	// its own changes, other sessions see them after COMMIT, ROLLBACK and
	// ROLLBACK TO SAVEPOINT undo them.
	{sql: "BEGIN"},
	{sql: "CREATE ROLE {s}_tx"},
	{sql: "SELECT count(*)::text FROM pg_roles WHERE rolname = '{s}_tx'", value: "1"},
	{sql: "GRANT SELECT ON {s}.t TO {s}_tx"},
	{sql: "SELECT has_table_privilege('{s}_tx', '{s}.t', 'SELECT')::text", value: "true"},
	{sql: "ROLLBACK"},
	{sql: "SELECT count(*)::text FROM pg_roles WHERE rolname = '{s}_tx'", value: "0"},
	{sql: "BEGIN"},
	{sql: "GRANT SELECT ON {s}.t TO {bob}"},
	{sql: "ROLLBACK"},
	{sql: "SET ROLE {bob}"},
	{sql: "SELECT count(*) FROM {s}.t", want: "42501"},
	{sql: "RESET ROLE"},
	{sql: "BEGIN"},
	{sql: "CREATE ROLE {s}_tx2"},
	{sql: "SAVEPOINT a"},
	{sql: "GRANT SELECT ON {s}.t TO {bob}"},
	{sql: "ROLLBACK TO SAVEPOINT a"},
	{sql: "GRANT USAGE ON SCHEMA {s} TO {s}_tx2"},
	{sql: "COMMIT"},
	{sql: "SELECT count(*)::text FROM pg_roles WHERE rolname = '{s}_tx2'", value: "1"},
	{sql: "SELECT has_schema_privilege('{s}_tx2', '{s}', 'USAGE')::text", value: "true"},
	{sql: "SELECT has_table_privilege('{bob}', '{s}.t', 'SELECT')::text", value: "false"},
	{sql: "BEGIN"},
	{sql: "CREATE ROLE {s}_tx3"},
	{sql: "SELECT 1/0", want: "22012"},
	{sql: "COMMIT"},
	{sql: "SELECT count(*)::text FROM pg_roles WHERE rolname = '{s}_tx3'", value: "0"},
	{sql: "REVOKE USAGE ON SCHEMA {s} FROM {s}_tx2"},
	{sql: "DROP ROLE {s}_tx2"},

	// GRANT of privileges held without the grant option grants nothing
	// with a warning; of some of them, those held with it; by a role that
	// holds none at all, 42501.
	{sql: "SET ROLE {alice}"},
	{sql: "GRANT SELECT ON {s}.t TO {bob}"},
	{sql: "GRANT INSERT ON {s}.t TO {bob}"},
	{sql: "SET ROLE {bob}"},
	{sql: "GRANT SELECT ON {s}.t TO {alice}", want: "42501"},
	{sql: "RESET ROLE"},
	{sql: "SELECT has_table_privilege('{bob}', '{s}.t', 'SELECT')::text", value: "false"},
	{sql: "GRANT SELECT ON {s}.t TO {alice} WITH GRANT OPTION"},
	{sql: "SET ROLE {alice}"},
	{sql: "GRANT SELECT, INSERT ON {s}.t TO {bob}"},
	{sql: "GRANT ALL ON {s}.t TO {bob}"},
	{sql: "SELECT has_table_privilege('{bob}', '{s}.t', 'SELECT')::text || has_table_privilege('{bob}', '{s}.t', 'INSERT')::text", value: "truefalse"},
	{sql: "REVOKE INSERT ON {s}.t FROM {bob}"},
	{sql: "REVOKE SELECT ON {s}.t FROM {bob}"},
	{sql: "RESET ROLE"},
	{sql: "REVOKE SELECT ON {s}.t FROM {alice}"},

	// The same for column privileges: the table's and the column's grant
	// options count.
	{sql: "GRANT SELECT (a) ON {s}.t TO {alice}"},
	{sql: "SET ROLE {alice}"},
	{sql: "GRANT SELECT (a) ON {s}.t TO {bob}"},
	{sql: "GRANT UPDATE (a) ON {s}.t TO {bob}"},
	{sql: "RESET ROLE"},
	{sql: "SELECT has_column_privilege('{bob}', '{s}.t', 'a', 'SELECT')::text", value: "false"},
	{sql: "GRANT SELECT (a) ON {s}.t TO {alice} WITH GRANT OPTION"},
	{sql: "SET ROLE {alice}"},
	{sql: "GRANT SELECT (a), UPDATE (a) ON {s}.t TO {bob}"},
	{sql: "SET ROLE {bob}"},
	{sql: "GRANT SELECT (a) ON {s}.t TO {alice}", want: "42501"},
	{sql: "RESET ROLE"},
	{sql: "SELECT has_column_privilege('{bob}', '{s}.t', 'a', 'SELECT')::text || has_column_privilege('{bob}', '{s}.t', 'a', 'UPDATE')::text", value: "truefalse"},
	{sql: "SET ROLE {alice}"},
	{sql: "REVOKE SELECT (a) ON {s}.t FROM {bob}"},
	{sql: "RESET ROLE"},
	{sql: "REVOKE SELECT (a) ON {s}.t FROM {alice}"},

	// DROP ROLE counts column privileges and default privileges as
	// dependencies; DROP OWNED removes them.
	{sql: "CREATE ROLE {s}_d1"},
	{sql: "CREATE ROLE {s}_d2"},
	{sql: "ALTER DEFAULT PRIVILEGES FOR ROLE {s}_d1 IN SCHEMA {s} GRANT SELECT ON TABLES TO {s}_d2"},
	{sql: "DROP ROLE {s}_d1", want: "2BP01"},
	{sql: "DROP ROLE {s}_d2", want: "2BP01"},
	{sql: "DROP OWNED BY {s}_d1"},
	{sql: "GRANT SELECT (a) ON {s}.t TO {s}_d2"},
	{sql: "DROP ROLE {s}_d2", want: "2BP01"},
	{sql: "DROP OWNED BY {s}_d2"},
	{sql: "SELECT has_column_privilege('{s}_d2', '{s}.t', 'a', 'SELECT')::text", value: "false"},
	{sql: "DROP ROLE {s}_d1"},
	{sql: "DROP ROLE {s}_d2"},
	{sql: "SELECT has_table_privilege('{bob}', '{s}.t', 'SELECT')::text", value: "false"},

	// CALL is for the table's owner (and superusers), under SET ROLE too.
	{sql: "SET ROLE {alice}"},
	{sql: "CALL system.expire_snapshots(table => '{s}.t')", want: "42501", igOnly: true},
	{sql: "RESET ROLE"},
	{sql: "SET ROLE {readers}"},
	{sql: "CALL system.expire_snapshots(table => '{s}.r')", igOnly: true},
	{sql: "RESET ROLE"},

	// ALTER TABLE ... OWNER TO moves DROP ROLE's dependency.
	{sql: "CREATE ROLE {s}_own"},
	{sql: "ALTER TABLE {s}.t OWNER TO {s}_own"},
	{sql: "DROP ROLE {s}_own", want: "2BP01"},
	{sql: "ALTER TABLE {s}.t OWNER TO {su}"},
	{sql: "DROP ROLE {s}_own"},

	// REASSIGN OWNED and DROP OWNED; DROP ROLE of a role that owns or holds.
	{sql: "DROP ROLE {readers}", want: "2BP01"},
	{sql: "SET ROLE {bob}"},
	{sql: "REASSIGN OWNED BY {readers} TO {bob}", want: "42501"},
	{sql: "DROP OWNED BY {readers}", want: "42501"},
	{sql: "RESET ROLE"},
	{sql: "REASSIGN OWNED BY {readers} TO {bob}"},
	{sql: "SELECT tableowner::text FROM pg_tables WHERE schemaname = '{s}' AND tablename = 'r'", value: "{bob}"},
	{sql: "DROP ROLE {readers}", want: "2BP01"}, // still holds privileges
	{sql: "DROP OWNED BY {readers}"},
	{sql: "DROP ROLE {readers}"},
	{sql: "SET ROLE {alice}"},
	{sql: "SELECT count(*) FROM {s}.t", want: "42501"},
	{sql: "RESET ROLE"},
	{sql: "DROP OWNED BY {bob}"},
	{sql: "SELECT count(*)::text FROM pg_tables WHERE schemaname = '{s}' AND tablename = 'r'", value: "0"},
	{sql: "DROP ROLE {bob}"},
}

// TestRoleSession runs roleSessionScript on icegate with a roles store and,
// when ICEGATE_TEST_PG names a PostgreSQL server, on it too: every step
// must end with the same SQLSTATE and value on both.
func TestRoleSession(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{password: "su", roles: true})
	ig, err := pgx.Connect(testCtx(t), connString(addr, "icegate", "su"))
	if err != nil {
		t.Fatal(err)
	}
	defer ig.Close(context.Background())
	names := map[string]string{"{s}": "rs", "{alice}": "alice", "{bob}": "bob", "{readers}": "readers", "{su}": "icegate"}
	runSessionScript(t, "icegate", ig, names, false)

	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Log("ICEGATE_TEST_PG is unset: the script was checked against its expected outcomes only, not against PostgreSQL")
		return
	}
	sfx := fmt.Sprintf("_%d", rand.IntN(1<<30))
	pg := connectPostgres(t, pgURL)
	var su string
	if err := pg.QueryRow(testCtx(t), "SELECT current_user").Scan(&su); err != nil {
		t.Fatal(err)
	}
	pgNames := map[string]string{"{s}": "rs" + sfx, "{alice}": "alice" + sfx, "{bob}": "bob" + sfx, "{readers}": "readers" + sfx, "{su}": su}
	t.Cleanup(func() {
		ctx := context.Background()
		qs := []string{"ROLLBACK", "RESET SESSION AUTHORIZATION", "RESET ROLE", "DROP SCHEMA IF EXISTS " + pgNames["{s}"] + " CASCADE"}
		for _, r := range []string{pgNames["{alice}"], pgNames["{bob}"], pgNames["{readers}"], pgNames["{s}"] + "_tx", pgNames["{s}"] + "_own"} {
			qs = append(qs, "DO $$BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '"+r+"') THEN EXECUTE 'DROP OWNED BY "+r+"'; END IF; END$$",
				"DROP ROLE IF EXISTS "+r)
		}
		for _, q := range qs {
			if _, err := pg.Exec(ctx, q); err != nil {
				t.Logf("PostgreSQL cleanup %q: %v", q, err)
			}
		}
	})
	runSessionScript(t, "PostgreSQL", pg, pgNames, true)
}

func runSessionScript(t *testing.T, server string, c *pgx.Conn, names map[string]string, pg bool) {
	t.Helper()
	subst := func(s string) string {
		for k, v := range names {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	for i, st := range roleSessionScript {
		if pg && st.igOnly {
			continue
		}
		sql := subst(st.sql)
		want := st.want
		if !pg && st.ig != "" {
			want = st.ig
		}
		got, value := "", ""
		rows, err := c.Query(testCtx(t), sql)
		if err == nil {
			for rows.Next() {
				if vals := rows.RawValues(); value == "" && len(vals) > 0 {
					value = string(vals[0])
				}
			}
			rows.Close()
			err = rows.Err()
		}
		if err == nil && strings.HasPrefix(sql, "DISCARD") {
			// The server forgot the client's cached statements.
			err = c.DeallocateAll(testCtx(t))
		}
		if err != nil {
			got = "XX000"
			if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) {
				got = pe.Code
			}
		}
		if got != want {
			t.Errorf("%s step %d: %s: SQLSTATE %q, want %q (%v)", server, i, sql, got, want, err)
			continue
		}
		if st.value != "" && value != subst(st.value) {
			t.Errorf("%s step %d: %s: %q, want %q", server, i, sql, value, subst(st.value))
		}
	}
}

// TestConnectPrivilege: GRANT and REVOKE CONNECT ON DATABASE, PUBLIC's
// default CONNECT, a login refused without it (FATAL 42501 with
// PostgreSQL's message and detail), has_database_privilege and
// pg_database.datacl, on icegate and on PostgreSQL.
func TestConnectPrivilege(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{password: "su", roles: true})
	ig, err := pgx.Connect(testCtx(t), connString(addr, "icegate", "su"))
	if err != nil {
		t.Fatal(err)
	}
	defer ig.Close(context.Background())
	login := func(user string) (*pgx.Conn, error) {
		return pgx.Connect(testCtx(t), connString(addr, user, "pw"))
	}
	runConnectScript(t, "icegate", ig, login, map[string]string{"{db}": "icegate", "{dave}": "dave", "{su}": "icegate"})

	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		return
	}
	pg := connectPostgres(t, pgURL)
	var su string
	if err := pg.QueryRow(testCtx(t), "SELECT current_user").Scan(&su); err != nil {
		t.Fatal(err)
	}
	// A database of its own, whose ACL the steps change.
	sfx := fmt.Sprintf("_%d", rand.IntN(1<<30))
	db, dave := "connpriv"+sfx, "dave"+sfx
	if _, err := pg.Exec(testCtx(t), "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, q := range []string{"DROP DATABASE IF EXISTS " + db, "DROP ROLE IF EXISTS " + dave} {
			if _, err := pg.Exec(context.Background(), q); err != nil {
				t.Logf("PostgreSQL cleanup %q: %v", q, err)
			}
		}
	})
	pgLogin := func(user string) (*pgx.Conn, error) {
		cfg, err := pgx.ParseConfig(pgURL)
		if err != nil {
			return nil, err
		}
		cfg.User, cfg.Password, cfg.Database = user, "pw", db
		return pgx.ConnectConfig(testCtx(t), cfg)
	}
	runConnectScript(t, "PostgreSQL", pg, pgLogin, map[string]string{"{db}": db, "{dave}": dave, "{su}": su})
}

func runConnectScript(t *testing.T, server string, admin *pgx.Conn, login func(string) (*pgx.Conn, error), names map[string]string) {
	t.Helper()
	subst := func(s string) string {
		for k, v := range names {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	steps := []struct {
		sql   string // run as the superuser ("" none)
		value string // the first column of the first row of sql, when set
		login string // SQLSTATE of dave's login after sql ("-": not tried)
	}{
		{sql: "CREATE ROLE {dave} LOGIN PASSWORD 'pw'", login: ""},
		{sql: "SELECT has_database_privilege('{dave}', '{db}', 'CONNECT')::text", value: "true", login: "-"},
		{sql: "SELECT coalesce(datacl::text, 'NULL') FROM pg_database WHERE datname = '{db}'", value: "NULL", login: "-"},
		{sql: "REVOKE CONNECT ON DATABASE {db} FROM PUBLIC", login: "42501"},
		{sql: "SELECT has_database_privilege('{dave}', '{db}', 'CONNECT')::text", value: "false", login: "-"},
		{sql: "SELECT has_database_privilege('{dave}', '{db}', 'TEMPORARY')::text", value: "true", login: "-"},
		{sql: "SELECT datacl::text FROM pg_database WHERE datname = '{db}'", value: "{=T/{su},{su}=CTc/{su}}", login: "-"},
		{sql: "GRANT CONNECT ON DATABASE {db} TO {dave}", login: ""},
		{sql: "SELECT datacl::text FROM pg_database WHERE datname = '{db}'", value: "{=T/{su},{su}=CTc/{su},{dave}=c/{su}}", login: "-"},
		{sql: "REVOKE CONNECT ON DATABASE {db} FROM {dave}", login: "42501"},
		{sql: "GRANT CONNECT ON DATABASE {db} TO PUBLIC", login: ""},
		{sql: "GRANT CONNECT ON DATABASE {db}_nosuch TO PUBLIC", value: "3D000", login: "-"},
		{sql: "REVOKE ALL ON DATABASE {db} FROM {dave}", login: ""},
		{sql: "DROP ROLE {dave}", login: "-"},
	}
	for i, st := range steps {
		sql := subst(st.sql)
		value := ""
		rows, err := admin.Query(testCtx(t), sql)
		if err == nil {
			for rows.Next() {
				if vals := rows.RawValues(); value == "" && len(vals) > 0 {
					value = string(vals[0])
				}
			}
			rows.Close()
			err = rows.Err()
		}
		if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && st.value == pe.Code {
			continue
		}
		if err != nil {
			t.Errorf("%s step %d: %s: %v", server, i, sql, err)
			continue
		}
		if st.value != "" && value != subst(st.value) {
			t.Errorf("%s step %d: %s: %q, want %q", server, i, sql, value, subst(st.value))
		}
		if st.login == "-" {
			continue
		}
		c, err := login(names["{dave}"])
		got := ""
		if err != nil {
			got = "XX000"
			if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) {
				got = pe.Code
				if pe.Code == "42501" {
					wantMsg := `permission denied for database "` + names["{db}"] + `"`
					if pe.Severity != "FATAL" || pe.Message != wantMsg || pe.Detail != "User does not have CONNECT privilege." {
						t.Errorf("%s step %d: login refused with %s %q (%q), want FATAL %q", server, i, pe.Severity, pe.Message, pe.Detail, wantMsg)
					}
				}
			}
		} else {
			c.Close(context.Background())
		}
		if got != st.login {
			t.Errorf("%s step %d: after %s: login SQLSTATE %q, want %q (%v)", server, i, sql, got, st.login, err)
		}
	}
}
