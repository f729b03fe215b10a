package translate

import (
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
