package parse

import (
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestRewriteAsOf checks which clauses the time-travel pass cuts out, the
// value it keeps, and that the rest of the text keeps its offsets.
func TestRewriteAsOf(t *testing.T) {
	cases := []struct {
		sql, out  string
		at        int32 // offset of the table name the clause follows
		value     string
		timestamp bool
		code      string
	}{
		{sql: "SELECT * FROM t VERSION AS OF 12", out: "SELECT * FROM t                 ", at: 14, value: "12"},
		{sql: "SELECT * FROM ns.t FOR SYSTEM_VERSION AS OF 'tag1' x", out: "SELECT * FROM ns.t                                 x", at: 14, value: "'tag1'"},
		{sql: "SELECT 1 FROM a.b.c TIMESTAMP AS OF TIMESTAMP '2024-01-01' WHERE true", out: "SELECT 1 FROM a.b.c                                        WHERE true", at: 14, value: "TIMESTAMP '2024-01-01'", timestamp: true},
		{sql: "select * from t for system_time as of (now() - interval '1 day')", out: "select * from t                                                 ", at: 14, value: "(now() - interval '1 day')", timestamp: true},
		{sql: "SELECT * FROM t FOR TIMESTAMP AS OF 1700000000", out: "SELECT * FROM t                               ", at: 14, value: "1700000000", timestamp: true},
		{sql: "SELECT 'VERSION AS OF 1' FROM t", out: "SELECT 'VERSION AS OF 1' FROM t"},
		{sql: "SELECT * FROM t VERSION AS OF", code: pgerr.SyntaxError},
		{sql: "SELECT * FROM t VERSION AS OF WHERE", code: pgerr.SyntaxError},
	}
	for _, c := range cases {
		out, clauses, err := RewriteAsOf(c.sql)
		if c.code != "" {
			if pe := pgerr.As(err); pe == nil || pe.Code != c.code {
				t.Errorf("%q: err %v, want %s", c.sql, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.sql, err)
			continue
		}
		if out != c.out {
			t.Errorf("%q: rewrote to %q, want %q", c.sql, out, c.out)
		}
		if c.value == "" {
			if len(clauses) != 0 {
				t.Errorf("%q: found clauses %v", c.sql, clauses)
			}
			continue
		}
		cl := clauses[c.at]
		if cl == nil || cl.Value != c.value || cl.Timestamp != c.timestamp {
			t.Errorf("%q: clause at %d = %+v, want value %q timestamp %v", c.sql, c.at, cl, c.value, c.timestamp)
		}
	}
}
