package oracle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	"github.com/jackc/pgx/v5"
)

// TestProceduresIcebergGoReads runs icegate's procedures over tables
// icegate wrote and has iceberg-go read each table after each call, with
// icegate's rows: ref moves (rollback_to_snapshot, set_current_snapshot,
// rollback_to_timestamp, cherrypick_snapshot), add_files and snapshot of
// plain Parquet files (no field ids: iceberg-go finds the columns through
// the name mapping the commit sets) and register_table.
func TestProceduresIcebergGoReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, fmt.Sprintf(sql, args...)); err != nil {
			t.Fatalf("%s: %v", fmt.Sprintf(sql, args...), err)
		}
	}
	check := func(name, after string) {
		t.Helper()
		for _, p := range compareScanIn(ctx, conn, warehouse, "proc", name, filterCase{}) {
			t.Errorf("after %s: %s", after, p)
		}
	}
	snapshots := func(name string) []int64 {
		t.Helper()
		ids, err := queryInts(ctx, conn, fmt.Sprintf(`SELECT snapshot_id FROM proc."%s$snapshots" ORDER BY committed_at, snapshot_id`, name))
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}

	exec("CREATE SCHEMA proc")
	exec("CREATE TABLE proc.r (id bigint, val text) TBLPROPERTIES ('write.wap.enabled' = 'true')")
	exec("INSERT INTO proc.r SELECT g, 'v' || g FROM generate_series(1, 20) g")
	exec("INSERT INTO proc.r SELECT g, 'w' || g FROM generate_series(21, 30) g")
	exec("DELETE FROM proc.r WHERE id %% 3 = 0")
	ids := snapshots("r")
	check("r", "the writes")
	exec("CALL system.rollback_to_snapshot('proc.r', %d)", ids[0])
	check("r", "rollback_to_snapshot")
	exec("CALL system.set_current_snapshot(table => 'proc.r', snapshot_id => %d)", ids[2])
	check("r", "set_current_snapshot")
	var committed time.Time
	if err := conn.QueryRow(ctx, fmt.Sprintf(`SELECT committed_at FROM proc."r$snapshots" WHERE snapshot_id = %d`, ids[1])).Scan(&committed); err != nil {
		t.Fatal(err)
	}
	exec("CALL system.rollback_to_timestamp('proc.r', TIMESTAMPTZ '%s')", committed.Add(time.Millisecond).UTC().Format("2006-01-02 15:04:05.000000+00"))
	check("r", "rollback_to_timestamp")
	exec("SET iceberg.wap_id = 'job'")
	exec("INSERT INTO proc.r VALUES (100, 'staged')")
	exec("RESET iceberg.wap_id")
	exec("INSERT INTO proc.r VALUES (101, 'main')")
	exec("CALL system.publish_changes('proc.r', 'job')")
	check("r", "publish_changes")

	// add_files: plain Parquet files in the warehouse.
	exec("CREATE TABLE proc.af (id bigint, val text)")
	staging := filepath.Join(warehouse, "staging")
	writeArrowParquet(t, filepath.Join(staging, "a.parquet"), []int64{1, 2, 3}, []string{"a", "b", "c"})
	writeArrowParquet(t, filepath.Join(staging, "b.parquet"), []int64{4, 5}, []string{"d", "e"})
	exec("CALL system.add_files(table => 'proc.af', source_table => '`parquet`.`%s`')", staging)
	check("af", "add_files")
	exec("INSERT INTO proc.af VALUES (6, 'f')")
	check("af", "an insert after add_files")

	// Hive-style partitioned files: the partition values come from the
	// directories into the partition tuples. The files hold the column too:
	// iceberg-go v0.7.0 does not fill a column missing from a file from
	// its identity partition value, as the spec asks readers to (icegate
	// does; translate's TestAddFilesPartitioned covers files without it).
	exec("CREATE TABLE proc.afp (id bigint, val text) PARTITIONED BY (val)")
	hive := filepath.Join(warehouse, "hive")
	writeArrowParquet(t, filepath.Join(hive, "val=a", "a.parquet"), []int64{1, 2}, []string{"a", "a"})
	writeArrowParquet(t, filepath.Join(hive, "val=b", "b.parquet"), []int64{3}, []string{"b"})
	exec("CALL system.add_files('proc.afp', '`parquet`.`%s`')", hive)
	check("afp", "add_files of partitioned files")
	for _, p := range compareScanIn(ctx, conn, warehouse, "proc", "afp", filterCase{"val = 'b'", iceberg.EqualTo(ref("val"), "b")}) {
		t.Errorf("after add_files of partitioned files: %s", p)
	}

	// snapshot: a new table of the same directory, partitioned by val.
	exec("CALL system.snapshot('`parquet`.`%s`', 'proc.snap')", hive)
	check("snap", "snapshot")

	// register_table of r's current metadata file as r2; r2's later
	// writes go to its own directory.
	meta, err := latestMetadataFile(filepath.Join(warehouse, "proc", "r", "metadata"))
	if err != nil {
		t.Fatal(err)
	}
	exec("CALL system.register_table('proc.r2', '%s')", meta)
	check("r2", "register_table")
	exec("INSERT INTO proc.r2 VALUES (200, 'registered')")
	check("r2", "an insert after register_table")
}

// queryInts returns the first column of a query's rows as int64s.
func queryInts(ctx context.Context, conn *pgx.Conn, sql string) ([]int64, error) {
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// latestMetadataFile is the newest vN.metadata.json of a metadata directory.
func latestMetadataFile(dir string) (string, error) {
	for v := 100; v > 0; v-- {
		p := filepath.Join(dir, fmt.Sprintf("v%d.metadata.json", v))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no metadata file in %s", dir)
}

// writeArrowParquet writes a Parquet file of (id bigint, val string)
// without Iceberg field ids, as a plain Parquet writer does.
func writeArrowParquet(t *testing.T, path string, ids []int64, vals []string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "val", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues(ids, nil)
	b.Field(1).(*array.StringBuilder).AppendValues(vals, nil)
	rec := b.NewRecord()
	defer rec.Release()
	tbl := array.NewTableFromRecords(schema, []arrow.Record{rec})
	defer tbl.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pqarrow.WriteTable(tbl, f, 1024, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
}
