package translate

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
)

// TestCopyOnWriteRewritesOnlyMatchedFiles: a table of 100,000 rows in id
// order, its files rolled at a small write.target-file-size-bytes (many
// files, each a range of ids). A copy-on-write DELETE or UPDATE of 1% of
// the rows removes exactly the data files holding a matched row (as the
// hidden _file column names them before the statement), adds as many or
// fewer (an UPDATE one more, its new rows), and leaves every other file in
// the table untouched.
func TestCopyOnWriteRewritesOnlyMatchedFiles(t *testing.T) {
	const rows = 100000
	cases := []struct {
		name, stmt, where string
		// spread: the matched rows are in every file
		spread bool
		// extra: files added beyond those removed at most (an UPDATE
		// writes its new rows to a file of their own)
		extra int
	}{
		{name: "delete a range", stmt: "DELETE FROM t WHERE %s", where: "id BETWEEN 40001 AND 41000"},
		{name: "update a range", stmt: "UPDATE t SET v = v + 1 WHERE %s", where: "id BETWEEN 70001 AND 71000", extra: 1},
		{name: "delete 1% spread", stmt: "DELETE FROM t WHERE %s", where: "id % 100 = 0", spread: true},
		{name: "update 1% spread", stmt: "UPDATE t SET v = v + 1 WHERE %s", where: "id % 100 = 1", spread: true, extra: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, cat, _ := newWriteSession(t)
			mustRun(t, s, `CREATE TABLE t (id bigint, v int) TBLPROPERTIES ('format-version' = '2',
				'write.delete.mode' = 'copy-on-write', 'write.update.mode' = 'copy-on-write',
				'write.target-file-size-bytes' = '32768')`,
				fmt.Sprintf("INSERT INTO t SELECT g, g %% 7 FROM generate_series(1, %d) g", rows))
			before := queryRows(t, s, "SELECT DISTINCT _file FROM t")
			if len(before) < 10 {
				t.Fatalf("%d data files, want the rows rolled into at least 10", len(before))
			}
			matched := queryRows(t, s, "SELECT DISTINCT _file FROM t WHERE "+tc.where)
			if tc.spread != (len(matched) == len(before)) || len(matched) == 0 {
				t.Fatalf("matched rows in %d of %d files (spread %v)", len(matched), len(before), tc.spread)
			}
			mustRun(t, s, fmt.Sprintf(tc.stmt, tc.where))

			tbl, _ := dataFiles(t, cat, "t")
			sum := tbl.Metadata.CurrentSnapshot().Summary
			removed, _ := strconv.Atoi(sum["deleted-data-files"])
			added, _ := strconv.Atoi(sum["added-data-files"])
			if removed != len(matched) {
				t.Errorf("files removed %d, want the %d holding matched rows", removed, len(matched))
			}
			if added == 0 || added > removed+tc.extra {
				t.Errorf("files added %d for %d removed", added, removed)
			}
			after := queryRows(t, s, "SELECT DISTINCT _file FROM t")
			for _, f := range before {
				if slices.Contains(matched, f) == slices.Contains(after, f) {
					t.Errorf("file %s: matched %v, still in the table %v", f, slices.Contains(matched, f), slices.Contains(after, f))
				}
			}
			if len(after) != len(before)-removed+added {
				t.Errorf("files after %d, want %d - %d + %d", len(after), len(before), removed, added)
			}
			t.Logf("%d files, %d matched, %d removed, %d added", len(before), len(matched), removed, added)
		})
	}
}
