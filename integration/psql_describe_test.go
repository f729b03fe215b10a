package integration

import (
	"bytes"
	"context"
	"flag"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updatePsqlGolden = flag.Bool("update", false,
	"rewrite testdata/psql/*.golden: icegate's normalised psql output, or PostgreSQL's where icegate's differs from it")

// psqlDescribeCases are psql sessions (each -c in turn, stdin for
// \copy ... FROM pstdin) over the introspection dataset. copy_in adds a
// row to orders, so it comes last.
var psqlDescribeCases = []struct {
	name  string
	cmds  []string
	stdin string
}{
	{name: "conninfo", cmds: []string{`\conninfo`}},
	{name: "list_databases", cmds: []string{`\l`}},
	{name: "schemas", cmds: []string{`\dn public`}}, // other tests leave schemas behind in the shared PostgreSQL
	{name: "tables", cmds: []string{`\dt`}},
	{name: "describe_orders", cmds: []string{`\d orders`}},
	{name: "describe_orders_verbose", cmds: []string{`\d+ orders`}},
	{name: "functions", cmds: []string{`\df`}},
	{name: "views", cmds: []string{`\dv`}},
	{name: "expanded_query", cmds: []string{`\x on`, `SELECT * FROM orders ORDER BY id`}},
	{name: "copy_out", cmds: []string{`\copy (SELECT * FROM orders ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)`}},
	{name: "copy_in", cmds: []string{`\copy orders FROM pstdin WITH (FORMAT csv)`, `SELECT id, customer, status, amount FROM orders ORDER BY id`},
		stdin: "3,12,Linus,new,15.00,,2026-01-04 00:00:00+00,,false\n"},
}

// TestPsqlDescribe runs psql's describe commands, \x and \copy against
// icegate and compares psql's output, normalised (normalisePsql), with
// testdata/psql/<case>.golden and, when ICEGATE_TEST_PG names a PostgreSQL
// server, with what psql prints for the same objects there. psql runs
// with -X (no psqlrc) and -A (unaligned), so that a value that legitimately
// differs (an owner's name) does not change every column's width.
func TestPsqlDescribe(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("psql is not on PATH, and CI is set: CI must install postgresql-client (see .ci/run)")
		}
		t.Skip("psql is not on PATH: install postgresql-client to run this test (it fails instead when CI is set)")
	}
	addr := startServer(t, t.TempDir(), serverOpts{})
	setupIntrospection(t, connect(t, addr), "icegate", introspectSetupIcegate)
	host, port, _ := net.SplitHostPort(addr)
	ig := psqlTarget{host: host, port: port, user: "icegate", db: "icegate"}

	pgURL := os.Getenv("ICEGATE_TEST_PG")
	var pg *psqlTarget
	if pgURL == "" {
		t.Log("ICEGATE_TEST_PG is not set: comparing with the golden files only, not with PostgreSQL")
	} else {
		setupIntrospection(t, connectPostgres(t, pgURL), "PostgreSQL", introspectSetupPostgres)
		target, err := psqlTargetOf(pgURL)
		if err != nil {
			t.Fatalf("ICEGATE_TEST_PG: %v", err)
		}
		pg = &target
	}

	for _, tc := range psqlDescribeCases {
		t.Run(tc.name, func(t *testing.T) {
			got := normalisePsql(runPsql(t, psql, ig, tc.cmds, tc.stdin), ig)
			var want string
			if pg != nil {
				want = normalisePsql(runPsql(t, psql, *pg, tc.cmds, tc.stdin), *pg)
				if got != want {
					t.Errorf("psql %s: icegate and PostgreSQL differ (normalised)\n--- icegate\n%s--- PostgreSQL\n%s", strings.Join(tc.cmds, " ; "), got, want)
				}
			}
			golden := filepath.Join("testdata", "psql", tc.name+".golden")
			if *updatePsqlGolden {
				content := got
				if pg != nil && got != want {
					content = want
					t.Logf("%s: icegate differs from PostgreSQL: the golden file gets PostgreSQL's output", golden)
				}
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			saved, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("golden file: %v (run with -update to write it)", err)
			}
			// Where icegate differs from PostgreSQL and the golden file
			// holds PostgreSQL's output, the difference is reported once.
			if got != string(saved) && (pg == nil || got == want || string(saved) != want) {
				t.Errorf("psql %s: output differs from %s\n--- icegate\n%s--- golden\n%s", strings.Join(tc.cmds, " ; "), golden, got, saved)
			}
		})
	}
}

