package integration

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// TestPostgresDifferential runs the corpus of testdata/pgdiff against both
// icegate and a real PostgreSQL server and wants the same answers: column
// names and types, rows as text (a multiset, or a sequence when the
// query's outermost level orders), or, when both fail, the same SQLSTATE.
//
// Each corpus file starts with a "-- setup" section (CREATE SCHEMA, CREATE
// TABLE, INSERT) that runs on both sides; a "-- queries" line starts the
// queries. Statements end with ";" at the end of a line. A line
// "-- known: <reason>" right above a query marks a known difference: the
// query is not compared and the reason is logged.
//
// The reference server comes from ICEGATE_TEST_PG, a libpq URL; .ci/run
// starts one. Without it the test skips.
func TestPostgresDifferential(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare answers; .ci/run does")
	}
	// ICEGATE_PGDIFF_RECHECK=1 also runs the known differences, to log
	// those that have gone; they never fail the test.
	recheck := os.Getenv("ICEGATE_PGDIFF_RECHECK") != ""
	files, err := filepath.Glob(filepath.Join("testdata", "pgdiff", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in testdata/pgdiff (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".sql"), func(t *testing.T) {
			corpus, err := readDiffCorpus(file)
			if err != nil {
				t.Fatal(err)
			}
			ig := connect(t, startServer(t, t.TempDir(), serverOpts{}))
			pg := connectPostgres(t, pgURL)
			dropNewExtensions(t, pg)
			runDiffSetup(t, ig, pg, corpus.setup)
			known, compared := 0, 0
			for _, q := range corpus.queries {
				where := fmt.Sprintf("%s:%d", filepath.Base(file), q.line)
				if q.known != "" {
					known++
					if !recheck {
						t.Logf("%s: known difference (%s), not compared: %s", where, q.known, q.sql)
					} else if diffQuery(t, ig, pg, q.sql) == "" {
						t.Logf("%s: known difference (%s) is gone: remove its -- known line: %s", where, q.known, q.sql)
					} else {
						t.Logf("%s: known difference (%s) remains: %s", where, q.known, q.sql)
					}
					continue
				}
				compared++
				if diff := diffQuery(t, ig, pg, q.sql); diff != "" {
					t.Errorf("%s: %s\n%s", where, q.sql, diff)
				}
			}
			t.Logf("%s: %d queries compared, %d known differences skipped", filepath.Base(file), compared, known)
		})
	}
}

// diffCorpus is one corpus file: its setup statements and its queries.
type diffCorpus struct {
	setup   []string
	queries []diffQueryCase
}

// diffQueryCase is one query of a corpus file and the known difference
// that keeps it from being compared, if any.
type diffQueryCase struct {
	sql   string
	line  int
	known string
}

// readDiffCorpus splits a corpus file into setup statements and queries.
func readDiffCorpus(path string) (diffCorpus, error) {
	var c diffCorpus
	f, err := os.Open(path)
	if err != nil {
		return c, err
	}
	defer f.Close()
	section := ""
	var stmt []string
	stmtLine, lineNo := 0, 0
	known := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if len(stmt) == 0 {
			switch {
			case trimmed == "":
				continue
			case trimmed == "-- setup" || trimmed == "-- queries":
				section = strings.TrimPrefix(trimmed, "-- ")
				continue
			case strings.HasPrefix(trimmed, "-- known:"):
				known = strings.TrimSpace(strings.TrimPrefix(trimmed, "-- known:"))
				continue
			case strings.HasPrefix(trimmed, "--"):
				continue
			}
			stmtLine = lineNo
		}
		stmt = append(stmt, line)
		if !strings.HasSuffix(trimmed, ";") {
			continue
		}
		sql := strings.TrimSuffix(strings.TrimSpace(strings.Join(stmt, "\n")), ";")
		stmt = nil
		switch section {
		case "setup":
			if known != "" {
				return c, fmt.Errorf("%s:%d: a setup statement cannot be a known difference", path, stmtLine)
			}
			c.setup = append(c.setup, sql)
		case "queries":
			c.queries = append(c.queries, diffQueryCase{sql: sql, line: stmtLine, known: known})
		default:
			return c, fmt.Errorf("%s:%d: statement before a -- setup or -- queries line", path, stmtLine)
		}
		known = ""
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("read %s: %w", path, err)
	}
	if len(stmt) > 0 {
		return c, fmt.Errorf("%s:%d: statement without a closing ;", path, stmtLine)
	}
	return c, nil
}

// connectPostgres opens a connection to the reference PostgreSQL server in
// the session settings icegate's test connections use.
func connectPostgres(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatalf("ICEGATE_TEST_PG: %v", err)
	}
	cfg.RuntimeParams["TimeZone"] = "UTC"
	cfg.RuntimeParams["DateStyle"] = "ISO, MDY"
	cfg.RuntimeParams["IntervalStyle"] = "postgres"
	cfg.RuntimeParams["extra_float_digits"] = "1"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect to PostgreSQL (ICEGATE_TEST_PG): %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// dropNewExtensions drops, when the test ends, the extensions a corpus
