package oracle

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
)

// TestIcegateExpireIcebergGoReads: after icegate's expire_snapshots (down
// to the last snapshot) and remove_orphan_files, iceberg-go loads each
// table, finds only the snapshot left, reads every file it names (so no
// file a remaining snapshot reaches was deleted) and returns icegate's
// rows.
func TestIcegateExpireIcebergGoReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+sqlNamespace); err != nil {
		t.Fatalf("icegate CREATE SCHEMA %s: %v", sqlNamespace, err)
	}
	for _, c := range []struct{ name, props string }{
		{"expired_cow", "'format-version'='2', 'write.delete.mode'='copy-on-write', 'write.update.mode'='copy-on-write'"},
		{"expired_mor", "'format-version'='2', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read'"},
		{"expired_dv", "'format-version'='3', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := qualified(c.name)
			steps := []string{
				fmt.Sprintf("CREATE TABLE %s (id bigint, grp int, val text) USING iceberg PARTITIONED BY (grp) TBLPROPERTIES (%s)", q, c.props),
				fmt.Sprintf("INSERT INTO %s SELECT g, g %% 3, 'v' || g FROM generate_series(1, 60) g", q),
				fmt.Sprintf("INSERT INTO %s SELECT g, g %% 3, 'w' || g FROM generate_series(61, 90) g", q),
				fmt.Sprintf("DELETE FROM %s WHERE id %% 7 = 0", q),
				fmt.Sprintf("UPDATE %s SET val = val || '-u' WHERE id %% 5 = 0", q),
				fmt.Sprintf("INSERT INTO %s VALUES (1000, 1, 'last')", q),
				fmt.Sprintf("CALL system.expire_snapshots(table => '%s', older_than => now(), retain_last => 1)", q),
				fmt.Sprintf("CALL system.remove_orphan_files(table => '%s', older_than => now())", q),
			}
			for _, s := range steps {
				if _, err := conn.Exec(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			tbl, err := loadTable(ctx, warehouse, table.Identifier{sqlNamespace, c.name})
			if err != nil {
				t.Fatal(err)
			}
			md := tbl.Metadata()
			if n := len(md.Snapshots()); n != 1 {
				t.Errorf("iceberg-go sees %d snapshots, want 1", n)
			}
			for e := range md.SnapshotLogs() {
				if md.SnapshotByID(e.SnapshotID) == nil {
					t.Errorf("snapshot log names expired snapshot %d", e.SnapshotID)
				}
			}
			snap := md.CurrentSnapshot()
			if snap == nil {
				t.Fatal("no current snapshot")
			}
			if _, err := os.Stat(stripFileScheme(snap.ManifestList)); err != nil {
				t.Errorf("manifest list of the current snapshot: %v", err)
			}
			// Rows as multisets (compareScan's file-metrics check assumes a
			// table without deletes).
			wantCols, want, err := readTable(ctx, warehouse, table.Identifier{sqlNamespace, c.name})
			if err != nil {
				t.Fatalf("iceberg-go scan: %v", err)
			}
			gotCols, got, err := queryText(ctx, conn, "SELECT * FROM "+q)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 79 || !slices.Equal(gotCols, wantCols) {
				t.Fatalf("icegate %d rows with columns %v, iceberg-go columns %v", len(got), gotCols, wantCols)
			}
			for _, d := range diffRows(wantCols, got, want) {
				t.Error(d)
			}
		})
	}
}

// stripFileScheme turns a file: URI into a local path.
func stripFileScheme(p string) string {
	for _, prefix := range []string{"file://", "file:"} {
		if len(p) > len(prefix) && p[:len(prefix)] == prefix {
			return p[len(prefix):]
		}
	}
	return p
}
