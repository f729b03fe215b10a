package integration

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestCompactionOverTheWire is seed 004's compaction step through a
// client: 11 small files partitioned by month, the spec changed to years,
// 10 more small files; CALL local.system.rewrite_data_files with the
// seed's options turns the 21 files into 2 (one per partition of the
// current spec: the old spec's files together, the new ones together),
// the rows unchanged. rewrite_manifests then leaves one manifest: the
// compaction's, the 21 that only list removed files dropped.
func TestCompactionOverTheWire(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{catalogName: "local"})
	ctx := testCtx(t)
	conn, err := pgx.Connect(ctx, strings.Replace(connString(addr, "icegate", ""), "/icegate?", "/local?", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	exec := func(sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	count := func(sql string) int64 {
		t.Helper()
		var n int64
		if err := conn.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}
	rows := func() []string {
		t.Helper()
		rs, err := conn.Query(ctx, "SELECT order_id::text || '|' || product || '|' || order_time::text FROM local.iceberg_db.orders ORDER BY order_id")
		if err != nil {
			t.Fatal(err)
		}
		out, err := pgx.CollectRows(rs, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	exec("CREATE SCHEMA iceberg_db")
	exec(`CREATE TABLE local.iceberg_db.orders (order_id bigint, customer_id bigint, product string, category string,
		quantity int, price double, order_time timestamp, status string) USING iceberg PARTITIONED BY (months(order_time))`)
	for i := range 11 {
		exec(fmt.Sprintf("INSERT INTO local.iceberg_db.orders VALUES (%d, %d, 'Product %d', 'Home', 1, 9.9, TIMESTAMP '2024-0%d-0%d 10:00:00', 'completed')",
			1000+i, i%4, i, i%6+1, i%9+1))
	}
	exec("ALTER TABLE local.iceberg_db.orders REPLACE PARTITION FIELD months(order_time) WITH years(order_time)")
	for i := range 10 {
		exec(fmt.Sprintf("INSERT INTO local.iceberg_db.orders SELECT %d, 1, 'Test Product %d', 'Home', 1, %v, TIMESTAMP '2024-07-0%d 10:00:00', 'completed'",
			1060+i, i, 9.90+float64(i), i%9+1))
	}
	before := rows()
	if n := count("SELECT count(*) FROM local.iceberg_db.orders.files"); n != 21 {
		t.Fatalf("Data files BEFORE compaction: %d, want 21", n)
	}
	var rewritten, added, failed, removedDeletes int32
	var bytes int64
	err = conn.QueryRow(ctx, `CALL local.system.rewrite_data_files(
		table => 'iceberg_db.orders',
		options => map('target-file-size-bytes', '134217728'))`).Scan(&rewritten, &added, &bytes, &failed, &removedDeletes)
	if err != nil {
		t.Fatal(err)
	}
	if rewritten != 21 || added != 2 || bytes <= 0 || failed != 0 {
		t.Errorf("rewrite_data_files returned (%d, %d, %d, %d), want (21, 2, >0, 0)", rewritten, added, bytes, failed)
	}
	if n := count("SELECT count(*) FROM local.iceberg_db.orders.files"); n != 2 {
		t.Errorf("Data files AFTER compaction: %d, want 2", n)
	}
	if after := rows(); !slices.Equal(after, before) {
		t.Errorf("rows changed by the compaction:\n%v\n%v", after, before)
	}
	var manifestsRewritten, manifestsAdded int32
	if err := conn.QueryRow(ctx, "CALL local.system.rewrite_manifests('iceberg_db.orders')").Scan(&manifestsRewritten, &manifestsAdded); err != nil {
		t.Fatal(err)
	}
	if n := count("SELECT count(*) FROM local.iceberg_db.orders.manifests"); n != 1 || manifestsRewritten != 21 {
		t.Errorf("rewrite_manifests returned (%d, %d); %d manifests after, want 1", manifestsRewritten, manifestsAdded, n)
	}
	if after := rows(); !slices.Equal(after, before) {
		t.Errorf("rows changed by rewrite_manifests")
	}
}
