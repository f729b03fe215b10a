package translate

import (
	"context"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

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
