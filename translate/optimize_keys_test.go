package translate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// keyPushSession is a session over a warehouse where item is much larger
// than part, pair and tag (so the estimates choose restricting item's
// aggregations to the keys looked up).
func keyPushSession(t *testing.T) *session {
	t.Helper()
	s, _, _ := newWriteSession(t)
	setup := `CREATE TABLE part (pk int, brand text, size int);
INSERT INTO part SELECT g, 'b' || (g % 5), g % 7 FROM generate_series(1, 40) g;
CREATE TABLE item (k int, k2 bigint, qty int);
INSERT INTO item SELECT g % 45, g % 7, g % 13 FROM generate_series(1, 1000) g;
CREATE TABLE pair (a int, b bigint, avail int);
INSERT INTO pair SELECT g % 41, g % 7, g * 3 FROM generate_series(1, 100) g;
CREATE TABLE tag (t text);
INSERT INTO tag VALUES ('a'), ('b')`
	if _, err := execAll(s, setup); err != nil {
		t.Fatal(err)
	}
	return s
}

// boundRoot binds one SELECT and returns its tree before optimize.
func boundRoot(t *testing.T, s *session, sql string) *plan.Select {
	t.Helper()
	stmts, err := s.Prepare(context.Background(), sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0].(*selectStatement)
	if err := st.ensureBound(); err != nil {
		t.Fatal(err)
	}
	return st.plan
}

// semiJoins lists the semi joins of r.
func semiJoins(r plan.Rel) []*plan.Join {
	var out []*plan.Join
	plan.Visit(r, func(n plan.Rel) {
		if j, ok := n.(*plan.Join); ok && j.Typ == plan.JoinSemi {
			out = append(out, j)
		}
	})
	return out
}

// scanNames lists the tables r scans, in tree order.
func scanNames(r plan.Rel) []string {
	var out []string
	plan.Visit(r, func(n plan.Rel) {
		if s, ok := n.(*plan.Scan); ok {
			out = append(out, s.Table.Ident.Name)
		}
	})
	return out
}

