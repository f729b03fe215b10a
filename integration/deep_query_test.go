package integration

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestDeepQueriesKeepServing sends statements nested too deep to parse
// (a 40,000-term 1+1+...+1 used to kill the server in pg_query's C code)
// and huge lists under a statement_timeout: each gets PostgreSQL's error,
// and the server goes on serving this connection and another.
func TestDeepQueriesKeepServing(t *testing.T) {
	addr := startServer(t, fixtures.Warehouse(t), serverOpts{})
	conn := connect(t, addr)
	other := connect(t, addr)
	run := func(sql string, mode pgx.QueryExecMode) error {
		rows, err := conn.Query(testCtx(t), sql, mode)
		if err != nil {
			return err
		}
		for rows.Next() {
		}
		rows.Close()
		return rows.Err()
	}
	alive := func(t *testing.T) {
		t.Helper()
		for _, c := range []*pgx.Conn{conn, other} {
			var one int
			if err := c.QueryRow(testCtx(t), "SELECT 1").Scan(&one); err != nil || one != 1 {
				t.Fatalf("the server no longer serves: %v", err)
			}
		}
	}
	tests := []struct {
		name, sql, code string
	}{
		{"plus chain", "SELECT " + strings.Repeat("1+", 40000) + "1", "54001"},
		{"concat chain", "SELECT " + strings.Repeat("'a'||", 100000) + "'a'", "54001"},
		{"nested parentheses", "SELECT " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000), pgerr.SyntaxError},
		{"nested subqueries", "SELECT " + strings.Repeat("(SELECT ", 5000) + "1" + strings.Repeat(")", 5000), "54001"},
		{"nested calls", "SELECT " + strings.Repeat("abs(", 4500) + "1" + strings.Repeat(")", 4500), "54001"},
		{"joins", "SELECT 1 FROM (SELECT 1) a" + strings.Repeat(" JOIN (SELECT 1) b ON true", 10000), "54001"},
		{"casts", "SELECT 1" + strings.Repeat("::int", 20000), "54001"},
		{"accepted plus chain", "SELECT " + strings.Repeat("1+", 3000) + "1", ""},
		{"long AND chain", "SELECT 1 WHERE " + strings.Repeat("1 = 1 AND ", 50000) + "true", ""},
		{"long IN list", "SELECT 1 WHERE 5 IN (" + strings.Repeat("1, ", 100000) + "5)", ""},
	}
	for _, tc := range tests {
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeDescribeExec} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				err := run(tc.sql, mode)
				var pe *pgconn.PgError
				switch {
				case tc.code == "" && err != nil:
					t.Errorf("got %v, want success", err)
				case tc.code != "" && (!errors.As(err, &pe) || pe.Code != tc.code):
					t.Errorf("got %v, want SQLSTATE %s", err, tc.code)
				case tc.code == "54001" && pe.Message != "stack depth limit exceeded":
					t.Errorf("message %q", pe.Message)
				}
				alive(t)
			})
		}
	}
	t.Run("statement_timeout in parse and bind", func(t *testing.T) {
		if _, err := conn.Exec(testCtx(t), "SET statement_timeout = 300"); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if _, err := conn.Exec(testCtx(t), "RESET statement_timeout"); err != nil {
				t.Fatal(err)
			}
		}()
		for _, sql := range []string{
			"SELECT count(*) FROM (VALUES " + strings.Repeat("(1, 'a'), ", 300000) + "(2, 'b')) v(a, b)",
			"SELECT 1 WHERE 5 IN (" + strings.Repeat("1, ", 600000) + "5)",
		} {
			start := time.Now()
			err := run(sql, pgx.QueryExecModeSimpleProtocol)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != pgerr.QueryCanceled {
				t.Errorf("got %v, want 57014", err)
			}
			// A bound, not a measure: far below the statement's full run.
			if took := time.Since(start); took > 300*time.Millisecond+2*time.Second {
				t.Errorf("the statement ended %v after its start", took)
			}
			alive(t)
		}
	})
}
