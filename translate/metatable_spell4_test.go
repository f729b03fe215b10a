package translate

import (
	"context"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
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
		got := parse.RewriteMetaNames(c.sql, bind.ParseConfig.IsMetaTable)
		if len(got) != len(c.sql) {
			t.Errorf("%s: length %d, want %d", c.sql, len(got), len(c.sql))
		}
		if g := strings.Join(strings.Fields(got), " "); g != strings.Join(strings.Fields(c.want), " ") {
			t.Errorf("%s:\n got %s\nwant %s", c.sql, g, c.want)
		}
	}
}

// TestFourPartMetadataNames reads metadata tables through catalog.ns.t.kind
// with time travel, quoted parts and a wrong catalog.
func TestFourPartMetadataNames(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	const tbl = "icegate.iceberg.lithium__partition_evolution" // 3 snapshots, 7 data files
	for _, c := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM " + tbl + ".snapshots", 3},
		{"SELECT count(*) FROM " + tbl + ".files", 7},
		{"SELECT count(*) FROM " + tbl + "$files", 7},
		{"SELECT count(*) FROM " + tbl + ".files VERSION AS OF 6593870062034330780", 6},
		{"SELECT count(*) FROM " + tbl + ".data_files FOR SYSTEM_VERSION AS OF 5032402648663831776", 0},
		{`SELECT count(*) FROM "icegate"."iceberg"."lithium__partition_evolution"."history" h`, 3},
		{`SELECT count(*) FROM icegate.iceberg."lithium__partition_evolution".REFS WHERE name = 'main'`, 1},
		{"SELECT count(*) FROM " + tbl + ".snapshots s JOIN " + tbl + ".entries e ON e.snapshot_id = s.snapshot_id", 7},
		{"SELECT count(*) FROM (SELECT * FROM " + tbl + ".manifests) m", 2},
	} {
		got, err := runCount(ctx, t, s, c.q)
		if err != nil {
			t.Errorf("%s: %v (%s)", c.q, err, pgerr.Code(err))
			continue
		}
		if got != c.want {
			t.Errorf("%s: %d, want %d", c.q, got, c.want)
		}
	}
	for _, c := range []struct{ q, code string }{
		{"SELECT * FROM other.iceberg.lithium__partition_evolution.snapshots", pgerr.FeatureNotSupported},
		{"SELECT * FROM icegate.nons.lithium__partition_evolution.snapshots", pgerr.UndefinedTable},
		{"SELECT * FROM icegate.iceberg.lithium__partition_evolution.nope", pgerr.SyntaxError},
		{"SELECT * FROM " + tbl + ".snapshots VERSION AS OF 6593870062034330780", pgerr.FeatureNotSupported},
	} {
		_, err := runCount(ctx, t, s, c.q)
		if pgerr.Code(err) != c.code {
			t.Errorf("%s: %v (%s), want %s", c.q, err, pgerr.Code(err), c.code)
		}
	}
}
