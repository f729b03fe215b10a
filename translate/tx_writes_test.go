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
