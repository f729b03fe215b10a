package translate

import (
	"context"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/internal/datadriven"
)

// TestParallelJoinAggregation: an aggregation over a pipeline of joins
// runs in one part per CPU, the parts splitting the probe side's files
// and sharing each join's build side. Its answers are the serial plan's
// (on one CPU) for every join type that shares, and under a statement_mem
// the shared build side does not fit, the aggregation runs again serially
// and spills, with the same answers and no temporary file left.
func TestParallelJoinAggregation(t *testing.T) {
	dir, err := spill.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dir.Close() })
	cat, err := catalog.NewFilesystem("icegate", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := NewBackend(cat, Options{TempDir: dir}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	s := ss.(*session)
	run(t, s, "CREATE TABLE f (id bigint, k bigint, v bigint, s text)")
	// Four inserts: four files for the parts to split.
	for _, r := range []string{"1, 50000", "50001, 100000", "100001, 150000", "150001, 200000"} {
		run(t, s, "INSERT INTO f SELECT g, g % 70001, g % 97, md5(g::text) FROM generate_series("+r+") g")
	}
	run(t, s, "CREATE TABLE d (k bigint, grp int, pad text)")
	run(t, s, "INSERT INTO d SELECT g, g % 7, md5(g::text) || md5((g + 1)::text) FROM generate_series(1, 60000) g")
	// One insert: one file, split among the scan's workers where it is a
	// hash join's build side.
	run(t, s, "CREATE TABLE b (id bigint, v bigint, s text)")
	run(t, s, "INSERT INTO b SELECT g, g % 89, md5(g::text) FROM generate_series(1, 140000) g")
	run(t, s, "CREATE TABLE e (k bigint, w int)")
	run(t, s, "INSERT INTO e SELECT g, g % 3 FROM generate_series(1, 300) g")

	queries := []struct {
		name, sql string
	}{
		{"inner", "SELECT d.grp, count(*), sum(f.v), min(d.pad) FROM f JOIN d ON f.k = d.k GROUP BY d.grp"},
		{"two joins", "SELECT e.w, d.grp, count(*), sum(f.v) FROM f JOIN d ON f.k = d.k JOIN e ON e.k = d.grp GROUP BY e.w, d.grp"},
		{"left", "SELECT f.v % 5, count(*), count(d.k), max(d.pad) FROM f LEFT JOIN d ON f.k = d.k GROUP BY 1"},
		{"right, swapped to probe the large side", "SELECT count(*), count(d.k), sum(f.v) FROM d RIGHT JOIN f ON f.k = d.k AND d.grp < 3"},
		{"semi", "SELECT count(*), sum(v) FROM f WHERE k IN (SELECT k FROM d WHERE grp = 2)"},
		{"anti", "SELECT count(*), sum(v) FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.grp <> 2)"},
		{"residual", "SELECT count(*), sum(f.v) FROM f JOIN d ON f.k = d.k AND d.grp + f.v > 50"},
		// Joins that remember what each build row found: the last part
		// emits the build rows from what every part found.
		{"right", "SELECT count(*), count(f.id), count(d.k), sum(d.grp) FROM f RIGHT JOIN d ON f.k = d.k AND f.v < 50"},
		{"full", "SELECT count(*), count(f.id), count(d.k) FROM f FULL JOIN d ON f.k = d.k AND d.grp < 4"},
		{"semi building on the left", "SELECT count(*), sum(e.w) FROM e WHERE EXISTS (SELECT 1 FROM f WHERE f.v = e.k)"},
		{"anti building on the left", "SELECT count(*), sum(e.w) FROM e WHERE NOT EXISTS (SELECT 1 FROM f WHERE f.v = e.k AND f.id % 3 = 0)"},
		{"not in building on the left", "SELECT count(*) FROM e WHERE e.k NOT IN (SELECT f.v FROM f WHERE f.id > 10)"},
		{"not in with a null", "SELECT count(*) FROM e WHERE e.k NOT IN (SELECT CASE WHEN f.id = 77777 THEN NULL ELSE f.v END FROM f)"},
		{"mark building on the left", "SELECT count(*) FROM e WHERE e.k IN (SELECT f.v FROM f WHERE f.id < 1000) OR e.w = 1"},
		// Joins with no aggregation above: the join itself runs in parts.
		{"join rows", "SELECT f.id, d.grp, e.w FROM f JOIN d ON f.k = d.k LEFT JOIN e ON e.k = f.v WHERE f.v < 9"},
		{"join rows in order", "SELECT f.id, d.pad FROM f LEFT JOIN d ON f.k = d.k AND d.grp = 1 WHERE f.v = 3 ORDER BY f.id LIMIT 500"},
		{"parallel join as a build side", "SELECT e.w, count(*) FROM e JOIN (SELECT f.v, d.grp FROM f JOIN d ON f.k = d.k) j ON j.v = e.k GROUP BY e.w"},
		{"scalar subquery building on the left", "SELECT e.k, (SELECT f.s FROM f WHERE f.id = e.k * 600) FROM e"},
		// A build side of one file read by every worker of its scan.
		{"one-file build side", "SELECT f.v % 7, count(*), sum(b.v), max(b.s) FROM f JOIN b ON f.id = b.id + 30000 GROUP BY 1"},
		{"one-file build side, join rows", "SELECT f.id, b.s FROM f JOIN b ON f.id = b.id * 2 WHERE b.v < 3"},
		{"one-file build side, filtered", "SELECT count(*), sum(f.k) FROM f WHERE f.id IN (SELECT id FROM b WHERE s LIKE 'a%')"},
	}
	answers := func(procs int, mem string) [][]string {
		t.Helper()
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		run(t, s, "SET statement_mem = '"+mem+"'")
		var out [][]string
		for _, q := range queries {
			rows := queryRows(t, s, q.sql)
			sort.Strings(rows)
			out = append(out, rows)
		}
		return out
	}
	serial := answers(1, "1GB")
	check := func(procs int, mem string) {
		t.Helper()
		got := answers(procs, mem)
		for i, q := range queries {
			if strings.Join(got[i], "\n") != strings.Join(serial[i], "\n") {
				t.Errorf("%s on %d CPUs, statement_mem %s:\n%s\nserially:\n%s", q.name, procs, mem, strings.Join(got[i], "\n"), strings.Join(serial[i], "\n"))
			}
		}
		emptyDir(t, dir, "the joins under statement_mem "+mem)
	}
	check(3, "1GB")

	// A sort and an aggregation whose answer does not depend on its
	// input's order read the one file of b with every worker of its
	// scan; string_agg without ORDER BY reads it in file order.
	unordered := []string{
		"SELECT id, v FROM b WHERE v < 3 ORDER BY v DESC, id LIMIT 2000",
		"SELECT v % 5, count(DISTINCT s), count(DISTINCT v), sum(id) FROM b GROUP BY 1",
		"SELECT v % 2, md5(string_agg(s, ',')), md5(string_agg(s, ',' ORDER BY s)) FROM b GROUP BY 1",
		"SELECT md5(array_agg(id)::text) FROM b WHERE v <> 7",
	}
	procs0 := runtime.GOMAXPROCS(0)
	for _, q := range unordered {
		var want string
		for _, procs := range []int{1, 3} {
			runtime.GOMAXPROCS(procs)
			rows := queryRows(t, s, q)
			if !strings.Contains(q, "ORDER BY v DESC") {
				sort.Strings(rows) // groups come in no order
			}
			got := strings.Join(rows, "\n")
			if procs == 1 {
				want = got
			} else if got != want {
				t.Errorf("%s on %d CPUs:\n%s\nserially:\n%s", q, procs, got, want)
			}
		}
	}
	runtime.GOMAXPROCS(procs0)
	// The shared build side of d (60,000 rows of 64-byte texts) does not
	// fit in 2MB; alone, its join spills.
	check(3, "2MB")

	// A writer keeps the bytes of the rows it buffers past their batch's
	// release: the rows a parallel join hands it stay as they were.
	// A mark join hands over its probe batches' own columns.
	for _, q := range []string{
		"SELECT f.id, f.s, d.grp FROM f JOIN d ON f.k = d.k WHERE f.v <> 5",
		"SELECT f.id, f.s, (f.k IN (SELECT k FROM d WHERE grp = 3))::int AS grp FROM f",
	} {
		run(t, s, "DROP TABLE IF EXISTS w")
		run(t, s, "CREATE TABLE w (id bigint, s text, grp int)")
		run(t, s, "INSERT INTO w "+q)
		digest := "SELECT count(*), md5(string_agg(id || s || grp, ',' ORDER BY id)) FROM "
		written := queryRows(t, s, digest+"w")
		direct := queryRows(t, s, digest+"("+q+") j")
		if strings.Join(written, "") != strings.Join(direct, "") {
			t.Errorf("rows written from %s: %v; the join gives %v", q, written, direct)
		}
	}

	// The parts really share the joins: EXPLAIN shows the Gather over the
	// aggregations' parts, or over the join's; not over a join whose probe
	// side has too few rows to be worth the parts.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	run(t, s, "RESET statement_mem")
	small := "SELECT e.k, d.pad FROM e JOIN d ON d.k = e.k"
	for _, q := range append(queries, struct{ name, sql string }{"small", small}) {
		plan := strings.Join(queryRows(t, s, "EXPLAIN (COSTS OFF) "+q.sql), "\n")
		parallel := strings.Contains(plan, "Gather") && strings.Contains(plan, "Parallel Seq Scan on f")
		if parallel != (q.sql != small) {
			t.Errorf("%s: parallel %v in\n%s", q.name, parallel, plan)
		}
	}
	rows := "SELECT f.id, d.grp, e.w FROM f JOIN d ON f.k = d.k LEFT JOIN e ON e.k = f.v WHERE f.v < 9"
	got := strings.Join(queryRows(t, s, "EXPLAIN (COSTS OFF) "+rows), "\n")
	want := `Gather
  Workers Planned: 3
  ->  Hash Left Join
        Hash Cond: (f.v = e.k)
        ->  Hash Join
              Hash Cond: (f.k = d.k)
              ->  Parallel Seq Scan on f
                    Filter: (v < 9)
              ->  Hash
                    ->  Seq Scan on d
        ->  Hash
              ->  Seq Scan on e`
	if got != want {
		t.Errorf("EXPLAIN %s:\n%s\nwant\n%s", rows, got, want)
	}
	// A scalar subquery with two rows for an outer row fails in parallel
	// parts as serially, also when two parts each find one.
	for _, procs := range []int{1, 3} {
		runtime.GOMAXPROCS(procs)
		out := queryOutput(t, s, &datadriven.Case{Input: "SELECT e.k, (SELECT f.id FROM f WHERE f.k = e.k) FROM e"})
		if !strings.Contains(out, "error (21000): more than one row returned by a subquery used as an expression") {
			t.Errorf("on %d CPUs: %s", procs, out)
		}
	}
}
