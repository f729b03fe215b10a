package viewexec

import (
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestViewQueryText checks the query text cut from CREATE VIEW statements.
func TestViewQueryText(t *testing.T) {
	cases := []struct {
		stmt, want string
		recursive  bool
	}{
		{"CREATE VIEW v AS SELECT 1", "SELECT 1", false},
		{"create or replace view v (a, b) with (security_barrier) as\n  select 1 as x, 2 -- two\n", "select 1 as x, 2", false},
		{`CREATE VIEW "AS" AS SELECT 'AS' AS "as";`, `SELECT 'AS' AS "as"`, false},
		{"CREATE VIEW v AS /* why */ WITH t AS (SELECT 1 AS a) SELECT a FROM t", "/* why */ WITH t AS (SELECT 1 AS a) SELECT a FROM t", false},
		{"CREATE RECURSIVE VIEW r (n) AS VALUES (1) UNION ALL SELECT n + 1 FROM r", "VALUES (1) UNION ALL SELECT n + 1 FROM r", true},
	}
	for _, c := range cases {
		got, rec, err := viewQueryText(c.stmt)
		if err != nil || got != c.want || rec != c.recursive {
			t.Errorf("%q: %q %v %v, want %q %v", c.stmt, got, rec, err, c.want, c.recursive)
		}
	}
	if _, _, err := viewQueryText("CREATE VIEW v"); pgerr.Code(err) != pgerr.SyntaxError {
		t.Errorf("no AS: %v", err)
	}
}
