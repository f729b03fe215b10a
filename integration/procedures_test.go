package integration

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestRollbackOverTheWire is seed 004's rollback step through a client:
// 50 orders, the cancelled ones deleted, then CALL
// local.system.rollback_to_snapshot back to the first snapshot restores
// the 50 (the catalog named as Spark names it, the table as 'db.t'). The
// procedure's row names main's head before and after; set_current_snapshot
// with Spark's bare keyword argument names goes forward again.
func TestRollbackOverTheWire(t *testing.T) {
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
	count := func() int64 {
		t.Helper()
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM local.iceberg_db.orders").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	exec("CREATE SCHEMA iceberg_db")
	exec("CREATE TABLE iceberg_db.orders (order_id int, status text)")
	exec("INSERT INTO iceberg_db.orders SELECT g, CASE WHEN g % 5 = 0 THEN 'cancelled' ELSE 'shipped' END FROM generate_series(1, 50) g")
	var first int64
	if err := conn.QueryRow(ctx, `SELECT snapshot_id FROM iceberg_db."orders$snapshots"`).Scan(&first); err != nil {
		t.Fatal(err)
	}
	exec("DELETE FROM iceberg_db.orders WHERE status = 'cancelled'")
	var deleted int64
	if err := conn.QueryRow(ctx, `SELECT snapshot_id FROM iceberg_db."orders$snapshots" WHERE snapshot_id <> $1`, first).Scan(&deleted); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 40 {
		t.Fatalf("%d orders after the delete, want 40", n)
	}

	var prev, cur int64
	if err := conn.QueryRow(ctx, fmt.Sprintf("CALL local.system.rollback_to_snapshot('iceberg_db.orders', %d)", first)).Scan(&prev, &cur); err != nil {
		t.Fatal(err)
	}
	if prev != deleted || cur != first {
		t.Errorf("rollback returned (%d, %d), want (%d, %d)", prev, cur, deleted, first)
	}
	if n := count(); n != 50 {
		t.Errorf("%d orders after the rollback, want 50", n)
	}

	if err := conn.QueryRow(ctx, fmt.Sprintf("CALL system.set_current_snapshot(table => 'local.iceberg_db.orders', snapshot_id => %d)", deleted)).Scan(&prev, &cur); err != nil {
		t.Fatal(err)
	}
	if prev != first || cur != deleted || count() != 40 {
		t.Errorf("set_current_snapshot returned (%d, %d), want (%d, %d)", prev, cur, first, deleted)
	}
	// The delete's snapshot is main's head again, so the first one is an
	// ancestor: rolling back works a second time.
	if _, err := conn.Exec(ctx, fmt.Sprintf("CALL local.system.rollback_to_snapshot(table => 'iceberg_db.orders', snapshot_id => %d)", first)); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 50 {
		t.Errorf("%d orders after the second rollback, want 50", n)
	}
	// Parameters through the extended protocol, typed by the procedure's
	// parameters.
	if err := conn.QueryRow(ctx, "CALL system.set_current_snapshot(table => $1, snapshot_id => $2)", "iceberg_db.orders", deleted).Scan(&prev, &cur); err != nil {
		t.Fatal(err)
	}
	if prev != first || cur != deleted || count() != 40 {
		t.Errorf("set_current_snapshot with parameters returned (%d, %d), want (%d, %d)", prev, cur, first, deleted)
	}
	_, err = conn.Exec(ctx, "CALL local.system.rollback_to_snapshot('iceberg_db.orders', 1)")
	if err == nil || !strings.Contains(err.Error(), "SQLSTATE 22023") {
		t.Errorf("unknown snapshot: %v, want 22023", err)
	}
}
