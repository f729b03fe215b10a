package translate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestSharedCTEPlans checks which WITH queries are computed once and
// shared (a "CTE" node and "CTE scan" references in the plan) and which
// are inlined, as PostgreSQL decides: shared when referenced more than
// once or written AS MATERIALIZED, inlined when referenced once, written
// AS NOT MATERIALIZED, recursive, or reading an enclosing query's row.
func TestSharedCTEPlans(t *testing.T) {
	s := newTestSession(t)
	const fruit = "iceberg.duckdb__fruit"
	tests := []struct {
		name        string
		sql         string
		ctes, scans int
	}{
		{"self-join", "WITH c AS (SELECT id, name FROM " + fruit + ") SELECT a.name FROM c a JOIN c b ON a.id = b.id", 1, 2},
		{"referenced once", "WITH c AS (SELECT id FROM " + fruit + ") SELECT * FROM c WHERE id > 1", 0, 0},
		{"materialized", "WITH c AS MATERIALIZED (SELECT id FROM " + fruit + ") SELECT * FROM c WHERE id > 1", 1, 1},
		{"not materialized", "WITH c AS NOT MATERIALIZED (SELECT id FROM " + fruit + ") SELECT * FROM c a, c b", 0, 0},
		{"and in a scalar subquery", "WITH c AS (SELECT id FROM " + fruit + ") SELECT * FROM c WHERE id = (SELECT max(id) FROM c)", 1, 1},
		{"only in subqueries", "SELECT (WITH c AS (SELECT id FROM " + fruit + ") SELECT count(*) FROM c) + (SELECT 1)", 0, 0},
		{"twice inside a subquery", "SELECT * FROM (WITH c AS (SELECT id FROM " + fruit + ") SELECT count(*) AS n FROM c, c c2) s", 1, 2},
		{"never referenced", "WITH c AS (SELECT id FROM " + fruit + ") SELECT 1", 0, 0},
		{"hidden by an inner WITH", "WITH c AS (SELECT 1 AS x) SELECT (WITH c AS (SELECT 2 AS x) SELECT x FROM c) FROM c", 0, 0},
		{"one reading another", "WITH a AS (SELECT id FROM " + fruit + "), b AS (SELECT x.id FROM a x JOIN a y ON x.id = y.id) SELECT * FROM b, b b2", 2, 4},
		{"referenced from a later WITH query only", "WITH a AS (SELECT id FROM " + fruit + "), b AS (SELECT id FROM a) SELECT * FROM b UNION ALL SELECT * FROM a", 1, 2},
		{"recursive", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r a, r b", 0, 0},
		{"in a recursive WITH", "WITH RECURSIVE c AS (SELECT id FROM " + fruit + "), r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r, c, c c2", 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := bindOutput(s, tc.sql)
			if strings.HasPrefix(plan, "error") {
				t.Fatalf("%s: %s", tc.sql, plan)
			}
			scans := strings.Count(plan, "└ CTE scan ")
			ctes := strings.Count(plan, "└ CTE ") - scans
			if ctes != tc.ctes || scans != tc.scans {
				t.Errorf("%s: %d shared WITH queries, %d references; want %d, %d\n%s", tc.sql, ctes, scans, tc.ctes, tc.scans, plan)
			}
		})
	}
}

