package translate

import (
	"strings"
	"testing"
)

// TestJoinOrderFromNDV: a fact table joined with three filtered
// dimensions and with a filtered table x on a column of ten distinct
// values. Without statistics the planner takes that column for x's key,
// so that x cuts the fact table down as a dimension does, and keeps the
// order written, joining x first; once compute_table_stats has recorded
// the distinct counts, the join on it (which multiplies the rows) comes
// last, after the dimensions have cut the fact table down.
func TestJoinOrderFromNDV(t *testing.T) {
	s, _, _ := newWriteSession(t)
	for _, q := range []string{
		"CREATE TABLE f (f_id bigint, f_g int, f_a int, f_b int, f_c int)",
		"CREATE TABLE x (x_id bigint, x_g int, xn text)",
		"CREATE TABLE d1 (a int, an text)",
		"CREATE TABLE d2 (b int, bn text)",
		"CREATE TABLE d3 (c int, cn text)",
		"INSERT INTO f SELECT g, g % 10, g % 100, g % 97, g % 89 FROM generate_series(1, 4000) g",
		"INSERT INTO x SELECT g, g % 10, 'n' || (g / 10 % 10) FROM generate_series(1, 400) g",
		"INSERT INTO d1 SELECT g, 'n' || (g % 10) FROM generate_series(0, 99) g",
		"INSERT INTO d2 SELECT g, 'n' || (g % 10) FROM generate_series(0, 96) g",
		"INSERT INTO d3 SELECT g, 'n' || (g % 10) FROM generate_series(0, 88) g",
	} {
		run(t, s, q)
	}
	const query = `EXPLAIN (FORMAT ICEGATE) SELECT count(*) FROM f, x, d1, d2, d3
		WHERE f_g = x_g AND f_a = a AND f_b = b AND f_c = c AND xn = 'n4' AND an = 'n1' AND bn = 'n2' AND cn = 'n3'`
	// lastJoin is the condition of the join built last (the plan's top).
	lastJoin := func() string {
		for _, l := range queryRows(t, s, query) {
			if i := strings.Index(l, "inner join on"); i >= 0 {
				return l[i:]
			}
		}
		t.Fatalf("no inner join in the plan")
		return ""
	}
	before := lastJoin()
	if strings.Contains(before, "x_g") {
		t.Fatalf("without statistics the last join is %q, want the order written (x joined first)", before)
	}
	for _, tbl := range []string{"f", "x", "d1", "d2", "d3"} {
		queryRows(t, s, "CALL system.compute_table_stats('"+tbl+"')")
	}
	if after := lastJoin(); !strings.Contains(after, "x_g") {
		t.Errorf("with distinct counts the last join is %q, want the join on x_g", after)
	}
}
