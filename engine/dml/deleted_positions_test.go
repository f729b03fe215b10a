package dml

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/fixtures"
)

// TestDeletedPositions: scan.DeletedPositions gives, per data file, the
// positions its position deletes and deletion vectors delete: those the
// scan's _deleted column marks when the table has no equality deletes, a
// subset of them when it has.
func TestDeletedPositions(t *testing.T) {
	cases := []struct {
		name  string
		total int // positions deleted over all files
		exact bool
	}{
		{"impala__iceberg_v2_delete_positional", 1, true},
		{"impala__iceberg_v2_partitioned_position_deletes", 10, true},
		{"lithium__granular_deletes", 6, true},
		{"lithium__dangling_deletes", 0, true},
		{"lithium__deletion_vectors", 8, true},
		{"impala__iceberg_v2_delete_both_eq_and_pos", 1, false},
	}
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("fixtures", fixtures.Dir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl, err := cat.LoadTable(ctx, catalog.Identifier{Name: c.name})
			if err != nil {
				t.Fatal(err)
			}
			tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
			if err != nil {
				t.Fatal(err)
			}
			total := 0
			for _, task := range tasks {
				got, err := scan.DeletedPositions(ctx, tbl, task)
				if err != nil {
					t.Fatal(err)
				}
				total += len(got)
				marked := markedDeleted(t, tbl, task)
				if c.exact && !slices.Equal(got, marked) {
					t.Errorf("%s: positions %v, the scan marks %v", task.File.Path, got, marked)
				}
				for _, p := range got {
					if !slices.Contains(marked, p) {
						t.Errorf("%s: position %d is not deleted by the scan", task.File.Path, p)
					}
				}
			}
			if total != c.total {
				t.Errorf("%d positions deleted, want %d", total, c.total)
			}
		})
	}
}

// markedDeleted scans one task with _pos and _deleted and returns the
// positions marked deleted.
func markedDeleted(t *testing.T, tbl *catalog.Table, task catalog.FileScanTask) []int64 {
	t.Helper()
	op := scan.New(engine.ScanSpec{Table: tbl, Tasks: []catalog.FileScanTask{task}, Schema: tbl.Metadata.CurrentSchema(),
		FieldIDs: []int{scan.FieldIDPos, scan.FieldIDDeleted}}, scan.Options{Parallelism: 1})
	defer op.Close()
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out []int64
	for {
		b, err := op.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			slices.Sort(out)
			return out
		}
		pos := b.Column(0).(*array.Int64)
		del := b.Column(1).(*array.Boolean)
		for i := 0; i < pos.Len(); i++ {
			if del.Value(i) {
				out = append(out, pos.Value(i))
			}
		}
	}
}
