package translate

import (
	"testing"

	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// TestSinkSemiJoins checks that an IN / EXISTS filter over a join of the
// FROM clause moves next to the table its keys come from, and stays put
// where it cannot.
func TestSinkSemiJoins(t *testing.T) {
	s := keyPushSession(t)
	cases := []struct {
		name, sql string
		// below is the table the semi join's left input scans; "" when no
		// semi join may sink below the inner join.
		below string
		rows  int
	}{
		{"in over the join", `SELECT p.pk, i.qty FROM part p JOIN item i ON i.k = p.pk WHERE p.pk IN (SELECT a FROM pair WHERE avail < 30)`, "part", 207},
		{"exists over the join", `SELECT p.pk, i.qty FROM part p, item i WHERE i.k = p.pk AND EXISTS (SELECT 1 FROM pair r WHERE r.a = i.k AND r.avail < 30)`, "item", 207},
		{"condition over both sides", `SELECT p.pk FROM part p JOIN item i ON i.k = p.pk WHERE p.pk + i.qty IN (SELECT a FROM pair)`, "", 758},
		{"mark read elsewhere", `SELECT p.pk, p.pk IN (SELECT a FROM pair) FROM part p JOIN item i ON i.k = p.pk`, "", 890},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := boundRoot(t, s, c.sql)
			root := opt.Optimize(p.Root, opt.Config{})
			var sunk bool
			plan.Visit(root, func(n plan.Rel) {
				j, ok := n.(*plan.Join)
				if !ok || j.Typ != plan.JoinInner {
					return
				}
				for _, side := range []plan.Rel{j.Left, j.Right} {
					if sj, ok := side.(*plan.Join); ok && sj.Typ == plan.JoinSemi {
						if names := scanNames(sj.Left); len(names) == 1 && names[0] == c.below {
							sunk = true
						}
					}
				}
			})
			if sunk != (c.below != "") {
				t.Errorf("semi join below the inner join on %q: %v, want %v\n%s", c.below, sunk, c.below != "", withRoot(p, root).Render(nil))
			}
			if rows := queryRows(t, s, c.sql); len(rows) != c.rows {
				t.Errorf("%d rows, want %d (PostgreSQL's count over the same rows)", len(rows), c.rows)
			}
		})
	}
}
