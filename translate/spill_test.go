package translate

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
)

// spillSession is a session of a backend whose statements spill into a
// temporary directory of the test's.
func spillSession(t *testing.T) (*session, *spill.Dir) {
	t.Helper()
	cat, err := catalog.NewFilesystem("icegate", fixturesRoot(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := spill.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dir.Close() })
	ss, err := NewBackend(cat, Options{TempDir: dir}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	return ss.(*session), dir
}

func emptyDir(t *testing.T, dir *spill.Dir, after string) {
	t.Helper()
	es, err := os.ReadDir(dir.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 0 {
		t.Errorf("after %s: %d entries left in the temporary directory", after, len(es))
	}
}

// TestStatementSpill: under a small statement_mem, statements whose
// operators can spill answer exactly as without a limit, EXPLAIN ANALYZE
// shows the spill, temp_file_limit stops them with 53400, and no
// temporary file outlives its statement.
func TestStatementSpill(t *testing.T) {
	s, dir := spillSession(t)
	// A GROUP BY with many groups spills its hash table.
	grouped := "SELECT g % 50000 AS k, count(*), sum(g), max(md5(g::text)) FROM generate_series(1, 200000) g GROUP BY 1"
	want := queryRows(t, s, grouped)
	if _, err := execAll(s, "SET statement_mem = '2MB'"); err != nil {
		t.Fatal(err)
	}
	got := queryRows(t, s, grouped)
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: %d rows under 2MB differ from the %d without a limit: %.300v", grouped, len(got), len(want), got)
	}
	out := queryOutput(t, s, &datadriven.Case{Input: "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + grouped})
	if !strings.Contains(out, "Disk Usage: ") {
		t.Errorf("EXPLAIN ANALYZE of a spilling aggregation:\n%s", out)
	}
	emptyDir(t, dir, grouped)
	if _, err := execAll(s, "RESET statement_mem"); err != nil {
		t.Fatal(err)
	}
	queries := []string{
		"SELECT g, md5(g::text) FROM generate_series(1, 200000) g ORDER BY md5(g::text)",
		"SELECT g % 1000 AS k, g FROM generate_series(1, 200000) g ORDER BY k DESC, g",
	}
	for _, q := range queries {
		want := queryRows(t, s, q)
		if _, err := execAll(s, "SET statement_mem = '2MB'"); err != nil {
			t.Fatal(err)
		}
		got := queryRows(t, s, q)
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows under 2MB, %d without a limit", q, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: row %d is %q under 2MB, %q without a limit", q, i, got[i], want[i])
			}
		}
		emptyDir(t, dir, q)
		out := queryOutput(t, s, &datadriven.Case{Input: "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + q})
		if !strings.Contains(out, "Sort Method: external merge  Disk: ") {
			t.Errorf("EXPLAIN ANALYZE of a spilling sort:\n%s", out)
		}
		emptyDir(t, dir, "EXPLAIN ANALYZE "+q)
		if _, err := execAll(s, "SET temp_file_limit = '64kB'"); err != nil {
			t.Fatal(err)
		}
		out = queryOutput(t, s, &datadriven.Case{Input: q})
		if !strings.Contains(out, "error ("+pgerr.ConfigurationLimitExceeded+")") || !strings.Contains(out, "temporary file size exceeds temp_file_limit (64kB)") {
			t.Errorf("%s past temp_file_limit: %.300s; want 53400", q, out)
		}
		emptyDir(t, dir, q+" past temp_file_limit")
		if _, err := execAll(s, "RESET temp_file_limit; RESET statement_mem"); err != nil {
			t.Fatal(err)
		}
	}
}