// TestSharedCTEAnswers runs queries with shared WITH queries and the same
// queries with them inlined (AS NOT MATERIALIZED): the rows must agree.
// Each runs twice in the session.
func TestSharedCTEAnswers(t *testing.T) {
	s := newTestSession(t)
	const li = "iceberg.duckdb__lineitem_iceberg"
	queries := []string{
		"WITH r AS %s (SELECT l_suppkey, sum(l_extendedprice) AS total FROM " + li + " GROUP BY l_suppkey) SELECT l_suppkey, total FROM r WHERE total = (SELECT max(total) FROM r)",
		"WITH c AS %s (SELECT l_orderkey, l_linenumber FROM " + li + " WHERE l_orderkey < 100) SELECT a.l_orderkey, b.l_linenumber FROM c a JOIN c b ON a.l_orderkey = b.l_orderkey",
		"WITH c AS %s (SELECT l_orderkey FROM " + li + " ORDER BY l_orderkey DESC LIMIT 5) SELECT * FROM c UNION ALL SELECT l_orderkey + 1 FROM c",
		"WITH c AS %s (SELECT l_orderkey, l_quantity FROM " + li + " WHERE l_orderkey < 50) SELECT l_orderkey, (SELECT count(*) FROM c c2 WHERE c2.l_orderkey = c.l_orderkey) FROM c",
		"WITH c AS %s (SELECT l_orderkey FROM " + li + " WHERE l_orderkey < 20) SELECT count(*) FROM " + li + " l WHERE l.l_orderkey IN (SELECT l_orderkey FROM c) AND EXISTS (SELECT 1 FROM c WHERE c.l_orderkey = l.l_orderkey + 1)",
	}
	run := func(sql string) [][]string {
		t.Helper()
		var runs [][]string
		for i := 0; i < 2; i++ {
			out := queryOutput(t, s, &datadriven.Case{Input: sql, Args: []string{"rowsort"}})
			runs = append(runs, strings.Split(out, "\n"))
		}
		return runs
	}
	for _, q := range queries {
		shared := run(strings.Replace(q, "%s", "", 1))
		inlined := run(strings.Replace(q, "%s", "NOT MATERIALIZED", 1))
		if len(shared[0]) < 3 {
			t.Errorf("%s: too few rows to tell anything:\n%s", q, strings.Join(shared[0], "\n"))
		}
		for i := range shared {
			if !slices.Equal(shared[i], inlined[0]) {
				t.Errorf("%s: execution %d:\n%s\nwant (inlined):\n%s", q, i+1, strings.Join(shared[i], "\n"), strings.Join(inlined[0], "\n"))
			}
		}
	}
}

// TestSharedCTEPreparedTwice executes one prepared statement twice: each
// execution computes the shared result anew and reads all of it.
func TestSharedCTEPreparedTwice(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	sql := "WITH c AS (SELECT l_orderkey FROM iceberg.duckdb__lineitem_iceberg WHERE l_orderkey < $1) SELECT count(*) FROM c a JOIN c b ON a.l_orderkey = b.l_orderkey"
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	str := func(v string) *string { return &v }
	var counts []string
	for _, limit := range []string{"10", "10", "100"} {
		rows, err := stmts[0].Execute(ctx, []*string{str(limit)})
		if err != nil {
			t.Fatal(err)
		}
		b, err := rows.Next(ctx)
		if err != nil || b == nil {
			t.Fatalf("execute with %s: batch %v, err %v", limit, b, err)
		}
		counts = append(counts, valueText(b.Column(0), 0))
		rows.Close()
	}
	if counts[0] != counts[1] || counts[0] == counts[2] || counts[0] == "0" {
		t.Errorf("counts %v: want the first two equal, non-zero, and the third different", counts)
	}
}

// TestSharedCTEMemoryLimit: the rows a shared WITH query holds count
// against statement_mem.
func TestSharedCTEMemoryLimit(t *testing.T) {
	s := newTestSession(t)
	if _, err := execAll(s, "SET statement_mem = '64kB'"); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"WITH c AS MATERIALIZED (SELECT l_comment FROM iceberg.duckdb__lineitem_iceberg) SELECT count(*) FROM c",
		"WITH c AS (SELECT l_comment FROM iceberg.duckdb__lineitem_iceberg) SELECT count(*) FROM c WHERE l_comment > (SELECT min(l_comment) FROM c)",
	} {
		out := queryOutput(t, s, &datadriven.Case{Input: sql})
		if !strings.Contains(out, "error ("+pgerr.OutOfMemory+")") {
			t.Errorf("%s: %s; want error 53200", sql, out)
		}
	}
	if _, err := execAll(s, "SET statement_mem = '1GB'"); err != nil {
		t.Fatal(err)
	}
	out := queryOutput(t, s, &datadriven.Case{Input: "WITH c AS MATERIALIZED (SELECT l_comment FROM iceberg.duckdb__lineitem_iceberg) SELECT count(*) FROM c"})
	if strings.Contains(out, "error") {
		t.Errorf("with 1GB: %s", out)
	}
}
