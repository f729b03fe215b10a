package translate

import (
	"strings"
	"testing"
)

// TestReduceLeaves checks where semi joins against small filtered tables
// and conditions implied by an OR appear in the plans of joins of three
// tables, and that the answers stay PostgreSQL's.
func TestReduceLeaves(t *testing.T) {
	s := keyPushSession(t)
	cases := []struct {
		name, sql string
		want      []string // lines the plan must hold
		not       []string // lines it must not
		rows      string   // the single row of the answer, PostgreSQL's
	}{
		{
			name: "item restricted by the filtered part",
			sql:  `SELECT count(*), sum(i.qty) FROM item i, part p, pair r WHERE i.k = p.pk AND i.k2 = r.b AND p.brand = 'b1'`,
			want: []string{"semi join on (#"},
			rows: "2544\t15281",
		},
		{
			name: "part joined first restricts item through the join",
			sql:  `SELECT count(*) FROM part p, item i, pair r WHERE i.k = p.pk AND i.k2 = r.b AND p.brand = 'b1'`,
			not:  []string{"semi join"},
			rows: "2544",
		},
		{
			name: "an OR over two tables implies one per table",
			sql:  `SELECT count(*) FROM item i, part p, pair r WHERE i.k = p.pk AND i.k2 = r.b AND ((p.brand = 'b1' AND r.avail < 30) OR (p.brand = 'b2' AND r.avail > 290))`,
			want: []string{`in(#`, `brand, "b1", "b2")`, `avail < 30) or (`},
			rows: "331",
		},
		{
			name: "a condition that can fail is not copied",
			sql:  `SELECT count(*) FROM item i, part p, pair r WHERE i.k = p.pk AND i.k2 = r.b AND p.size <> 0 AND 100 / p.size > 30`,
			not:  []string{"semi join"},
			rows: "5748",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := boundRoot(t, s, c.sql)
			plan := planText(p)
			for _, w := range c.want {
				if !strings.Contains(plan, w) {
					t.Errorf("plan lacks %q:\n%s", w, plan)
				}
			}
			for _, w := range c.not {
				if strings.Contains(plan, w) {
					t.Errorf("plan has %q:\n%s", w, plan)
				}
			}
			if rows := queryRows(t, s, c.sql); len(rows) != 1 || rows[0] != c.rows {
				t.Errorf("rows %q, want %q", rows, c.rows)
			}
		})
	}
}
