package translate

import (
	"strings"
	"testing"
)

// TestJoinKeysRuntimeFilter: a hash join hands its build keys to the scan
// of its probe side, which skips row groups and pages without them
// (engine.JoinKeys). Every query must give the answer of the same query
// with the probe key behind an expression (l_orderkey + 0), which no scan
// can filter by; EXPLAIN ANALYZE must show the skipping where it applies.
func TestJoinKeysRuntimeFilter(t *testing.T) {
	s := newTestSession(t)
	const lm = "iceberg.impala__iceberg_lineitem_multiblock"
	// The key is l_orderkey, in the order the file was written.
	const skipped = "row groups 200 skipped 199"
	cases := []struct {
		name string
		sql  string // with %k (or %p) for the probe key l_orderkey (l_partkey)
		// shows: what EXPLAIN ANALYZE must show ("" for nothing).
		shows string
	}{
		{"inner join", "SELECT count(*), sum(l_linenumber) FROM " + lm + " l JOIN (VALUES (3), (5)) v(k) ON %k = v.k", skipped},
		{"IN subquery", "SELECT count(*) FROM " + lm + " l WHERE %k IN (SELECT k FROM (VALUES (3), (7), (NULL::int)) v(k))", skipped},
		{"positions, a deleted row left out", "SELECT _pos, l_linenumber FROM " + lm + " l JOIN (VALUES (3)) v(k) ON %k = v.k ORDER BY _pos", skipped},
		{"_deleted keeps every row", "SELECT _pos, _deleted FROM " + lm + " l JOIN (VALUES (3)) v(k) ON %k = v.k ORDER BY _pos", ""},
		{"grouped probe side", "SELECT a.o, a.n FROM (SELECT %k AS o, count(*) AS n FROM " + lm + " l GROUP BY l_orderkey) a JOIN (VALUES (3), (4)) v(k) ON a.o = v.k ORDER BY 1", ""},
		{"left join keeps the probe rows", "SELECT count(*), count(v.k) FROM " + lm + " l LEFT JOIN (VALUES (3)) v(k) ON %k = v.k", ""},
		{"anti join keeps the probe rows", "SELECT count(*) FROM " + lm + " l WHERE NOT EXISTS (SELECT 1 FROM (VALUES (3)) v(k) WHERE v.k = %k)", ""},
		{"no build rows", "SELECT count(*) FROM " + lm + " l JOIN (SELECT k FROM (VALUES (3)) v(k) WHERE k > 10) v ON %k = v.k", ""},
		{"correlated", "SELECT v.k, (SELECT count(*) FROM " + lm + " l JOIN (VALUES (v.k), (v.k + 1)) w(x) ON %k = w.x) FROM (VALUES (3), (9)) v(k) ORDER BY 1", ""},
	}
	cases = append(cases, struct {
		name, sql, shows string
	}{"unsorted key under an aggregation", "SELECT count(*), sum(a.q) FROM (SELECT %p AS p, sum(l_quantity) AS q FROM " + lm + " l GROUP BY l.l_partkey) a JOIN (SELECT DISTINCT l_partkey AS k FROM " + lm + " WHERE l_orderkey < 3000) v ON a.p = v.k", ""})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sql := strings.NewReplacer("%k", "l.l_orderkey", "%p", "l.l_partkey").Replace(c.sql)
			plain := strings.NewReplacer("%k", "(l.l_orderkey + 0)", "%p", "(l.l_partkey + 0)").Replace(c.sql)
			want := strings.Join(queryRows(t, s, plain), "|")
			got := strings.Join(queryRows(t, s, sql), "|")
			if got != want {
				t.Fatalf("%s:\n got %s\nwant %s", sql, got, want)
			}
			if want == "" {
				t.Fatalf("%s: no rows", sql)
			}
			if c.shows == "" {
				return
			}
			plan := strings.Join(queryRows(t, s, "EXPLAIN ANALYZE "+sql), "\n")
			if !strings.Contains(plan, c.shows) {
				t.Errorf("no %q in\n%s", c.shows, plan)
			}
		})
	}
}