func TestRestrictKeysPlans(t *testing.T) {
	s := keyPushSession(t)
	cases := []struct {
		name string
		sql  string
		// source: the tables the key source scans (or alt); nil: no
		// rewrite.
		source, alt []string
		// left: the tables under the semi join's restricted side.
		left []string
		// in / out: text the key source's plan has / has not.
		in, out []string
	}{
		{name: "q17 shape",
			sql:    `SELECT sum(i.qty) FROM item i, part p WHERE p.pk = i.k AND p.brand = 'b1' AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM item i2 WHERE i2.k = p.pk)`,
			source: []string{"part"}, left: []string{"item"}, in: []string{`(#4:brand = "b1")`}},
		{name: "select list, count",
			sql:    `SELECT p.pk, (SELECT count(*) FROM item i WHERE i.k = p.pk) FROM part p WHERE p.size = 3`,
			source: []string{"part"}, left: []string{"item"}},
		{name: "two keys",
			sql:    `SELECT r.a, (SELECT sum(i.qty) FROM item i WHERE i.k = r.a AND i.k2 = r.b) FROM pair r WHERE r.avail < 30`,
			source: []string{"pair"}, left: []string{"item"}, in: []string{"(#3:k = #0:a)", "(#4:k2 = #1:b)"}},
		{name: "int outer key, bigint inner key",
			sql:    `SELECT p.pk, (SELECT count(*) FROM item i WHERE i.k2 = p.pk) FROM part p WHERE p.size = 2`,
			source: []string{"part"}, left: []string{"item"}, in: []string{"::int64"}},
		{name: "q20 shape: the IN subquery's key source",
			sql:    `SELECT r.a FROM pair r WHERE r.a IN (SELECT pk FROM part WHERE brand LIKE 'b2%') AND r.avail > (SELECT sum(i.qty) FROM item i WHERE i.k = r.a AND i.k2 = r.b)`,
			source: []string{"part"}, alt: []string{"pair", "part"}, left: []string{"item"}, in: []string{`like "b2%"`}},
		{name: "q02 shape: restricted below the subquery's joins",
			sql:    `SELECT p.pk FROM part p WHERE p.size = 3 AND p.pk = (SELECT min(i.k) FROM item i, tag t WHERE i.k = p.pk AND t.t = 'a')`,
			source: []string{"part"}, left: []string{"item"}},
		{name: "grouped derived table",
			sql:    `SELECT p.pk, x.s FROM part p JOIN (SELECT k, sum(qty) AS s FROM item GROUP BY k) x ON x.k = p.pk WHERE p.brand = 'b3'`,
			source: []string{"part"}, left: []string{"item"}},
		{name: "conditions that may fail stay out",
			sql:    `SELECT p.pk, (SELECT count(*) FROM item i WHERE i.k = p.pk) FROM part p WHERE p.brand = 'b2' AND 10 / (p.size + 1) > 2 AND random() < 2`,
			source: []string{"part"}, left: []string{"item"}, in: []string{`"b2"`}, out: []string{"/", "random"}},
		{name: "outer as large as the aggregated table",
			sql: `SELECT i.k, (SELECT count(*) FROM item i2 WHERE i2.k = i.k) FROM item i`},
		{name: "outer key from a left join's nullable side",
			sql: `SELECT t.t, (SELECT count(*) FROM item i WHERE i.k = p.pk) FROM tag t LEFT JOIN part p ON p.pk = length(t.t)`},
		{name: "outer key expression that may fail",
			sql: `SELECT p.pk, (SELECT count(*) FROM item i WHERE i.k = p.pk + 1) FROM part p WHERE p.size = 3`},
		{name: "NOT IN over a grouped subquery is null-aware",
			sql: `SELECT p.pk FROM part p WHERE p.size = 3 AND p.pk NOT IN (SELECT k FROM item GROUP BY k)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := boundRoot(t, s, c.sql)
			root := opt.Optimize(p.Root, opt.Config{})
			semis := semiJoins(root)
			if c.source == nil {
				if len(semis) > 0 {
					t.Fatalf("want no rewrite, got\n%s", planText(p))
				}
				return
			}
			if len(semis) != 1 {
				t.Fatalf("want one semi join, got %d\n%s", len(semis), planText(p))
			}
			j := semis[0]
			if got := scanNames(j.Right); !slices.Equal(got, c.source) && (c.alt == nil || !slices.Equal(got, c.alt)) {
				t.Errorf("key source scans %v, want %v\n%s", got, c.source, planText(p))
			}
			if got := scanNames(j.Left); !slices.Equal(got, c.left) {
				t.Errorf("restricted side scans %v, want %v\n%s", got, c.left, planText(p))
			}
			text := strings.Join(withRoot(p, j).Render(nil), "\n")
			for _, w := range c.in {
				if !strings.Contains(text, w) {
					t.Errorf("semi join lacks %q:\n%s", w, text)
				}
			}
			for _, w := range c.out {
				if strings.Contains(text, w) {
					t.Errorf("semi join has %q:\n%s", w, text)
				}
			}
			// The key source reads copies of the outer query's scans at
			// their snapshots.
			outer := map[string]*plan.Scan{}
			plan.Visit(p.Root, func(n plan.Rel) {
				if s, ok := n.(*plan.Scan); ok {
					outer[s.Table.Ident.Name] = s
				}
			})
			plan.Visit(j.Right, func(n plan.Rel) {
				if s, ok := n.(*plan.Scan); ok {
					o := outer[s.Table.Ident.Name]
					if o == nil || o == s || o.Snapshot != s.Snapshot {
						t.Errorf("key source scan of %s is not a copy of the outer scan at its snapshot", s.Table.Ident.Name)
					}
				}
			})
			// Optimizing the optimized tree again adds nothing.
			if again := semiJoins(opt.Optimize(root, opt.Config{})); len(again) != 1 {
				t.Errorf("optimize twice: %d semi joins", len(again))
			}
		})
	}
}

// TestRestrictKeysAnswers checks answers the rewrite must not change: a
// count over no rows is 0 and NULL keys match nothing.
func TestRestrictKeysAnswers(t *testing.T) {
	s := keyPushSession(t)
	if _, err := execAll(s, `INSERT INTO part VALUES (NULL, 'b1', 3), (1000, 'b1', 3);
INSERT INTO item VALUES (NULL, 1, 5), (1000, NULL, NULL)`); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		sql  string
		want string
	}{
		{`SELECT p.pk, (SELECT count(*) FROM item i WHERE i.k = p.pk) AS n, (SELECT sum(i.qty) FROM item i WHERE i.k = p.pk) AS s FROM part p WHERE p.size = 3 AND (p.pk IS NULL OR p.pk >= 1000) ORDER BY 1`,
			"pk:integer\tn:bigint\ts:bigint\n1000\t1\tNULL\nNULL\t0\tNULL\nSELECT 2"},
		{`SELECT p.pk, (SELECT count(*) FROM item i WHERE i.k = p.pk AND i.qty > 100) AS n FROM part p WHERE p.pk = 10 ORDER BY 1`,
			"pk:integer\tn:bigint\n10\t0\nSELECT 1"},
		{`SELECT count(*) AS n FROM part p WHERE p.brand = 'b1' AND (SELECT count(*) FROM item i WHERE i.k = p.pk) > 20`,
			"n:bigint\n8\nSELECT 1"},
	}
	for _, c := range cases {
		p := boundRoot(t, s, c.sql)
		if len(semiJoins(opt.Optimize(p.Root, opt.Config{}))) == 0 {
			t.Errorf("%s: not rewritten:\n%s", c.sql, planText(p))
		}
		if got := queryOutput(t, s, &datadriven.Case{Pos: "answers", Input: c.sql}); got != c.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.sql, got, c.want)
		}
	}
}

// withRoot is p with another tree, to render it.
func withRoot(p *plan.Select, root plan.Rel) *plan.Select {
	n := *p
	n.Root = root
	return &n
}
