package translate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// snapshotIDs lists the table's snapshot ids, oldest first.
func snapshotIDs(t *testing.T, s *session, table string) []string {
	t.Helper()
	return queryRows(t, s, `SELECT snapshot_id FROM "`+table+`$snapshots" ORDER BY committed_at, snapshot_id`)
}

// wantTableState checks the rows of t (sorted ids) and that no data file
// is listed twice in t$files.
func wantTableState(t *testing.T, s *session, want string) {
	t.Helper()
	if got := strings.Join(queryRows(t, s, "SELECT id FROM t ORDER BY id"), ","); got != want {
		t.Errorf("rows: %s, want %s", got, want)
	}
	if dup := queryRows(t, s, `SELECT file_path FROM "t$files" GROUP BY file_path, content_offset HAVING count(*) > 1`); len(dup) > 0 {
		t.Errorf("data files listed twice: %v", dup)
	}
}

// TestCherrypickAncestorRefused: a snapshot that is already on main (an
// ancestor of its head, or main's head itself), or that was already
// cherry-picked onto main, is not applied again: 55000, and the table is
// unchanged.
func TestCherrypickAncestorRefused(t *testing.T) {
	cases := []struct {
		name  string
		setup []string
		pick  func(ids []string) string // the snapshot id to cherry-pick
		want  string                    // rows after
		msg   string
	}{
		{"older ancestor", []string{
			"INSERT INTO t VALUES (1), (2)", "DELETE FROM t WHERE id = 1", "INSERT INTO t VALUES (3)",
		}, func(ids []string) string { return ids[0] }, "2,3", "already an ancestor"},
		{"main's head", []string{
			"INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)",
		}, func(ids []string) string { return ids[1] }, "1,2", "already an ancestor"},
		{"already cherry-picked", []string{
			"ALTER TABLE t SET TBLPROPERTIES ('write.wap.enabled' = 'true')",
			"INSERT INTO t VALUES (1)",
			"SET iceberg.wap_id = 'w1'", "INSERT INTO t VALUES (2)", "RESET iceberg.wap_id",
			"INSERT INTO t VALUES (3)",
			"CALL system.publish_changes('t', 'w1')",
		}, func(ids []string) string { return ids[1] }, "1,2,3", "already picked"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, "CREATE TABLE t (id int)")
			for _, q := range c.setup {
				run(t, s, q)
			}
			ids := snapshotIDs(t, s, "t")
			before := len(ids)
			out := statementOutput(s, "CALL system.cherrypick_snapshot('t', "+c.pick(ids)+")")
			if !strings.HasPrefix(out, "error (55000)") || !strings.Contains(out, c.msg) {
				t.Errorf("cherry-pick: %s, want 55000 %q", out, c.msg)
			}
			wantTableState(t, s, c.want)
			if after := len(snapshotIDs(t, s, "t")); after != before {
				t.Errorf("%d snapshots after the refused cherry-pick, want %d", after, before)
			}
			// A later DELETE removes and reports the same rows.
			if out := statementOutput(s, "DELETE FROM t WHERE id = 2"); out != "DELETE 1" {
				t.Errorf("DELETE: %s", out)
			}
		})
	}
}

// TestPublishTwiceRefused: a WAP id whose changes are on main already
// (published by fast-forward or by cherry-picking) is not published
// again: 55000, rows not duplicated.
func TestPublishTwiceRefused(t *testing.T) {
	cases := []struct {
		name  string
		setup []string
		want  string
	}{
		{"fast-forward", []string{
			"INSERT INTO t VALUES (1)",
			"SET iceberg.wap_id = 'w1'", "INSERT INTO t VALUES (2)", "RESET iceberg.wap_id",
			"CALL system.publish_changes('t', 'w1')",
		}, "1,2"},
		{"cherry-picked", []string{
			"INSERT INTO t VALUES (1)",
			"SET iceberg.wap_id = 'w1'", "INSERT INTO t VALUES (2)", "RESET iceberg.wap_id",
			"INSERT INTO t VALUES (3)",
			"CALL system.publish_changes('t', 'w1')",
		}, "1,2,3"},
		{"cherry-picked, then main moved", []string{
			"INSERT INTO t VALUES (1)",
			"SET iceberg.wap_id = 'w1'", "INSERT INTO t VALUES (2)", "RESET iceberg.wap_id",
			"INSERT INTO t VALUES (3)",
			"CALL system.publish_changes('t', 'w1')",
			"INSERT INTO t VALUES (4)",
		}, "1,2,3,4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, "CREATE TABLE t (id int) TBLPROPERTIES ('write.wap.enabled' = 'true')")
			for _, q := range c.setup {
				run(t, s, q)
			}
			wantTableState(t, s, c.want)
			out := statementOutput(s, "CALL system.publish_changes('t', 'w1')")
			if !strings.HasPrefix(out, "error (55000)") || !strings.Contains(out, "published already") {
				t.Errorf("second publish: %s, want 55000 published already", out)
			}
			wantTableState(t, s, c.want)
		})
	}
}

// TestCatalogErrorFileLive: the catalog's refusal to list a file twice
// reaches clients as 55000, a concurrent writer's as 40001.
func TestCatalogErrorFileLive(t *testing.T) {
	for _, c := range []struct {
		err  error
		code string
	}{
		{fmt.Errorf("commit to db.t: data file x is already live: %w", catalog.ErrFileLive), "55000"},
		{fmt.Errorf("snapshot 1 added data file x: %w (%w)", catalog.ErrValidation, catalog.ErrCommitConflict), "40001"},
	} {
		if got := pgerr.Code(catalogError(c.err, kindTable, "t")); got != c.code {
			t.Errorf("%v: %s, want %s", c.err, got, c.code)
		}
	}
}
