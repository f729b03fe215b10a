package parse

import (
	"strings"
	"testing"
)

// TestRewriteMetaNames checks the text the four-part name pass hands the
// parser: same length, only names in table positions joined.
func TestRewriteMetaNames(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{"SELECT * FROM c.ns.t.snapshots", "SELECT * FROM c.ns.t$snapshots"},
		{"select * from C.NS.T.Snapshots s", "select * from C.NS.T$Snapshots s"},
		{`SELECT * FROM "c"."ns"."T"."snapshots"`, `SELECT * FROM "c"."ns"."T$snapshots"`},
		{`SELECT * FROM c.ns."T".files`, `SELECT * FROM c.ns."T$files"`},
		{`SELECT * FROM c.ns.t."FILES"`, `SELECT * FROM c.ns."t$FILES"`},
		{"SELECT * FROM c.ns.t . files VERSION AS OF 1", "SELECT * FROM c.ns.t$files VERSION AS OF 1"},
		{"SELECT * FROM a, c.ns.t.files, b JOIN c.ns.t.refs r ON true", "SELECT * FROM a, c.ns.t$files, b JOIN c.ns.t$refs r ON true"},
		{"SELECT * FROM x.y FOR SYSTEM_TIME AS OF now(), c.ns.t.history", "SELECT * FROM x.y FOR SYSTEM_TIME AS OF now(), c.ns.t$history"},
		{"SELECT (SELECT count(*) FROM c.ns.t.entries)", "SELECT (SELECT count(*) FROM c.ns.t$entries)"},
		{"TABLE c.ns.t.manifests", "TABLE c.ns.t$manifests"},
		{"COPY c.ns.t.refs (name) TO STDOUT", "COPY c.ns.t$refs (name) TO STDOUT"},
		{"SELECT * FROM c.ns.t.files(1)", "SELECT * FROM c.ns.t.files(1)"},
		// not table positions, not metadata tables, strings, comments
		{"SELECT c.ns.t.snapshots FROM c.ns.t", "SELECT c.ns.t.snapshots FROM c.ns.t"},
		{"SELECT a, c.ns.t.files FROM t", "SELECT a, c.ns.t.files FROM t"},
		{"SELECT * FROM t WHERE a IS DISTINCT FROM c.ns.t.files", "SELECT * FROM t WHERE a IS DISTINCT FROM c.ns.t.files"},
		{"SELECT extract(year from c.ns.t.history) FROM t", "SELECT extract(year from c.ns.t.history) FROM t"},
		{"SELECT * FROM t WHERE x = 1, c.ns.t.files", "SELECT * FROM t WHERE x = 1, c.ns.t.files"},
		{"SELECT * FROM c.ns.t.nope", "SELECT * FROM c.ns.t.nope"},
		{"SELECT * FROM a.c.ns.t.files", "SELECT * FROM a.c.ns.t.files"},
		{"SELECT 'FROM c.ns.t.files' FROM t", "SELECT 'FROM c.ns.t.files' FROM t"},
		{"SELECT 1 /* FROM c.ns.t.files */ FROM t -- FROM c.ns.t.files", "SELECT 1 /* FROM c.ns.t.files */ FROM t -- FROM c.ns.t.files"},
		{"SELECT * FROM E'x'.ns.t.files", "SELECT * FROM E'x'.ns.t.files"},
		{"SELECT $$ FROM c.ns.t.files $$ FROM t", "SELECT $$ FROM c.ns.t.files $$ FROM t"},
		{"SELECT * FROM c.ns.t.files AS f, c.ns.t.refs; SELECT c.ns.t.files FROM x", "SELECT * FROM c.ns.t$files AS f, c.ns.t$refs; SELECT c.ns.t.files FROM x"},
	} {
		got := RewriteMetaNames(c.sql, testConfig.IsMetaTable)
		if len(got) != len(c.sql) {
			t.Errorf("%s: length %d, want %d", c.sql, len(got), len(c.sql))
		}
		if g := strings.Join(strings.Fields(got), " "); g != strings.Join(strings.Fields(c.want), " ") {
			t.Errorf("%s:\n got %s\nwant %s", c.sql, g, c.want)
		}
	}
}
