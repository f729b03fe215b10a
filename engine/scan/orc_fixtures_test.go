package scan

import (
	"sort"
	"strings"
	"testing"

	"github.com/icegate/icegate/engine"
)

// scanRows scans every column of a fixture's current snapshot and returns
// its rows formatted and sorted.
func scanRows(t *testing.T, name string, batch int) []string {
	t.Helper()
	tbl, tasks := loadTable(t, name)
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)},
		Options{Alloc: mem, BatchSize: batch, Parallelism: 2})
	if err != nil {
		t.Fatalf("scan %s: %v", name, err)
	}
	rows := formatRows(recs)
	releaseRecs(recs)
	mem.AssertSize(t, 0)
	sort.Strings(rows)
	return rows
}

// TestORCMatchesParquetTwin reads ORC fixtures that have a twin table with
// the same rows in Parquet and compares every row and column.
func TestORCMatchesParquetTwin(t *testing.T) {
	twins := []struct{ orc, parquet string }{
		{"impala__airports_orc", "impala__airports_parquet"},
		{"impala__iceberg_migrated_complex_test_orc", "impala__iceberg_migrated_complex_test"},
		{"impala__iceberg_migrated_alter_test_orc", "impala__iceberg_migrated_alter_test"},
		{"impala__iceberg_alltypes_part_orc", "impala__iceberg_alltypes_part"},
		{"impala__iceberg_v2_no_deletes_orc", "impala__iceberg_v2_no_deletes"},
		{"impala__iceberg_v3_default_value_orc", "impala__iceberg_v3_default_value"},
		{"impala__iceberg_v3_row_lineage_orc", "impala__iceberg_v3_row_lineage"},
		{"impala__iceberg_legacy_partition_schema_evolution_orc", "impala__iceberg_legacy_partition_schema_evolution"},
		{"impala__iceberg_v2_partitioned_position_deletes_orc", "impala__iceberg_v2_partitioned_position_deletes"},
		{"impala__iceberg_v2_positional_delete_all_rows_orc", "impala__iceberg_v2_positional_delete_all_rows"},
		{"impala__iceberg_v2_positional_not_all_data_files_have_delete_files_orc",
			"impala__iceberg_v2_positional_not_all_data_files_have_delete_files"},
	}
	for _, tw := range twins {
		t.Run(tw.orc, func(t *testing.T) {
			got := scanRows(t, tw.orc, 7)
			want := scanRows(t, tw.parquet, 1000)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("ORC rows differ from %s\norc:\n%s\nparquet:\n%s", tw.parquet,
					head(got, 20), head(want, 20))
			}
		})
	}
}

func head(rows []string, n int) string {
	return strings.Join(rows[:min(n, len(rows))], "\n")
}
