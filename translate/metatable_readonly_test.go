package translate

import (
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
)

// TestMetadataTablesReadOnly checks that statements other than a query
// naming a metadata table say it is one (42809), in every spelling, and
// that names of no metadata table stay 42P01.
func TestMetadataTablesReadOnly(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, `CREATE TABLE mt (id int)`)
	run(t, s, `INSERT INTO mt VALUES (1)`)
	cases := []struct{ sql, code string }{
		{`INSERT INTO "mt$snapshots" VALUES (1)`, "42809"},
		{`INSERT INTO mt.snapshots VALUES (1)`, "42809"},
		{`DELETE FROM "mt$files"`, "42809"},
		{`UPDATE "mt$files" SET record_count = 1`, "42809"},
		{`TRUNCATE "mt$history"`, "42809"},
		{`DROP TABLE "mt$manifests"`, "42809"},
		{`INSERT INTO "mt$nokind" VALUES (1)`, "42P01"},
		{`INSERT INTO "absent$files" VALUES (1)`, "42P01"},
	}
	for _, c := range cases {
		out := queryOutput(t, s, &datadriven.Case{Input: c.sql})
		if !strings.HasPrefix(out, "error ("+c.code+")") {
			t.Errorf("%s: %q, want error %s", c.sql, out, c.code)
		}
	}
	if rows := queryRows(t, s, `SELECT count(*) FROM "mt$snapshots"`); len(rows) != 1 || rows[0] != "1" {
		t.Errorf("reading the metadata table: %q", rows)
	}
}
