package translate

import (
	"context"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestPositionDeletesTable checks position_deletes over format-3 deletion
// vectors (Puffin blobs: one row per deleted position, row NULL) and over
// v2 position-delete files that store the deleted row (row as jsonb) or
// do not (row NULL), with time travel.
func TestPositionDeletesTable(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	const (
		dvSpark = "iceberg.impala__iceberg_v3_deletion_vectors" // 2 DVs of 1 position each
		dvTrino = "iceberg.lithium__deletion_vectors"           // 2 DVs, 8 positions in 2 data files
		withRow = "iceberg.impala__iceberg_v2_positional_delete_all_rows"
		noRow   = "iceberg.impala__iceberg_lineitem_multiblock" // Impala's deletes store no row
	)
	for _, c := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM " + dvSpark + ".position_deletes", 2},
		{"SELECT count(*) FROM " + dvSpark + ".position_deletes WHERE row IS NULL AND delete_file_path LIKE '%.puffin' AND file_path LIKE '%.parquet'", 2},
		{"SELECT count(*) FROM " + dvTrino + ".position_deletes", 8},
		{"SELECT count(DISTINCT file_path) FROM " + dvTrino + ".position_deletes", 2},
		{"SELECT count(*) FROM " + dvTrino + ".position_deletes WHERE file_path LIKE '%7c2867a1%' AND pos IN (2, 5)", 2},
		{"SELECT count(*) FROM " + dvTrino + ".position_deletes WHERE file_path LIKE '%580c7fe8%' AND pos IN (0, 1, 3, 4, 6, 7)", 6},
		// the table's rows are its data files' rows less these positions
		{"SELECT count(*) FROM " + dvTrino, 16 - 8},
		{"SELECT count(*) FROM " + dvTrino + ".position_deletes VERSION AS OF 3380748922981262035", 3},
		{"SELECT count(*) FROM " + dvTrino + ".position_deletes VERSION AS OF 9085912707585491401", 0},
		{"SELECT count(*) FROM icegate." + dvTrino + ".position_deletes FOR SYSTEM_VERSION AS OF 7026943662205930455", 3},
		{"SELECT count(*) FROM " + withRow + "$position_deletes WHERE (row->>'i')::int = pos + 1 AND row->'s' IS NOT NULL", 3},
		{"SELECT count(*) FROM " + noRow + ".position_deletes WHERE row IS NULL", 2114},
		{"SELECT count(*) FROM iceberg.impala__iceberg_v2_partitioned_position_deletes.position_deletes WHERE row->>'action' = partition->>'action'", 10},
	} {
		got, err := runCount(ctx, t, s, c.q)
		if err != nil {
			t.Errorf("%s: %v (%s)", c.q, err, pgerr.Code(err))
			continue
		}
		if got != c.want {
			t.Errorf("%s: %d, want %d", c.q, got, c.want)
		}
	}
	out := queryOutput(t, s, &datadriven.Case{Input: "SELECT pos, row FROM " + withRow + ".position_deletes ORDER BY pos"})
	if want := "pos:bigint\trow:jsonb\n0\t{\"i\": 1, \"s\": "; !strings.HasPrefix(out, want) {
		t.Errorf("rows:\n%s\nwant prefix %s", out, want)
	}
}
