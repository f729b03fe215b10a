package translate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// TestMetadataColumnsPerFile checks, on fixture tables with every kind of
// delete, that SELECT _file, count(*) ... GROUP BY _file agrees with the
// files the current snapshot plans: with _deleted read, each file gives
// all its manifest record_count rows at positions 0..n-1 (count, min, max
// and sum of _pos; the aggregation runs in parallel, by file or by row
// group); without it, each file gives the rows its deletes leave, which
// add up to the table's count(*).
func TestMetadataColumnsPerFile(t *testing.T) {
	s := newTestSession(t)
	tables := []string{
		"impala__iceberg_v2_delete_positional",
		"impala__iceberg_v2_partitioned_position_deletes_orc",
		"impala__iceberg_v2_delete_both_eq_and_pos",
		"impala__iceberg_v2_delete_equality_partition_evolution",
		"impala__iceberg_v3_deletion_vectors",
		"lithium__deletion_vectors",
		"lithium__dangling_deletes",
		"impala__iceberg_lineitem_multiblock",
		"impala__iceberg_mixed_file_format_test",
		"duckdb__equality_deletes_mytable_partitioned",
	}
	for _, name := range tables {
		t.Run(name, func(t *testing.T) {
			tbl, err := s.cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"iceberg"}, Name: name})
			if err != nil {
				t.Fatal(err)
			}
			tasks, err := catalog.PlanFiles(context.Background(), tbl, tbl.Metadata.CurrentSnapshot())
			if err != nil {
				t.Fatal(err)
			}
			records := map[string]int64{}
			for _, task := range tasks {
				records[task.File.Path] = task.File.RecordCount
			}
			all := queryRows(t, s, fmt.Sprintf(`SELECT _file, count(*), min(_pos), max(_pos), sum(_pos), count(*) FILTER (WHERE NOT _deleted)
				FROM iceberg.%s GROUP BY _file`, name))
			live := map[string]string{}
			for _, row := range all {
				f := strings.Split(row, "\t")
				n, ok := records[f[0]]
				if !ok {
					t.Fatalf("_file %s is not a planned data file", f[0])
				}
				want := fmt.Sprintf("%d\t0\t%d\t%d", n, n-1, n*(n-1)/2)
				if got := strings.Join(f[1:5], "\t"); got != want {
					t.Errorf("%s: count, min, max, sum of _pos = %s, want %s", f[0], got, want)
				}
				if f[5] != "0" {
					live[f[0]] = f[5]
				}
				delete(records, f[0])
			}
			if len(records) > 0 {
				t.Errorf("data files without rows: %v", records)
			}
			var total int64
			for _, row := range queryRows(t, s, fmt.Sprintf("SELECT _file, count(*) FROM iceberg.%s GROUP BY 1", name)) {
				f := strings.Split(row, "\t")
				if live[f[0]] != f[1] {
					t.Errorf("%s: %s rows without _deleted, %q rows not flagged deleted with it", f[0], f[1], live[f[0]])
				}
				delete(live, f[0])
				var n int64
				fmt.Sscan(f[1], &n)
				total += n
			}
			if len(live) > 0 {
				t.Errorf("files with live rows missing: %v", live)
			}
			if got := queryRows(t, s, "SELECT count(*) FROM iceberg."+name); got[0] != fmt.Sprint(total) {
				t.Errorf("count(*) = %s, the files add up to %d", got[0], total)
			}
		})
	}
}

// TestMetadataColumnsDeleted: reading _deleted keeps deleted rows and
// flags them (Iceberg's readers do the same for that column); a query
// that does not read it sees only live rows.
func TestMetadataColumnsDeleted(t *testing.T) {
	s := newTestSession(t)
	cases := []struct{ sql, want string }{
		{"SELECT id, _pos, _deleted FROM iceberg.impala__iceberg_v2_delete_positional ORDER BY _pos",
			"1\t0\tfalse|2\t1\ttrue|3\t2\tfalse"},
		{"SELECT id, _pos FROM iceberg.impala__iceberg_v2_delete_positional ORDER BY _pos",
			"1\t0|3\t2"},
		{"SELECT count(*) FROM iceberg.impala__iceberg_v2_delete_positional WHERE NOT _deleted", "2"},
		{"SELECT count(*) FROM iceberg.impala__iceberg_v2_positional_delete_all_rows WHERE _deleted", "3"},
		{"SELECT count(*) FROM iceberg.impala__iceberg_v2_positional_delete_all_rows", "0"},
		// Equality deletes: Flink deleted the rows with these keys.
		{"SELECT count(*) FILTER (WHERE _deleted), count(*) FILTER (WHERE NOT _deleted) FROM iceberg.impala__iceberg_v2_delete_equality", "1\t2"},
	}
	for _, c := range cases {
		got := strings.Join(queryRows(t, s, c.sql), "|")
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.sql, got, c.want)
		}
	}
}

// TestMetadataColumnsPruning: with metadata columns selected, EXPLAIN
// ANALYZE still shows the row groups pruning skipped, and _pos stays the
// row's position in the file.
func TestMetadataColumnsPruning(t *testing.T) {
	s := newTestSession(t)
	plan := strings.Join(queryRows(t, s, "EXPLAIN ANALYZE SELECT _file, _pos, l_orderkey FROM iceberg.impala__iceberg_lineitem_multiblock WHERE l_orderkey = 3"), "\n")
	if !strings.Contains(plan, "row groups 200 skipped 199") {
		t.Errorf("no pruning in\n%s", plan)
	}
	// lineitem order 1 has 6 lines, order 2 one: order 3's start at 7.
	// The table's position-delete file deletes position 11.
	got := strings.Join(queryRows(t, s, "SELECT _pos, l_linenumber, _deleted FROM iceberg.impala__iceberg_lineitem_multiblock WHERE l_orderkey = 3 ORDER BY _pos"), "|")
	if want := "7\t1\tfalse|8\t2\tfalse|9\t3\tfalse|10\t4\tfalse|11\t5\ttrue|12\t6\tfalse"; got != want {
		t.Errorf("positions of order 3: %s, want %s", got, want)
	}
}

// TestMetadataColumnsTimeTravel: an older snapshot has its own files.
func TestMetadataColumnsTimeTravel(t *testing.T) {
	s := newTestSession(t)
	name := "impala__iceberg_v2_positional_not_all_data_files_have_delete_files"
	tbl, err := s.cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"iceberg"}, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, snap := range tbl.Metadata.Snapshots {
		tasks, err := catalog.PlanFiles(context.Background(), tbl, snap)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, task := range tasks {
			want[task.File.Path] = true
		}
		rows := queryRows(t, s, fmt.Sprintf("SELECT DISTINCT _file, _deleted FROM iceberg.%s VERSION AS OF %d", name, snap.SnapshotID))
		got := map[string]bool{}
		for _, r := range rows {
			got[strings.Split(r, "\t")[0]] = true
		}
		if len(got) != len(want) {
			t.Errorf("snapshot %d: %d files, want %d", snap.SnapshotID, len(got), len(want))
		}
		for f := range got {
			if !want[f] {
				t.Errorf("snapshot %d: file %s is not the snapshot's", snap.SnapshotID, f)
			}
		}
		checked++
	}
	if checked < 2 {
		t.Fatalf("%d snapshots", checked)
	}
}