// file created on the reference server (CREATE EXTENSION "uuid-ossp" puts
// its functions in public), so that later tests comparing with it (psql's
// \df) see the server as it was.
func dropNewExtensions(t *testing.T, pg *pgx.Conn) {
	t.Helper()
	extensions := func() map[string]bool {
		// The simple protocol: no prepared statement on the server for
		// the corpus to see (prepare.sql lists them) or deallocate.
		rows, err := pg.Query(testCtx(t), "SELECT extname FROM pg_extension", pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatalf("PostgreSQL: list extensions: %v", err)
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatalf("PostgreSQL: list extensions: %v", err)
		}
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	before := extensions()
	t.Cleanup(func() {
		for name := range extensions() {
			if !before[name] {
				if _, err := pg.Exec(context.Background(), "DROP EXTENSION IF EXISTS "+pgx.Identifier{name}.Sanitize()+" CASCADE", pgx.QueryExecModeSimpleProtocol); err != nil {
					t.Errorf("PostgreSQL: drop extension %s: %v", name, err)
				}
			}
		}
	})
}

var createSchemaRE = regexp.MustCompile(`(?i)^\s*create\s+schema\s+(?:if\s+not\s+exists\s+)?([a-z_][a-z0-9_]*)`)

// runDiffSetup runs the setup statements on both servers; on PostgreSQL
// each schema is dropped first, so every run starts from the same tables.
func runDiffSetup(t *testing.T, ig, pg *pgx.Conn, setup []string) {
	t.Helper()
	for _, sql := range setup {
		if m := createSchemaRE.FindStringSubmatch(sql); m != nil {
			if _, err := pg.Exec(testCtx(t), "DROP SCHEMA IF EXISTS "+m[1]+" CASCADE"); err != nil {
				t.Fatalf("PostgreSQL: drop schema %s: %v", m[1], err)
			}
			// And after the file: other tests (the BI replay's enum
			// queries) read the reference database's whole catalog.
			t.Cleanup(func() {
				if _, err := pg.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+m[1]+" CASCADE"); err != nil {
					t.Errorf("PostgreSQL: drop schema %s: %v", m[1], err)
				}
			})
		}
		if _, err := pg.Exec(testCtx(t), sql, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("PostgreSQL setup: %s: %v", sql, err)
		}
		if _, err := ig.Exec(testCtx(t), sql, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("icegate setup: %s: %v", sql, err)
		}
	}
}

// diffQuery runs sql on both servers and describes how the answers
// differ, or returns "" when they agree.
func diffQuery(t *testing.T, ig, pg *pgx.Conn, sql string) string {
	t.Helper()
	ordered, err := outerOrdered(sql)
	if err != nil {
		return fmt.Sprintf("parse: %v", err)
	}
	want, wantErr := queryText(testCtx(t), pg, sql)
	got, gotErr := queryText(testCtx(t), ig, sql)
	switch {
	case wantErr != nil && gotErr != nil:
		if sqlState(wantErr) != sqlState(gotErr) {
			return fmt.Sprintf("both fail, SQLSTATEs differ:\n  icegate:    %v\n  PostgreSQL: %v", gotErr, wantErr)
		}
		return ""
	case wantErr != nil:
		return fmt.Sprintf("PostgreSQL fails, icegate answers:\n  icegate:    %s\n  PostgreSQL: %v", formatResult(got), wantErr)
	case gotErr != nil:
		return fmt.Sprintf("icegate fails, PostgreSQL answers:\n  icegate:    %v\n  PostgreSQL: %s", gotErr, formatResult(want))
	}
	var diffs []string
	if !slices.Equal(got.names, want.names) {
		diffs = append(diffs, fmt.Sprintf("column names: icegate %q, PostgreSQL %q", got.names, want.names))
	}
	if !slices.Equal(got.oids, want.oids) {
		diffs = append(diffs, fmt.Sprintf("column type OIDs: icegate %v, PostgreSQL %v", got.oids, want.oids))
	}
	gotRows, wantRows := diffRowStrings(got), diffRowStrings(want)
	if !ordered {
		slices.Sort(gotRows)
		slices.Sort(wantRows)
	}
	if !slices.Equal(gotRows, wantRows) {
		kind := "rows (as a multiset)"
		if ordered {
			kind = "rows (in order)"
		}
		diffs = append(diffs, fmt.Sprintf("%s differ:\n  icegate:    %s\n  PostgreSQL: %s", kind, strings.Join(gotRows, " ; "), strings.Join(wantRows, " ; ")))
	}
	return strings.Join(diffs, "\n")
}

// outerOrdered reports whether the query's outermost level has ORDER BY,
// so that its rows compare in order.
func outerOrdered(sql string) (bool, error) {
	tree, err := pg_query.Parse(sql)
	if err != nil {
		return false, err
	}
	if len(tree.Stmts) != 1 {
		return false, fmt.Errorf("want one statement, have %d", len(tree.Stmts))
	}
	sel := tree.Stmts[0].GetStmt().GetSelectStmt()
	return sel != nil && len(sel.GetSortClause()) > 0, nil
}

// diffRowStrings renders each row as one string: cells quoted, NULL bare,
// so NULL and the empty string stay apart.
func diffRowStrings(res textResult) []string {
	out := make([]string, len(res.rows))
	for i, r := range res.rows {
		cells := make([]string, len(r))
		for j, v := range r {
			if v == nullValue {
				cells[j] = "NULL"
			} else {
				cells[j] = fmt.Sprintf("%q", v)
			}
		}
		out[i] = "(" + strings.Join(cells, ",") + ")"
	}
	return out
}

// formatResult shows a whole result for a mismatch report.
func formatResult(res textResult) string {
	return fmt.Sprintf("%q %s", res.names, strings.Join(diffRowStrings(res), " ; "))
}
