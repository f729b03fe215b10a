package audit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		sql, kind string
	}{
		{"CREATE TABLE t (a int)", KindDDL},
		{"  /* c */ -- x\n drop table t", KindDDL},
		{"INSERT INTO t VALUES (1)", KindDML},
		{"(delete from t)", KindDML},
		{"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", KindDML},
		{"COPY t FROM STDIN", KindCopy},
		{"CALL system.expire_snapshots('t')", KindProcedure},
		{"SELECT 1", ""},
		{"WITH x AS (SELECT 1) SELECT * FROM x", ""},
		{"", ""},
	}
	for _, tc := range tests {
		kind, ok := Classify(tc.sql)
		if kind != tc.kind || ok != (tc.kind != "") {
			t.Errorf("Classify(%q) = %q, %v; want %q", tc.sql, kind, ok, tc.kind)
		}
	}
}

// TestAppend checks that records append to what the file holds, one JSON
// object a line, with the commits a context collected.
func TestAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte("{\"event\":\"earlier\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, fsync := range []string{FsyncCommit, FsyncAlways, FsyncNever} {
		l, err := Open(path, fsync)
		if err != nil {
			t.Fatal(err)
		}
		var c Commits
		ctx := WithCommits(context.Background(), &c)
		RecordCommit(ctx, Commit{Table: "s.t", SnapshotID: 42})
		RecordCommit(context.Background(), Commit{Table: "s.u", SnapshotID: 1}) // no collector: dropped
		if err := l.Write(Record{Event: EventStatement, Kind: KindDML, Statement: fsync, Outcome: "success", SQLState: "00000", Tables: c.Take()}); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(path, "sometimes"); err == nil {
		t.Error("an unknown fsync policy was accepted")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 4 || lines[0] != "{\"event\":\"earlier\"}" {
		t.Fatalf("file holds %q, want the earlier line and three records", lines)
	}
	for i, line := range lines[1:] {
		var r Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
		if len(r.Tables) != 1 || r.Tables[0] != (Commit{Table: "s.t", SnapshotID: 42}) || r.Time.IsZero() {
			t.Errorf("line %d: %+v", i+1, r)
		}
	}
}

// TestReopen rotates the log as logrotate does, moving the file away and
// then reopening: the moved file keeps the records written before, the
// new file gets those after, none lost or written twice.
func TestReopen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	l, err := Open(path, FsyncNever)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	write := func(stmt string) {
		t.Helper()
		if err := l.Write(Record{Event: EventStatement, Statement: stmt}); err != nil {
			t.Fatal(err)
		}
	}
	statements := func(path string) []string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			var r Record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s: line %q: %v", path, line, err)
			}
			out = append(out, r.Statement)
		}
		return out
	}
	write("a")
	write("b")
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	write("c") // after the move, before the reopen: still the moved file
	if err := l.Reopen(); err != nil {
		t.Fatal(err)
	}
	write("d")
	if got := strings.Join(statements(path+".1"), ","); got != "a,b,c" {
		t.Errorf("rotated file holds %s, want a,b,c", got)
	}
	if got := strings.Join(statements(path), ","); got != "d" {
		t.Errorf("new file holds %s, want d", got)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("new file: %v, mode %v; want 0600", err, st.Mode().Perm())
	}

	// A path that cannot be opened leaves the log on its file.
	if err := os.Rename(path, path+".2"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := l.Reopen(); err == nil {
		t.Fatal("Reopen onto a directory succeeded")
	}
	write("e")
	if got := strings.Join(statements(path+".2"), ","); got != "d,e" {
		t.Errorf("after a failed reopen the file holds %s, want d,e", got)
	}
}
