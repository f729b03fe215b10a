package translate

import (
	"context"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// tableFiles lists every file under dir.
func tableFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !strings.HasPrefix(d.Name(), ".icegate-writes-") { // a gateway's write record
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestTxRollbackLeavesNoFiles: a block's staged writes (data files,
// staged manifests) are gone after ROLLBACK, after ROLLBACK TO SAVEPOINT,
// and when the session ends inside the block; COMMIT leaves only what the
// committed snapshot references plus its metadata.
func TestTxRollbackLeavesNoFiles(t *testing.T) {
	cases := []struct {
		name string
		sqls []string
		end  func(s *session)
	}{
		{"rollback", []string{"BEGIN", "INSERT INTO t VALUES (1), (2)", "INSERT INTO t SELECT id + 10 FROM t", "ROLLBACK"}, nil},
		{"rollback to savepoint", []string{"BEGIN", "SAVEPOINT a", "INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)", "ROLLBACK TO SAVEPOINT a", "COMMIT"}, nil},
		{"session ends in block", []string{"BEGIN", "INSERT INTO t VALUES (1)"}, func(s *session) { _ = s.Close() }},
		{"created table rolled back", []string{"BEGIN", "CREATE TABLE u (id int)", "INSERT INTO u VALUES (1)", "ALTER TABLE u ADD COLUMN v text",
			"INSERT INTO u VALUES (2, 'b')", "ROLLBACK"}, nil},
		{"created table rolled back to savepoint", []string{"BEGIN", "SAVEPOINT a", "CREATE TABLE u (id int)", "INSERT INTO u VALUES (1)",
			"ROLLBACK TO SAVEPOINT a", "COMMIT"}, nil},
		{"altered table rolled back", []string{"BEGIN", "INSERT INTO t VALUES (1)", "ALTER TABLE t ADD COLUMN v text", "INSERT INTO t VALUES (2, 'b')", "ROLLBACK"}, nil},
		{"session ends with a created table", []string{"BEGIN", "CREATE TABLE u (id int)", "INSERT INTO u VALUES (1)"}, func(s *session) { _ = s.Close() }},
		{"failed block committed", []string{"BEGIN", "INSERT INTO t VALUES (1)", "SELECT 1/0", "COMMIT"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, dir := newWriteSession(t)
			run(t, s, "CREATE TABLE t (id int)")
			before := tableFiles(t, dir)
			for _, q := range c.sqls {
				_ = statementOutput(s, q)
			}
			if c.end != nil {
				c.end(s)
			}
			after := tableFiles(t, dir)
			if len(after) != len(before) {
				t.Errorf("files before: %d, after: %d:\n%v", len(before), len(after), after)
			}
		})
	}
}

// TestTxCommitOneSnapshot: two sessions; the block's writes are invisible
// to the other session until COMMIT, then appear at once as one snapshot.
func TestTxCommitOneSnapshot(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int)")
	other, err := s.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	o := other.(*session)
	for _, q := range []string{"BEGIN", "INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)"} {
		run(t, s, q)
	}
	if got := queryRows(t, o, "SELECT count(*) FROM t"); got[0] != "0" {
		t.Fatalf("other session sees %v rows before COMMIT", got)
	}
	if got := queryRows(t, s, "SELECT count(*) FROM t"); got[0] != "2" {
		t.Fatalf("block sees %v rows of its own", got)
	}
	run(t, s, "COMMIT")
	if got := queryRows(t, o, "SELECT count(*) FROM t"); got[0] != "2" {
		t.Fatalf("other session sees %v rows after COMMIT", got)
	}
	if got := queryRows(t, o, `SELECT count(*) FROM "t$snapshots"`); got[0] != "1" {
		t.Fatalf("%v snapshots after COMMIT, want 1", got)
	}
}

// TestTxWriteSequences: any sequence of writes to one table in a block
// commits as one snapshot whose rows are those of the same statements run
// one by one outside a block (INSERT then DELETE once failed at COMMIT
// with 40001 naming the table's own earlier snapshot). Each sequence runs
// on copy-on-write and merge-on-read tables of format 2 and 3.
func TestTxWriteSequences(t *testing.T) {
	seqs := []struct {
		name  string
		steps []string
		want  string // the rows when the steps run one by one are not it
	}{
		{"insert, delete", []string{"INSERT INTO t VALUES (4, 40)", "DELETE FROM t WHERE id IN (1, 4)"}, ""},
		{"insert, delete of old rows only", []string{"INSERT INTO t VALUES (4, 40)", "DELETE FROM t WHERE id = 2"}, ""},
		{"insert, update", []string{"INSERT INTO t VALUES (4, 40)", "UPDATE t SET v = v + 1 WHERE id >= 2"}, ""},
		{"insert, merge", []string{"INSERT INTO t VALUES (4, 40)",
			"MERGE INTO t USING (VALUES (4, 0), (5, 50), (1, 1)) s(id, v) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)"}, ""},
		{"update, update", []string{"UPDATE t SET v = v + 1 WHERE id <= 2", "UPDATE t SET v = v * 10 WHERE id >= 2"}, ""},
		{"delete, insert", []string{"DELETE FROM t WHERE id = 1", "INSERT INTO t VALUES (1, 11)"}, ""},
		{"copy, delete", []string{"COPY t FROM STDIN\n4\t40\n5\t50", "DELETE FROM t WHERE id IN (3, 4)"}, ""},
		{"insert, delete, insert, update", []string{"INSERT INTO t VALUES (4, 40)", "DELETE FROM t WHERE id = 4",
			"INSERT INTO t VALUES (5, 50)", "UPDATE t SET v = 0 WHERE id IN (1, 5)"}, ""},
		{"delete, delete", []string{"DELETE FROM t WHERE id = 1", "DELETE FROM t WHERE id = 2"}, ""},
		{"savepoint rolled back", []string{"INSERT INTO t VALUES (4, 40)", "SAVEPOINT a", "DELETE FROM t WHERE id = 4",
			"ROLLBACK TO SAVEPOINT a", "UPDATE t SET v = 1 WHERE id = 4"},
			"1\t10;2\t20;3\t30;4\t1"}, // the rolled back DELETE never happened
		{"savepoint released", []string{"INSERT INTO t VALUES (4, 40)", "SAVEPOINT a", "DELETE FROM t WHERE id IN (2, 4)",
			"RELEASE SAVEPOINT a", "INSERT INTO t VALUES (6, 60)"}, ""},
	}
	tables := []struct{ name, props string }{
		{"v2 copy-on-write", "'format-version' = '2'"},
		{"v2 merge-on-read", "'format-version' = '2', 'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read', 'write.merge.mode' = 'merge-on-read'"},
		{"v3 copy-on-write", "'format-version' = '3'"},
		{"v3 merge-on-read", "'format-version' = '3', 'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read', 'write.merge.mode' = 'merge-on-read'"},
	}
	step := func(t *testing.T, s *session, q string) {
		t.Helper()
		var out string
		if strings.HasPrefix(q, "COPY") {
			out = copyOutput(t, s, q)
		} else {
			out = statementOutput(s, q)
		}
		if strings.HasPrefix(out, "error") {
			t.Fatalf("%s: %s", q, out)
		}
	}
	for _, tb := range tables {
		for _, sq := range seqs {
			t.Run(tb.name+"/"+sq.name, func(t *testing.T) {
				s, _, _ := newWriteSession(t)
				setup := func() {
					run(t, s, "DROP TABLE IF EXISTS t")
					run(t, s, "CREATE TABLE t (id int, v int) TBLPROPERTIES ("+tb.props+")")
					run(t, s, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
				}
				rows := func() string {
					return strings.Join(queryRows(t, s, "SELECT id, v FROM t ORDER BY id, v"), ";")
				}
				setup()
				if sq.want == "" {
					for _, q := range sq.steps {
						if !strings.Contains(q, "SAVEPOINT") {
							step(t, s, q)
						}
					}
				}
				want := rows()
				if sq.want != "" {
					want = sq.want
				}
				setup()
				before := len(snapshotIDs(t, s, "t"))
				run(t, s, "BEGIN")
				for _, q := range sq.steps {
					step(t, s, q)
				}
				if out := statementOutput(s, "COMMIT"); out != "COMMIT" {
					t.Fatalf("COMMIT: %s", out)
				}
				if got := rows(); got != want {
					t.Errorf("after the block: %s\nrun one by one: %s", got, want)
				}
				if after := len(snapshotIDs(t, s, "t")); after != before+1 {
					t.Errorf("%d snapshots after the block, want %d", after, before+1)
				}
				if dup := queryRows(t, s, `SELECT file_path FROM "t$files" GROUP BY file_path, content_offset HAVING count(*) > 1`); len(dup) > 0 {
					t.Errorf("data files listed twice: %v", dup)
				}
				if strings.HasPrefix(tb.name, "v3") {
					if dup := queryRows(t, s, "SELECT _row_id FROM t GROUP BY _row_id HAVING count(*) > 1"); len(dup) > 0 {
						t.Errorf("row ids shared by rows: %v", dup)
					}
				}
			})
		}
	}
}
