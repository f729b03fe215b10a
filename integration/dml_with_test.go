package integration

import (
	"strings"
	"testing"
)

// TestDMLDataModifyingWith runs DELETE, UPDATE and INSERT inside WITH over
// pgx's extended protocol (prepared, described, executed with parameters):
// the RETURNING rows feed the outer query, the outer query reads the
// snapshot before the change, and a statement that fails anywhere leaves
// every table as it was. Expected values are PostgreSQL 15's.
func TestDMLDataModifyingWith(t *testing.T) {
	conn := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	execAll(t, conn,
		"CREATE TABLE t (id int, v int)",
		"CREATE TABLE archive (id int, v int)",
		"INSERT INTO t SELECT i, i FROM generate_series(1, 10) i")
	ctx := testCtx(t)
	var n, sum int64
	if err := conn.QueryRow(ctx, "WITH d AS (DELETE FROM t WHERE id <= $1 RETURNING *) SELECT count(*), sum(v) FROM d", 3).Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != 3 || sum != 6 {
		t.Errorf("deleted %d rows summing %d, want 3, 6", n, sum)
	}
	tag, err := conn.Exec(ctx, "WITH moved AS (DELETE FROM t WHERE id > $1 RETURNING id, v) INSERT INTO archive SELECT id, v FROM moved", 8)
	if err != nil || tag.String() != "INSERT 0 2" {
		t.Errorf("move: %v, %v; want INSERT 0 2", tag, err)
	}
	got := strings.Join(textRows(t, conn, "WITH u AS (UPDATE t SET v = v * 10 WHERE id IN (4, 5) RETURNING id, v) SELECT u.id, t.v, u.v FROM u JOIN t USING (id) ORDER BY 1", true), " | ")
	if want := "4|4|40 | 5|5|50"; got != want {
		t.Errorf("update rows: %s, want %s", got, want)
	}
	// Division by zero after the DELETE and the INSERT ran: nothing stays.
	wantSQLState(t, conn, "WITH d AS (DELETE FROM t WHERE id = 6 RETURNING id), a AS (INSERT INTO archive SELECT id, 0 FROM d RETURNING id) SELECT 1 / (a.id - 6) FROM a", "22012", "division by zero")
	wantSQLState(t, conn, "WITH d AS (DELETE FROM t WHERE id = 6) SELECT * FROM d", "0A000", "does not have a RETURNING clause")
	wantSQLState(t, conn, "SELECT * FROM (WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d) x", "0A000", "must be at the top level")
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(v) FROM t").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != 5 || sum != 6+7+8+40+50 {
		t.Errorf("t: %d rows, sum %d; want 5, %d", n, sum, 6+7+8+40+50)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(v) FROM archive").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != 2 || sum != 19 {
		t.Errorf("archive: %d rows, sum %d; want 2, 19", n, sum)
	}
}
