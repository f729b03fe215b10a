package translate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
)

type plainRow struct {
	ID int32  `parquet:"id"`
	S  string `parquet:"s"`
}

type badRow struct {
	ID string `parquet:"id"`
}

// writePlainParquet writes a Parquet file without Iceberg field ids.
func writePlainParquet[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := parquet.WriteFile(path, rows); err != nil {
		t.Fatal(err)
	}
}

// importedFiles lists the copies add_files made in t's data directory.
func importedFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "public", "t", "data", "imported-*"))
	return m
}

// TestAddFiles: plain Parquet files under a directory of the warehouse
// become the table's (copied into its data directory, matched by name);
// adding them again is refused unless check_duplicate_files is false; bad
// sources change nothing.
func TestAddFiles(t *testing.T) {
	s, cat, dir := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, s text)")
	src := filepath.Join(dir, "staging")
	writePlainParquet(t, filepath.Join(src, "a.parquet"), []plainRow{{1, "a"}, {2, "b"}, {3, "c"}})
	writePlainParquet(t, filepath.Join(src, "sub", "b.parquet"), []plainRow{{4, "d"}, {5, "e"}})
	if err := os.WriteFile(filepath.Join(src, "_SUCCESS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := callOutput(t, s, "CALL system.add_files(table => 't', source_table => '`parquet`.`"+src+"`')")
	if want := "added_files_count:bigint\tchanged_partition_count:bigint\n2\t1\nCALL"; !strings.HasPrefix(got, want) {
		t.Fatalf("add_files:\n%s\nwant\n%s", got, want)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id, s FROM t ORDER BY id"), ","); got != "1\ta,2\tb,3\tc,4\td,5\te" {
		t.Errorf("rows after add_files: %s", got)
	}
	tbl, err := cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"public"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if m := tbl.Metadata.Properties[catalog.NameMappingProperty]; m != `[{"field-id":1,"names":["id"]},{"field-id":2,"names":["s"]}]` {
		t.Errorf("name mapping %q", m)
	}
	if n := len(snapshotIDs(t, s, "t")); n != 1 {
		t.Errorf("%d snapshots, want the one append", n)
	}
	if _, err := os.Stat(filepath.Join(src, "a.parquet")); err != nil {
		t.Errorf("source file: %v", err)
	}

	before := len(importedFiles(t, dir))
	for _, c := range []struct{ call, want string }{
		{"CALL system.add_files('t', '`parquet`.`" + src + "`')", "error (55000): cannot add files that the table already holds"},
		{"CALL system.add_files('t', '`parquet`.`" + t.TempDir() + "`')", "error (42501): source path"},
		{"CALL system.add_files('t', '`parquet`.`" + filepath.Join(dir, "nope") + "`')", "error (58P01)"},
		{"CALL system.add_files('t', '`orc`.`" + src + "`')", "error (0A000): add_files of orc files"},
		{"CALL system.add_files('t', 'db.src')", "error (0A000): add_files from a table"},
		{"CALL system.add_files('t', '`parquet`.`" + src + "`', map('p', '1'))", "error (0A000): add_files with partition_filter"},
	} {
		if got := statementOutput(s, c.call); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s, want %s", c.call, got, c.want)
		}
	}
	// A file whose column does not read as the table's type: nothing is
	// added, and the copy of the good file before it is removed.
	bad := filepath.Join(dir, "bad")
	writePlainParquet(t, filepath.Join(bad, "1.parquet"), []plainRow{{6, "f"}})
	writePlainParquet(t, filepath.Join(bad, "2.parquet"), []badRow{{"x"}})
	if got := statementOutput(s, "CALL system.add_files('t', '`parquet`.`"+bad+"`')"); !strings.HasPrefix(got, `error (42804): column "id" of file`) {
		t.Errorf("bad file: %s", got)
	}
	if after := len(importedFiles(t, dir)); after != before {
		t.Errorf("%d imported files after the refused calls, want %d", after, before)
	}

	got = statementOutput(s, "CALL system.add_files(table => 't', source_table => '`parquet`.`"+filepath.Join(src, "a.parquet")+"`', check_duplicate_files => false)")
	if got != "CALL" {
		t.Errorf("add again: %s", got)
	}
	if got := queryRows(t, s, "SELECT count(*) FROM t"); got[0] != "8" {
		t.Errorf("count after adding a.parquet again: %s", got[0])
	}

	run(t, s, "CREATE TABLE p (id int, s text) PARTITIONED BY (id)")
	if got := statementOutput(s, "CALL system.add_files('p', '`parquet`.`"+src+"`')"); !strings.HasPrefix(got, "error (0A000): add_files into a partitioned table") {
		t.Errorf("partitioned: %s", got)
	}
}
