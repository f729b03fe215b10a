package translate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
)

// TestTimeTravelAfterExpire: reading an expired snapshot, by id or by a
// time before the oldest snapshot left, is 22023 naming the oldest one
// left; the snapshots left still read.
func TestTimeTravelAfterExpire(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int)")
	for _, v := range []string{"1", "2", "3", "4"} {
		run(t, s, "INSERT INTO t VALUES ("+v+")")
		time.Sleep(3 * time.Millisecond) // distinct commit times
	}
	ids := snapshotIDs(t, s, "t")
	times := queryRows(t, s, `SELECT committed_at FROM "t$snapshots" ORDER BY committed_at, snapshot_id`)
	id := catalog.Identifier{Namespace: []string{"public"}, Name: "t"}
	if _, err := catalog.ExpireSnapshots(context.Background(), cat, id, catalog.ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 2}); err != nil {
		t.Fatal(err)
	}
	oldest := ids[2]
	for _, q := range []string{
		"SELECT count(*) FROM t VERSION AS OF " + ids[0],
		"SELECT count(*) FROM t FOR SYSTEM_VERSION AS OF " + ids[1],
		"SELECT count(*) FROM t FOR VERSION AS OF " + ids[1],
		"SELECT count(*) FROM iceberg.snapshot('t', " + ids[0] + ")",
		"SELECT count(*) FROM t TIMESTAMP AS OF '" + times[1] + "'",
		"SELECT count(*) FROM t FOR SYSTEM_TIME AS OF '" + times[0] + "'",
	} {
		out := statementOutput(s, q)
		if !strings.HasPrefix(out, "error (22023)") || !strings.Contains(out, "the oldest snapshot left is "+oldest) {
			t.Errorf("%s: %s", q, out)
		}
	}
	for q, want := range map[string]string{
		"SELECT count(*) FROM t VERSION AS OF " + ids[2]:            "3",
		"SELECT count(*) FROM t TIMESTAMP AS OF '" + times[3] + "'": "4",
		"SELECT count(*) FROM t":                                    "4",
		`SELECT count(*) FROM "t$snapshots"`:                        "2",
	} {
		if got := strings.Join(queryRows(t, s, q), ","); got != want {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
}
