package translate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/procedure"
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
		{"CALL system.add_files('t', '`parquet`.`" + src + "`', map('p', '1'))", `error (22023): partition_filter names "p", which is not a partition column`},
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
	if got := statementOutput(s, "CALL system.add_files('p', '`parquet`.`"+src+"`')"); !strings.HasPrefix(got, `error (22023): file "`) {
		t.Errorf("partitioned, files in no partition directory: %s", got)
	}
	run(t, s, "CREATE TABLE b (id int, s text) PARTITIONED BY (bucket(4, id))")
	if got := statementOutput(s, "CALL system.add_files('b', '`parquet`.`"+src+"`')"); !strings.HasPrefix(got, "error (0A000): add_files into a table partitioned by bucket") {
		t.Errorf("bucket-partitioned: %s", got)
	}
}

// TestAddFilesPartitioned: Hive-style files (column=value directories, the
// partition column not in the files) into a table partitioned by identity
// transforms; partition_filter picks directories.
func TestAddFilesPartitioned(t *testing.T) {
	s, _, dir := newWriteSession(t)
	src := filepath.Join(dir, "hive")
	writePlainParquet(t, filepath.Join(src, "region=eu", "day=2024-05-01", "a.parquet"), []plainRow{{1, "a"}, {2, "b"}})
	writePlainParquet(t, filepath.Join(src, "region=eu", "day=2024-05-02", "b.parquet"), []plainRow{{3, "c"}})
	writePlainParquet(t, filepath.Join(src, "region=us", "day=2024-05-01", "c.parquet"), []plainRow{{4, "d"}})
	writePlainParquet(t, filepath.Join(src, "region=__HIVE_DEFAULT_PARTITION__", "day=2024-05-01", "d.parquet"), []plainRow{{5, "e"}})
	run(t, s, "CREATE TABLE p (id int, s text, region text, day date) PARTITIONED BY (region, day)")
	got := callOutput(t, s, "CALL system.add_files('p', '`parquet`.`"+src+"`')")
	if want := "added_files_count:bigint\tchanged_partition_count:bigint\n4\t4\nCALL"; !strings.HasPrefix(got, want) {
		t.Fatalf("add_files:\n%s\nwant\n%s", got, want)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id, region, day FROM p ORDER BY id"), ","); got != "1\teu\t2024-05-01,2\teu\t2024-05-01,3\teu\t2024-05-02,4\tus\t2024-05-01,5\tNULL\t2024-05-01" {
		t.Errorf("rows: %s", got)
	}
	if got := queryRows(t, s, "SELECT count(*) FROM p WHERE region = 'eu' AND day = DATE '2024-05-01'"); got[0] != "2" {
		t.Errorf("pruned count: %s", got[0])
	}

	run(t, s, "CREATE TABLE q (id int, s text, region text NOT NULL, day date) PARTITIONED BY (region, day)")
	got = callOutput(t, s, "CALL system.add_files(table => 'q', source_table => '`parquet`.`"+src+"`', partition_filter => map('region', 'eu'))")
	if !strings.Contains(got, "\n2\t2\n") {
		t.Errorf("partition_filter: %s", got)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id FROM q ORDER BY id"), ","); got != "1,2,3" {
		t.Errorf("rows with partition_filter: %s", got)
	}
	if got := statementOutput(s, "CALL system.add_files('q', '`parquet`.`"+src+"`', check_duplicate_files => false)"); !strings.HasPrefix(got, "error (23502)") || !strings.Contains(got, "NOT NULL") {
		t.Errorf("NULL partition of a NOT NULL column: %s", got)
	}
	bad := filepath.Join(dir, "badhive")
	writePlainParquet(t, filepath.Join(bad, "region=eu", "day=May", "a.parquet"), []plainRow{{1, "a"}})
	if got := statementOutput(s, "CALL system.add_files('q', '`parquet`.`"+bad+"`')"); !strings.HasPrefix(got, `error (22P02): invalid partition value "May" for column "day"`) {
		t.Errorf("bad partition value: %s", got)
	}
}

// hookEnv runs hook before the n-th table load returns (1-based).
type hookEnv struct {
	*callEnv
	n, calls int
	hook     func()
}

func (e *hookEnv) Table(ctx context.Context, name string) (*catalog.Table, catalog.MutableCatalog, error) {
	t, mc, err := e.callEnv.Table(ctx, name)
	e.calls++
	if err == nil && e.calls == e.n {
		e.hook()
	}
	return t, mc, err
}

// TestAddFilesRaceAndCancel: add_files whose commit loses the race to an
// INSERT stages again and keeps both; one cancelled before its commit
// leaves the table as it was and removes the copies it made.
func TestAddFilesRaceAndCancel(t *testing.T) {
	s, cat, dir := newWriteSession(t)
	other, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, "CREATE TABLE t (id int, s text)")
	src := filepath.Join(dir, "staging")
	writePlainParquet(t, filepath.Join(src, "a.parquet"), []plainRow{{1, "a"}, {2, "b"}})
	p, _ := procedure.Lookup("add_files")
	args := procedure.Args{"table": "t", "source_table": "`parquet`.`" + src + "`", "check_duplicate_files": true}

	// The second load is the commit's: another session inserts after it.
	env := &hookEnv{callEnv: &callEnv{sess: s, now: time.Now()}, n: 2, hook: func() {
		if out := statementOutput(other.(*session), "INSERT INTO t VALUES (9, 'z')"); out != "INSERT 0 1" {
			t.Errorf("concurrent insert: %s", out)
		}
	}}
	if _, err := p.Run(context.Background(), env, args); err != nil {
		t.Fatalf("add_files racing an insert: %v", err)
	}
	if env.calls != 3 {
		t.Errorf("%d table loads, want 3 (the commit staged again after losing the race)", env.calls)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id FROM t ORDER BY id"), ","); got != "1,2,9" {
		t.Errorf("rows after the race: %s", got)
	}

	// Cancelled after the copies, before the commit.
	writePlainParquet(t, filepath.Join(dir, "more", "b.parquet"), []plainRow{{3, "c"}})
	before := len(importedFiles(t, dir))
	ctx, cancel := context.WithCancel(context.Background())
	env = &hookEnv{callEnv: &callEnv{sess: s, now: time.Now()}, n: 2, hook: cancel}
	args["source_table"] = "`parquet`.`" + filepath.Join(dir, "more") + "`"
	if _, err := p.Run(ctx, env, args); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled add_files: %v", err)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id FROM t ORDER BY id"), ","); got != "1,2,9" {
		t.Errorf("rows after the cancelled call: %s", got)
	}
	if after := len(importedFiles(t, dir)); after != before {
		t.Errorf("%d imported files after the cancelled call, want %d", after, before)
	}
}
