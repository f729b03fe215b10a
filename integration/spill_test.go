package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestSpill runs an ORDER BY, GROUP BYs, windows, NOT IN and IN over a million generated rows
// under statement_mem = 8MB, far below what they hold, over pgx: each
// answers exactly what it answers without a limit, EXPLAIN ANALYZE shows
// the sort's external merge, temp_file_limit stops a statement with 53400,
// and no temporary file is left after any of them.
func TestSpill(t *testing.T) {
	if testing.Short() {
		t.Skip("a million rows sorted and grouped twice; -short skips it")
	}
	tmp := t.TempDir()
	conn := connect(t, startServer(t, t.TempDir(), serverOpts{tempDir: tmp}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	exec := func(sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	rows := func(sql string) []string {
		t.Helper()
		rs, err := conn.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer rs.Close()
		var out []string
		for rs.Next() {
			vals, err := rs.Values()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(vals...))
		}
		if err := rs.Err(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return out
	}
	leftover := func(after string) {
		t.Helper()
		var files []string
		filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		if len(files) > 0 {
			t.Errorf("after %s: temporary files left: %v", after, files)
		}
	}
	for _, tc := range []struct {
		sql     string
		ordered bool
	}{
		{"SELECT g, md5(g::text) AS h FROM generate_series(1, 1000000) g ORDER BY h", true},
		{"SELECT g % 300000 AS k, count(*), sum(g), avg(g), min(g), max(g * 2) FROM generate_series(1, 1000000) g GROUP BY 1", false},
		// md5 in the window's input, not in its calls: a call's arguments
		// are evaluated over a whole (spilled) partition file at once.
		{"SELECT g, h, row_number() OVER w, sum(g) OVER w, lag(h, 2) OVER w FROM (SELECT g, md5(g::text) AS h FROM generate_series(1, 1000000) g) s WINDOW w AS (PARTITION BY g % 1000 ORDER BY g DESC)", false},
		{"SELECT g % 100000 AS k, count(DISTINCT g % 7), string_agg((g % 10)::text, ',' ORDER BY g DESC), percentile_disc(0.5) WITHIN GROUP (ORDER BY g) FROM generate_series(1, 1000000) g GROUP BY 1", false},
		// A window call computing large values from its arguments.
		{"SELECT g, lag(md5(g::text)) OVER (PARTITION BY g % 1000 ORDER BY g) FROM generate_series(1, 1000000) g", false},
		// NOT IN and IN over a subquery whose rows pass 8MB: a NULL on
		// either side decides rows across the join's partitions.
		{"SELECT count(*), sum(g) FROM generate_series(1, 1000000) g WHERE g NOT IN (SELECT h * 3 FROM generate_series(1, 1000000) h)", false},
		{"SELECT count(*) FROM generate_series(1, 1000000) g WHERE g NOT IN (SELECT CASE WHEN h = 777 THEN NULL ELSE h * 3 END FROM generate_series(1, 1000000) h)", false},
		{"SELECT m, count(*) FROM (SELECT (CASE WHEN g % 1000 = 0 THEN NULL ELSE g END) IN (SELECT h * 3 FROM generate_series(1, 1000000) h) AS m FROM generate_series(1, 1000000) g) s GROUP BY m", false},
		{"SELECT m, count(*) FROM (SELECT g IN (SELECT CASE WHEN h = 777 THEN NULL ELSE h * 3 END FROM generate_series(1, 1000000) h) AS m FROM generate_series(1, 1000000) g) s GROUP BY m", false},
	} {
		exec("RESET statement_mem")
		want := rows(tc.sql)
		exec("SET statement_mem = '8MB'")
		got := rows(tc.sql)
		leftover(tc.sql)
		if !tc.ordered {
			sort.Strings(want)
			sort.Strings(got)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows under 8MB, %d without a limit", tc.sql, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: row %d is %q under 8MB, %q without a limit", tc.sql, i, got[i], want[i])
			}
		}
	}
	plan := strings.Join(rows("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT g, md5(g::text) AS h FROM generate_series(1, 1000000) g ORDER BY h"), "\n")
	if !strings.Contains(plan, "Sort Method: external merge  Disk: ") {
		t.Errorf("EXPLAIN ANALYZE of a sort under 8MB:\n%s", plan)
	}
	for _, q := range []string{
		"SELECT count(*) FROM generate_series(1, 1000000) g WHERE g NOT IN (SELECT CASE WHEN h = 777 THEN NULL ELSE h * 3 END FROM generate_series(1, 1000000) h)",
		"SELECT count(l) FROM (SELECT lag(md5(g::text)) OVER (PARTITION BY g % 1000 ORDER BY g) l FROM generate_series(1, 1000000) g) s",
	} {
		plan = strings.Join(rows("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) "+q), "\n")
		if !strings.Contains(plan, "Disk Usage: ") {
			t.Errorf("EXPLAIN ANALYZE under 8MB shows nothing spilled:\n%s", plan)
		}
	}
	exec("SET temp_file_limit = '1MB'")
	_, err := conn.Exec(ctx, "SELECT g, md5(g::text) AS h FROM generate_series(1, 1000000) g ORDER BY h")
	if code, msg := pgCode(err); code != "53400" || msg != "temporary file size exceeds temp_file_limit (1024kB)" {
		t.Errorf("past temp_file_limit: %v; want 53400", err)
	}
	leftover("the statement past temp_file_limit")
	if got := rows("SHOW temp_file_limit"); len(got) != 1 || got[0] != "1MB" {
		t.Errorf("SHOW temp_file_limit: %v", got)
	}
}
