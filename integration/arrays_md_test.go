package integration

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestMultiDimArraysBinary reads and writes arrays of several dimensions
// in the binary format (pgx asks for binary results of array types it
// knows and sends array parameters in binary) on icegate and on
// PostgreSQL, and wants the same dimensions and elements.
func TestMultiDimArraysBinary(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare answers; .ci/run does")
	}
	ig := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	pg := connectPostgres(t, pgURL)
	ctx := testCtx(t)
	for _, c := range []*pgx.Conn{ig, pg} {
		for _, sql := range []string{
			"DROP SCHEMA IF EXISTS pmdb CASCADE",
			"CREATE SCHEMA pmdb",
			"CREATE TABLE pmdb.t (id int, a int[][], s text[][])",
		} {
			if _, err := c.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
	}
	t.Cleanup(func() { _, _ = pg.Exec(ctx, "DROP SCHEMA IF EXISTS pmdb CASCADE") })

	param := pgtype.Array[pgtype.Int4]{
		Elements: []pgtype.Int4{{Int32: 1, Valid: true}, {}, {Int32: 3, Valid: true}, {Int32: 4, Valid: true}, {Int32: 5, Valid: true}, {Int32: 6, Valid: true}},
		Dims:     []pgtype.ArrayDimension{{Length: 2, LowerBound: 1}, {Length: 3, LowerBound: 1}},
		Valid:    true,
	}
	texts := [][]string{{"a b", `c"d`}, {`e\f`, "NULL"}}
	// Both go in binary: pgx learns the parameters' types (int4[],
	// text[]) from Describe.
	for _, c := range []*pgx.Conn{ig, pg} {
		if _, err := c.Exec(ctx, "INSERT INTO pmdb.t VALUES ($1, $2, $3)", 1, param, texts); err != nil {
			t.Fatalf("insert: %v", err)
		}
		if _, err := c.Exec(ctx, "INSERT INTO pmdb.t VALUES (2, '{}', NULL), (3, ARRAY[[7],[8]], ARRAY[['x']])"); err != nil {
			t.Fatalf("insert: %v", err)
		}
	}
	render := func(c *pgx.Conn, sql string, args ...any) string {
		t.Helper()
		rows, err := c.Query(ctx, sql, args...)
		if err != nil {
			return "error: " + err.Error()
		}
		defer rows.Close()
		var out string
		for rows.Next() {
			var id int32
			var a pgtype.Array[pgtype.Int4]
			var s pgtype.Array[pgtype.Text]
			if err := rows.Scan(&id, &a, &s); err != nil {
				return "scan: " + err.Error()
			}
			out += fmt.Sprintf("%d: %v %v %v | %v %v %v\n", id, a.Valid, a.Dims, a.Elements, s.Valid, s.Dims, s.Elements)
		}
		if err := rows.Err(); err != nil {
			return "error: " + err.Error()
		}
		return out
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{"SELECT id, a, s FROM pmdb.t ORDER BY id", nil},
		{"SELECT id, a[1:1], s[:][2:2] FROM pmdb.t ORDER BY id", nil},
		{"SELECT 1, $1::int[], $2::text[]", []any{param, texts}},
		{"SELECT id, ARRAY[a[1:1], a[2:2]], NULL::text[] FROM pmdb.t WHERE id <> 2 ORDER BY id", nil},
	} {
		got, want := render(ig, q.sql, q.args...), render(pg, q.sql, q.args...)
		if strings.HasPrefix(want, "error") || strings.HasPrefix(want, "scan") || want == "" {
			t.Fatalf("%s: PostgreSQL answers %q", q.sql, want)
		}
		if got != want {
			t.Errorf("%s:\nicegate:\n%sPostgreSQL:\n%s", q.sql, got, want)
		}
	}
	// A scan into a Go slice of slices, as applications write it.
	var grid [][]int32
	if err := ig.QueryRow(ctx, "SELECT '{{1,2},{3,4}}'::int[]").Scan(&grid); err != nil || fmt.Sprint(grid) != "[[1 2] [3 4]]" {
		t.Errorf("scan into [][]int32: %v, %v", grid, err)
	}
}
