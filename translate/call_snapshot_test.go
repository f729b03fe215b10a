package translate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type nestedRow struct {
	ID int64 `parquet:"id"`
	P  struct {
		X int32 `parquet:"x"`
	} `parquet:"p"`
}

// TestSnapshotParquetDirectory: snapshot makes a table of a directory of
// plain Parquet files, its schema from the files and identity partitions
// from column=value directories; the source stays; a failed import drops
// the new table again.
func TestSnapshotParquetDirectory(t *testing.T) {
	s, _, dir := newWriteSession(t)
	src := filepath.Join(dir, "landing")
	writePlainParquet(t, filepath.Join(src, "year=2024", "region=eu", "a.parquet"), []plainRow{{1, "a"}, {2, "b"}})
	writePlainParquet(t, filepath.Join(src, "year=2025", "region=us", "b.parquet"), []plainRow{{3, "c"}})
	run(t, s, "CREATE SCHEMA lake")
	got := callOutput(t, s, "CALL system.snapshot(source_table => '`parquet`.`"+src+"`', table => 'lake.events', properties => map('format-version', '2'))")
	if want := "imported_files_count:bigint\n2\nCALL"; !strings.HasPrefix(got, want) {
		t.Fatalf("snapshot:\n%s\nwant\n%s", got, want)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id, s, year, region FROM lake.events ORDER BY id"), ","); got != "1\ta\t2024\teu,2\tb\t2024\teu,3\tc\t2025\tus" {
		t.Errorf("rows: %s", got)
	}
	if got := strings.Join(queryRows(t, s, `SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_name = 'events' ORDER BY ordinal_position`), ","); got != "id integer,s text,year integer,region text" {
		t.Errorf("columns: %s", got)
	}
	if got := queryRows(t, s, "SELECT count(*) FROM lake.events WHERE year = 2025"); got[0] != "1" {
		t.Errorf("partition filter: %s", got[0])
	}
	// The source is left alone: a second snapshot of it works.
	if got := statementOutput(s, "CALL system.snapshot('`parquet`.`"+src+"`', 'lake.events2')"); got != "CALL" {
		t.Errorf("second snapshot: %s", got)
	}

	mixed := filepath.Join(dir, "mixed")
	writePlainParquet(t, filepath.Join(mixed, "1.parquet"), []plainRow{{1, "a"}})
	writePlainParquet(t, filepath.Join(mixed, "2.parquet"), []badRow{{"x"}})
	nested := filepath.Join(dir, "nested")
	writePlainParquet(t, filepath.Join(nested, "1.parquet"), []nestedRow{{ID: 1}})
	for _, c := range []struct{ call, want string }{
		{"CALL system.snapshot('`parquet`.`" + src + "`', 'lake.events')", "error (42P07)"},
		{"CALL system.snapshot('`parquet`.`" + src + "`', 'lake.x', '/elsewhere')", "error (0A000): snapshot with a location"},
		{"CALL system.snapshot('`parquet`.`" + mixed + "`', 'lake.mixed')", "error (42804)"},
		{"CALL system.snapshot('`parquet`.`" + nested + "`', 'lake.nested')", "error (0A000): a table of Parquet files with nested columns"},
		{"CALL system.snapshot('lake.events', 'lake.y')", "error (0A000): snapshot from a table"},
	} {
		if got := statementOutput(s, c.call); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s, want %s", c.call, got, c.want)
		}
	}
	if got := strings.Join(queryRows(t, s, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'lake' ORDER BY 1"), ","); got != "events,events2" {
		t.Errorf("tables left: %s", got)
	}
}

// TestMigrateParquetDirectory: migrate turns a table name's directory of
// plain Parquet files into that Iceberg table, keeping a backup unless
// drop_backup; refusals and failures leave the directory as it was.
func TestMigrateParquetDirectory(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, "CREATE SCHEMA hive")
	writePlainParquet(t, filepath.Join(dir, "hive", "logs", "day=2024-05-01", "a.parquet"), []plainRow{{1, "a"}})
	writePlainParquet(t, filepath.Join(dir, "hive", "logs", "day=2024-05-02", "b.parquet"), []plainRow{{2, "b"}})
	got := callOutput(t, s, "CALL system.migrate('hive.logs')")
	if want := "migrated_files_count:bigint\n2\nCALL"; !strings.HasPrefix(got, want) {
		t.Fatalf("migrate:\n%s\nwant\n%s", got, want)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id, s, day FROM hive.logs ORDER BY id"), ","); got != "1\ta\t2024-05-01,2\tb\t2024-05-02" {
		t.Errorf("rows: %s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "hive", "logs_BACKUP_", "day=2024-05-01", "a.parquet")); err != nil {
		t.Errorf("backup: %v", err)
	}
	run(t, s, "INSERT INTO hive.logs VALUES (3, 'c', DATE '2024-05-03')")
	if got := queryRows(t, s, "SELECT count(*) FROM hive.logs"); got[0] != "3" {
		t.Errorf("count after an insert: %s", got[0])
	}

	writePlainParquet(t, filepath.Join(dir, "hive", "clicks", "a.parquet"), []plainRow{{1, "a"}})
	if got := statementOutput(s, "CALL system.migrate(table => 'hive.clicks', drop_backup => true, properties => map('write.format.default', 'parquet'))"); got != "CALL" {
		t.Errorf("migrate with drop_backup: %s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "hive", "clicks_BACKUP_")); !os.IsNotExist(err) {
		t.Errorf("backup left: %v", err)
	}

	writePlainParquet(t, filepath.Join(dir, "hive", "bad", "1.parquet"), []plainRow{{1, "a"}})
	writePlainParquet(t, filepath.Join(dir, "hive", "bad", "2.parquet"), []badRow{{"x"}})
	for _, c := range []struct{ call, want string }{
		{"CALL system.migrate('hive.logs')", "error (55000): table \"hive.logs\" is an Iceberg table already"},
		{"CALL system.migrate('hive.nope')", "error (42P01)"},
		{"CALL system.migrate('hive.bad')", "error (42804)"},
		{"CALL system.migrate('hive.bad', backup_table_name => 'clicks')", "error (42P07)"},
	} {
		if got := statementOutput(s, c.call); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s, want %s", c.call, got, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "hive", "bad", "2.parquet")); err != nil {
		t.Errorf("the failed migrate did not restore the directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "hive", "bad_BACKUP_")); !os.IsNotExist(err) {
		t.Errorf("backup of the failed migrate left: %v", err)
	}
}
