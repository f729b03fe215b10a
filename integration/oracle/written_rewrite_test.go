package oracle

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// TestIcegateRewriteIcebergGoReads runs icegate's rewrite procedures on
// tables with deletes (merge-on-read position deletes in format 2,
// deletion vectors in format 3, partitioned or not) and after each one
// checks that iceberg-go's scan returns exactly the rows icegate's
// SELECT * returns, also under a row filter, and that the data files
// were really compacted.
func TestIcegateRewriteIcebergGoReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+dmlNamespace); err != nil {
		t.Fatalf("icegate CREATE SCHEMA %s: %v", dmlNamespace, err)
	}
	configs := []dmlOracleConfig{
		{"v2_mor", 2, "merge-on-read", "'write.delete.granularity'='file', " + noRewrite},
		{"v3_mor", 3, "merge-on-read", noRewrite},
	}
	for _, cfg := range configs {
		for _, partitioned := range []string{"", "grp"} {
			name := "rewritten_" + cfg.name
			if partitioned != "" {
				name += "_part"
			}
			t.Run(name, func(t *testing.T) {
				ot := dmlOracleTable{name: name, partitioned: partitioned}
				if err := createDMLTable(ctx, conn, cfg, ot, name); err != nil {
					t.Fatal(err)
				}
				qname := dmlNamespace + "." + name
				steps := []string{
					"DELETE FROM %s WHERE id %% 7 = 0",
					"DELETE FROM %s WHERE id BETWEEN 44 AND 47",
					"CALL system.rewrite_position_delete_files(table => '%s', options => map('rewrite-all', 'true'))",
					"CALL system.rewrite_manifests('%s')",
					"CALL system.rewrite_data_files(table => '%s', options => map('min-input-files', '2'))",
					"CALL system.rewrite_manifests('%s')",
				}
				for i, step := range steps {
					sql := fmt.Sprintf(step, qname)
					if _, err := conn.Exec(ctx, sql); err != nil {
						t.Fatalf("step %d: %s: %v", i+1, sql, err)
					}
					for _, f := range []filterCase{{}, {"id >= 50", iceberg.GreaterThanEqual(ref("id"), int64(50))}} {
						for _, p := range compareScanIn(ctx, conn, warehouse, dmlNamespace, name, f) {
							t.Errorf("after step %d (%s): %s", i+1, sql, p)
						}
					}
				}
				tbl, err := loadTable(ctx, warehouse, table.Identifier{dmlNamespace, name})
				if err != nil {
					t.Fatal(err)
				}
				tasks, err := tbl.Scan().PlanFiles(ctx)
				if err != nil {
					t.Fatal(err)
				}
				want := 1
				if partitioned != "" {
					want = 4 // grp is id % 4
				}
				if len(tasks) != want {
					t.Errorf("%d data files after the rewrite, want %d", len(tasks), want)
				}
				for _, task := range tasks {
					if n := len(task.DeleteFiles) + len(task.DeletionVectorFiles) + len(task.EqualityDeleteFiles); n > 0 {
						t.Errorf("data file %s still has %d delete files", task.File.FilePath(), n)
					}
				}
			})
		}
	}
}
