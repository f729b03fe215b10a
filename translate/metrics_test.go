package translate

import "testing"

// TestScanTotals: scans add the files they read and pruned, the row
// groups and the rows they produced to the backend's totals.
func TestScanTotals(t *testing.T) {
	s, _, _ := newWriteSession(t)
	mustRun(t, s, `CREATE TABLE st (id int)`, `INSERT INTO st VALUES (1), (2)`, `INSERT INTO st VALUES (10), (11)`)
	tot := &s.backend.scans
	type snap struct{ files, pruned, rows, groups int64 }
	read := func() snap {
		return snap{tot.Files.Load(), tot.FilesSkipped.Load(), tot.Rows.Load(), tot.RowGroups.Load()}
	}
	for _, tc := range []struct {
		sql  string
		want snap // the increase
	}{
		{"SELECT * FROM st", snap{2, 0, 4, 2}},
		{"SELECT * FROM st WHERE id = 10", snap{1, 1, 2, 1}}, // the first file's max is 2
	} {
		before := read()
		queryRows(t, s, tc.sql)
		after := read()
		got := snap{after.files - before.files, after.pruned - before.pruned, after.rows - before.rows, after.groups - before.groups}
		if got != tc.want {
			t.Errorf("%s: files, pruned, rows, row groups grew by %+v, want %+v", tc.sql, got, tc.want)
		}
	}
}
