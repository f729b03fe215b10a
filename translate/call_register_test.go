package translate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRegisterTable: a table directory copied into the warehouse becomes a
// table again by register_table of one of its metadata files; its files
// resolve where the copy put them, and new writes go into the new table's
// directory.
func TestRegisterTable(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, "CREATE SCHEMA a")
	run(t, s, "CREATE SCHEMA b")
	run(t, s, "CREATE TABLE a.t (id int)")
	run(t, s, "INSERT INTO a.t VALUES (1), (2), (3)")
	// The copy keeps the tail t/data of the files' written paths.
	copyDir := filepath.Join(dir, "t")
	if out, err := exec.Command("cp", "-r", filepath.Join(dir, "a", "t"), copyDir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	run(t, s, "DROP TABLE a.t")
	meta := filepath.Join(copyDir, "metadata", "v2.metadata.json")
	if _, err := os.Stat(meta); err != nil {
		t.Fatal(err)
	}
	snap := queryRows(t, s, "CALL system.register_table(table => 'b.t2', metadata_file => '"+meta+"')")
	if len(snap) != 1 || !strings.HasSuffix(snap[0], "\t3\t1") {
		t.Fatalf("register_table: %v", snap)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id FROM b.t2 ORDER BY id"), ","); got != "1,2,3" {
		t.Errorf("rows: %s", got)
	}
	run(t, s, "INSERT INTO b.t2 VALUES (4)")
	if got := strings.Join(queryRows(t, s, "SELECT id FROM b.t2 ORDER BY id"), ","); got != "1,2,3,4" {
		t.Errorf("rows after an insert: %s", got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "b", "t2", "data", "*.parquet")); len(m) != 1 {
		t.Errorf("data files in the new directory: %v", m)
	}

	// A copy whose manifest list is missing registers nothing.
	broken := filepath.Join(dir, "u")
	if out, err := exec.Command("cp", "-r", copyDir, broken).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	lists, _ := filepath.Glob(filepath.Join(dir, "*", "metadata", "snap-*.avro"))
	for _, l := range lists {
		os.Remove(l)
	}
	for _, c := range []struct{ call, want string }{
		{"CALL system.register_table('b.t2', '" + meta + "')", "error (42P07)"},
		{"CALL system.register_table('b.t3', '" + filepath.Join(t.TempDir(), "v1.metadata.json") + "')", "error (42501)"},
		{"CALL system.register_table('b.t3', '" + filepath.Join(dir, "nope.metadata.json") + "')", "error (58P01)"},
		{"CALL system.register_table('b.t3', '" + filepath.Join(broken, "metadata", "v2.metadata.json") + "')", "error (58P01): manifest list"},
		{"CALL system.register_table('b.t3', 'relative/v1.metadata.json')", "error (22023)"},
	} {
		if got := statementOutput(s, c.call); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s, want %s", c.call, got, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b", "t3")); !os.IsNotExist(err) {
		t.Errorf("b.t3 was created: %v", err)
	}
}
