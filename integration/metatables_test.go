package integration

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestMetadataTablesAfterWrites writes a table through the server (create,
// two inserts, a change of partitioning, a third insert) and checks that
// its metadata tables list what was written, over the wire.
func TestMetadataTablesAfterWrites(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	conn := connect(t, addr)
	execAll(t, conn,
		"CREATE SCHEMA ns",
		"CREATE TABLE ns.t (id int, d date) PARTITIONED BY (d)",
		"INSERT INTO ns.t VALUES (1, '2024-01-01'), (2, '2024-01-02')",
		"INSERT INTO ns.t VALUES (3, '2024-01-01')",
		"ALTER TABLE ns.t ADD PARTITION FIELD bucket(4, id)",
		"INSERT INTO ns.t VALUES (4, '2024-01-03')",
	)
	first := textRows(t, conn, "SELECT snapshot_id FROM ns.t$snapshots ORDER BY committed_at LIMIT 1", true)[0]
	for _, c := range []struct {
		sql  string
		want []string
	}{
		{"SELECT operation, summary->>'added-records', summary->>'total-records', parent_id IS NULL FROM ns.t$snapshots ORDER BY committed_at",
			[]string{"append|2|2|t", "append|1|3|f", "append|1|4|f"}},
		{"SELECT count(*), bool_and(is_current_ancestor) FROM ns.t.history", []string{"3|t"}},
		{`SELECT spec_id, partition::text, record_count FROM ns."t$files" ORDER BY 1, 2, 3`,
			[]string{`0|{"d": "2024-01-01"}|1`, `0|{"d": "2024-01-01"}|1`, `0|{"d": "2024-01-02"}|1`, `1|{"d": "2024-01-03", "id_bucket_4": 2}|1`}},
		{"SELECT count(*), sum(added_data_files_count), sum(existing_data_files_count) FROM ns.t$manifests", []string{"3|4|0"}},
		{"SELECT partition::text, spec_id, record_count, file_count FROM ns.t$partitions ORDER BY 2, 1",
			[]string{`{"d": "2024-01-01"}|0|2|2`, `{"d": "2024-01-02"}|0|1|1`, `{"d": "2024-01-03", "id_bucket_4": 2}|1|1|1`}},
		{"SELECT count(*) FROM ns.t$files VERSION AS OF " + first, []string{"2"}},
		{"SELECT count(*) FROM ns.t.data_files FOR SYSTEM_VERSION AS OF " + first, []string{"2"}},
		{"SELECT count(*) FROM ns.t$all_data_files", []string{"4"}},
		{"SELECT count(*) FROM ns.t$delete_files", []string{"0"}},
		{"SELECT readable_metrics->'id'->>'lower_bound' FROM ns.t$files WHERE spec_id = 1", []string{"4"}},
		{"SELECT name, type FROM ns.t$refs", []string{"main|BRANCH"}},
		{"SELECT count(*) >= 5 FROM ns.t$metadata_log_entries", []string{"t"}},
	} {
		got := textRows(t, conn, c.sql, true)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", c.sql, got, c.want)
		}
	}
	_, err := conn.Exec(testCtx(t), "SELECT * FROM ns.t$snapshot")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != pgerr.UndefinedTable || !strings.Contains(pe.Hint, "snapshots") {
		t.Errorf("unknown metadata table: %v, want 42P01 with a hint listing the metadata tables", err)
	}
}
