package integration

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestEnumParameters compares enum values with parameters as drivers send
// them (extended protocol, the parameter's type left to the server), on
// icegate and on PostgreSQL: the parameter is a label, compared in the
// type's declaration order, and a value that is no label is 22P02.
func TestEnumParameters(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare answers; .ci/run does")
	}
	ig := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	pg := connectPostgres(t, pgURL)
	setup := []string{
		"DROP SCHEMA IF EXISTS pgenump CASCADE",
		"CREATE SCHEMA pgenump",
		"CREATE TYPE pgenump.feel AS ENUM ('sad', 'ok', 'happy')",
		"CREATE TABLE pgenump.t (id int, m pgenump.feel)",
		"INSERT INTO pgenump.t VALUES (1, 'happy'), (2, 'sad'), (3, 'ok'), (4, NULL)",
	}
	t.Cleanup(func() { pg.Exec(context.Background(), "DROP SCHEMA IF EXISTS pgenump CASCADE") })
	for _, sql := range setup {
		if _, err := pg.Exec(testCtx(t), sql); err != nil {
			t.Fatalf("PostgreSQL: %s: %v", sql, err)
		}
		if sql[:4] == "DROP" {
			continue
		}
		if _, err := ig.Exec(testCtx(t), sql); err != nil {
			t.Fatalf("icegate: %s: %v", sql, err)
		}
	}
	ids := func(conn *pgx.Conn, sql string, arg any) (string, error) {
		rows, err := conn.Query(testCtx(t), sql, arg)
		if err != nil {
			return "", err
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		return fmt.Sprint(got), err
	}
	for _, c := range []struct {
		sql string
		arg any
	}{
		{"SELECT id FROM pgenump.t WHERE m < $1 ORDER BY id", "happy"},
		{"SELECT id FROM pgenump.t WHERE $1 < m ORDER BY id", "sad"},
		{"SELECT id FROM pgenump.t WHERE m >= $1 ORDER BY id", "ok"},
		{"SELECT id FROM pgenump.t WHERE m = $1 ORDER BY id", "ok"},
		{"SELECT id FROM pgenump.t WHERE m < $1 ORDER BY id", "nope"},
		{"SELECT id FROM pgenump.t WHERE m = $1 ORDER BY id", "nope"},
	} {
		want, wantErr := ids(pg, c.sql, c.arg)
		got, gotErr := ids(ig, c.sql, c.arg)
		if got != want || sqlState(gotErr) != sqlState(wantErr) {
			t.Errorf("%s with %v:\n  icegate:    %s %v\n  PostgreSQL: %s %v", c.sql, c.arg, got, gotErr, want, wantErr)
		}
	}
}
