package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestColumnPrivilegeCatalogs: pg_attribute.attacl,
// information_schema.column_privileges, has_column_privilege (by name and
// by attnum, with GRANT OPTION), has_any_column_privilege, the relacl
// default privileges give a new table and pg_default_acl answer as
// PostgreSQL 15 does for the same grants; psql's \dp shows the column
// privileges and \ddp the default ones.
func TestColumnPrivilegeCatalogs(t *testing.T) {
	setup := []string{
		"CREATE SCHEMA {s}", "CREATE TABLE {s}.t (a int, b text, c int)", "CREATE ROLE {alice}", "CREATE ROLE {bob}",
		"GRANT USAGE ON SCHEMA {s} TO {alice}, {bob}",
		"GRANT SELECT (a, b), UPDATE (c) ON {s}.t TO {alice}", "GRANT INSERT (a) ON {s}.t TO {bob} WITH GRANT OPTION",
		"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT SELECT ON TABLES TO {alice}",
		"ALTER DEFAULT PRIVILEGES GRANT INSERT ON TABLES TO {bob}",
		"CREATE TABLE {s}.d (x int)",
	}
	queries := []string{
		"SELECT attname, attacl::text FROM pg_attribute WHERE attrelid = '{s}.t'::regclass AND attnum > 0 ORDER BY attnum",
		"SELECT grantee, column_name, privilege_type, is_grantable FROM information_schema.column_privileges " +
			"WHERE table_schema = '{s}' AND grantee IN ('{alice}', '{bob}') ORDER BY 1, 2, 3",
		"SELECT has_column_privilege('{alice}', '{s}.t', 'a', 'SELECT'), has_column_privilege('{alice}', '{s}.t', 'c', 'SELECT'), " +
			"has_column_privilege('{alice}', '{s}.t'::regclass, 3::int2, 'UPDATE'), has_column_privilege('{bob}', '{s}.t', 'a', 'INSERT WITH GRANT OPTION'), " +
			"has_column_privilege('{bob}', '{s}.t', 'b', 'INSERT'), has_any_column_privilege('{alice}', '{s}.t', 'SELECT'), " +
			"has_any_column_privilege('{bob}', '{s}.t', 'UPDATE'), has_any_column_privilege('{bob}', '{s}.t'::regclass, 'INSERT')",
		"SELECT relacl::text FROM pg_class WHERE oid = '{s}.d'::regclass",
		"SELECT coalesce(n.nspname, '-'), d.defaclobjtype, d.defaclacl::text FROM pg_default_acl d " +
			"LEFT JOIN pg_namespace n ON n.oid = d.defaclnamespace " +
			"WHERE d.defaclacl::text LIKE '%{alice}%' OR d.defaclacl::text LIKE '%{bob}%' ORDER BY 1",
	}
	names := map[string]string{"{s}": "cpc", "{alice}": "alice", "{bob}": "bob"}
	addr := startServer(t, t.TempDir(), serverOpts{roles: true})
	ig := connect(t, addr)
	igOut := catalogAnswers(t, ig, setup, queries, names)

	if psql, err := exec.LookPath("psql"); err == nil {
		host, port, _ := net.SplitHostPort(addr)
		out := psqlOutput(t, psql, "-h", host, "-p", port, "-U", "icegate", "-d", "icegate", "-c", `\dp cpc.t`, "-c", `\ddp`)
		for _, want := range []string{"a:\n  alice=r/icegate\n  bob=a*/icegate\nb:\n  alice=r/icegate\nc:\n  alice=w/icegate|",
			"icegate|cpc|table|alice=r/icegate", "icegate||table|icegate=arwdDxt/icegate\nbob=a/icegate"} {
			if !strings.Contains(out, want) {
				t.Errorf("psql \\dp \\ddp lack %q:\n%s", want, out)
			}
		}
	}

	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Log("ICEGATE_TEST_PG is unset: the answers were not compared with PostgreSQL")
		return
	}
	sfx := fmt.Sprintf("_%d", rand.IntN(1<<30))
	pgNames := map[string]string{"{s}": "cpc" + sfx, "{alice}": "alice" + sfx, "{bob}": "bob" + sfx}
	pg := connectPostgres(t, pgURL)
	t.Cleanup(func() {
		ctx := context.Background()
		for _, q := range []string{"DROP SCHEMA IF EXISTS " + pgNames["{s}"] + " CASCADE",
			"DROP OWNED BY " + pgNames["{alice}"] + ", " + pgNames["{bob}"],
			"ALTER DEFAULT PRIVILEGES REVOKE INSERT ON TABLES FROM " + pgNames["{bob}"],
			"DROP ROLE IF EXISTS " + pgNames["{alice}"] + ", " + pgNames["{bob}"]} {
			if _, err := pg.Exec(ctx, q); err != nil {
				t.Logf("PostgreSQL cleanup %q: %v", q, err)
			}
		}
	})
	var su string
	if err := pg.QueryRow(testCtx(t), "SELECT current_user").Scan(&su); err != nil {
		t.Fatal(err)
	}
	pgOut := catalogAnswers(t, pg, setup, queries, pgNames)
	for i := range queries {
		want := pgOut[i]
		for k, v := range pgNames {
			want = strings.ReplaceAll(want, v, names[k])
		}
		want = strings.ReplaceAll(want, su, "icegate")
		if igOut[i] != want {
			t.Errorf("%s\nicegate:    %s\nPostgreSQL: %s", queries[i], igOut[i], want)
		}
	}
}

// catalogAnswers runs setup, then each query, and returns each query's
// rows as text.
func catalogAnswers(t *testing.T, c *pgx.Conn, setup, queries []string, names map[string]string) []string {
	t.Helper()
	subst := func(q string) string {
		for k, v := range names {
			q = strings.ReplaceAll(q, k, v)
		}
		return q
	}
	for _, q := range setup {
		if _, err := c.Exec(testCtx(t), subst(q)); err != nil {
			t.Fatalf("%s: %v", subst(q), err)
		}
	}
	var out []string
	for _, q := range queries {
		rows, err := c.Query(testCtx(t), subst(q), pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatalf("%s: %v", subst(q), err)
		}
		var lines []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatalf("%s: %v", subst(q), err)
			}
			lines = append(lines, fmt.Sprint(vals...))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", subst(q), err)
		}
		rows.Close()
		out = append(out, strings.Join(lines, "\n"))
	}
	return out
}