// psqlTarget is where psql connects.
type psqlTarget struct{ host, port, user, db string }

// psqlTargetOf reads a libpq URL (postgres://user@host:port/db).
func psqlTargetOf(raw string) (psqlTarget, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return psqlTarget{}, err
	}
	t := psqlTarget{host: u.Hostname(), port: u.Port(), user: u.User.Username(), db: strings.TrimPrefix(u.Path, "/")}
	if t.port == "" {
		t.port = "5432"
	}
	if t.user == "" {
		t.user = "postgres"
	}
	if t.db == "" {
		t.db = t.user
	}
	return t, nil
}

// runPsql runs one psql session and returns what it printed, stdout then
// stderr.
func runPsql(t *testing.T, psql string, to psqlTarget, cmds []string, stdin string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	args := []string{"-X", "-A", "-h", to.host, "-p", to.port, "-U", to.user, "-d", to.db, "-v", "VERBOSITY=default"}
	for _, c := range cmds {
		args = append(args, "-c", c)
	}
	cmd := exec.CommandContext(ctx, psql, args...)
	cmd.Env = append(cleanEnv(), "PGTZ=UTC", "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable", "PGAPPNAME=icegate-test",
		"PGDATESTYLE=ISO, MDY")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("psql %s: %v", strings.Join(args, " "), err)
		}
	}
	return stdout.String() + stderr.String()
}

// normalisePsql takes out of psql's unaligned output what legitimately
// differs between two servers showing the same objects:
//   - \conninfo: the database, user and port become <database>, <user>,
//     <port> (the host is the same loopback address);
//   - "Owner" columns become <owner>: icegate's objects belong to its
//     user, PostgreSQL's to whoever created them (public to
//     pg_database_owner);
//   - \l lists only the connected database (a PostgreSQL server has
//     others; icegate serves one catalog): other rows, and the row count,
//     go; the database's name and owner become <database> and <owner>;
//   - "Access method: ..." footers go: an Iceberg table has no PostgreSQL
//     table access method, and PostgreSQL's heap says nothing about it.
//
// Everything else - types, defaults, nullability, indexes, comments,
// values, \copy's rows - must be the same.
func normalisePsql(out string, to psqlTarget) string {
	lines := strings.Split(out, "\n")
	var kept []string
	var header []string // the current table's column names
	listingDatabases := false
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "You are connected to database "):
			kept = append(kept, `You are connected to database "<database>" as user "<user>" on host "`+to.host+`" at port "<port>".`)
			continue
		case strings.HasPrefix(line, "Access method: "):
			continue
		case strings.TrimSpace(line) == "List of databases":
			listingDatabases = true
			kept = append(kept, line)
			continue
		}
		if listingDatabases {
			// Keep the header and the connected database's row; other
			// databases' rows, their privileges' continuation lines and
			// the row count go.
			if header == nil && strings.Contains(line, "|") {
				header = strings.Split(line, "|")
				kept = append(kept, line)
			} else if strings.HasPrefix(line, to.db+"|") {
				kept = append(kept, maskColumns(header, strings.Split(line, "|"), map[string]string{"Name": "<database>", "Owner": "<owner>"}))
			} else if line == "" {
				kept = append(kept, line)
			}
			continue
		}
		if !strings.Contains(line, "|") {
			header = nil
			kept = append(kept, line)
			continue
		}
		fields := strings.Split(line, "|")
		if header == nil && (i == 0 || !strings.Contains(lines[i-1], "|")) {
			header = fields
			kept = append(kept, line)
			continue
		}
		kept = append(kept, maskColumns(header, fields, map[string]string{"Owner": "<owner>"}))
	}
	return strings.Join(kept, "\n")
}

// maskColumns replaces the values of the named columns of one unaligned
// row (a row whose fields do not match the header is kept as it is).
func maskColumns(header, fields []string, masks map[string]string) string {
	if len(fields) == len(header) {
		for j, name := range header {
			if m, ok := masks[name]; ok {
				fields[j] = m
			}
		}
	}
	return strings.Join(fields, "|")
}
