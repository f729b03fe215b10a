package integration

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The server administration functions across sessions: pg_backend_pid,
// pg_stat_activity, pg_cancel_backend, pg_terminate_backend, pg_sleep and
// the advisory locks, each session its own pgx connection.

func adminOne[T any](t *testing.T, c *pgx.Conn, sql string, args ...any) T {
	t.Helper()
	var v T
	if err := c.QueryRow(testCtx(t), sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// waitActive polls pg_stat_activity from c until the session pid runs a
// statement (each poll is a query; the test's deadline bounds the wait).
func waitActive(t *testing.T, c *pgx.Conn, pid uint32) {
	t.Helper()
	for {
		var n int
		if err := c.QueryRow(testCtx(t), `SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE '%pg_sleep%'`, int32(pid)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			return
		}
		select {
		case <-testCtx(t).Done():
			t.Fatalf("session %d never became active", pid)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestAdminSessions(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	a, b, c := connect(t, addr), connect(t, addr), connect(t, addr)
	for _, conn := range []*pgx.Conn{a, b, c} {
		if got := adminOne[int32](t, conn, `SELECT pg_backend_pid()`); uint32(got) != conn.PgConn().PID() {
			t.Errorf("pg_backend_pid() = %d, the protocol's process id is %d", got, conn.PgConn().PID())
		}
	}
	ctx := testCtx(t)
	if _, err := a.Exec(ctx, `SELECT 1 AS from_a`); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Exec(ctx, `BEGIN`); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Exec(ctx, `SELECT 2 AS from_b`); err != nil {
		t.Fatal(err)
	}
	rows, err := c.Query(ctx, `SELECT pid, state, query FROM pg_stat_activity ORDER BY pid`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[uint32][2]string{}
	for rows.Next() {
		var pid int32
		var state, query string
		if err := rows.Scan(&pid, &state, &query); err != nil {
			t.Fatal(err)
		}
		got[uint32(pid)] = [2]string{state, query}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[uint32][2]string{
		a.PgConn().PID(): {"idle", "SELECT 1 AS from_a"},
		b.PgConn().PID(): {"idle in transaction", "SELECT 2 AS from_b"},
		c.PgConn().PID(): {"active", "SELECT pid, state, query FROM pg_stat_activity ORDER BY pid"},
	}
	if len(got) != len(want) {
		t.Errorf("pg_stat_activity lists %d sessions, want %d: %v", len(got), len(want), got)
	}
	for pid, w := range want {
		if got[pid] != w {
			t.Errorf("session %d: state, query = %q, want %q", pid, got[pid], w)
		}
	}
	// Each session's client address and port, database, and times: an
	// idle session has no transaction, one in a block has its start.
	for _, conn := range []*pgx.Conn{a, b} {
		local := conn.PgConn().Conn().LocalAddr().(*net.TCPAddr)
		var addr, datname, btype string
		var port int32
		var xactNull, changeNull bool
		if err := c.QueryRow(ctx, `SELECT client_addr::text, client_port, datname, backend_type, xact_start IS NULL, state_change IS NULL
			FROM pg_stat_activity WHERE pid = $1`, int32(conn.PgConn().PID())).Scan(&addr, &port, &datname, &btype, &xactNull, &changeNull); err != nil {
			t.Fatal(err)
		}
		wantXactNull := conn == a
		if addr != local.IP.String() || int(port) != local.Port || datname != "icegate" || btype != "client backend" || xactNull != wantXactNull || changeNull {
			t.Errorf("session %d: client %s:%d db %s type %s xact_start null %v state_change null %v; want %s, icegate, client backend, %v, false",
				conn.PgConn().PID(), addr, port, datname, btype, xactNull, changeNull, local, wantXactNull)
		}
	}
	if _, err := b.Exec(ctx, `COMMIT`); err != nil {
		t.Fatal(err)
	}

	// pg_cancel_backend cancels the other session's statement; the session
	// goes on.
	done := make(chan error, 1)
	go func() { _, err := a.Exec(ctx, `SELECT pg_sleep(600)`); done <- err }()
	waitActive(t, c, a.PgConn().PID())
	if !adminOne[bool](t, c, `SELECT pg_cancel_backend($1)`, int32(a.PgConn().PID())) {
		t.Fatal("pg_cancel_backend of a live session returned false")
	}
	if err := <-done; sqlState(err) != "57014" {
		t.Fatalf("canceled pg_sleep: %v, want 57014", err)
	}
	if got := adminOne[int32](t, a, `SELECT 7`); got != 7 {
		t.Fatalf("after cancel: %d", got)
	}
	if adminOne[bool](t, c, `SELECT pg_cancel_backend(2147483647)`) {
		t.Error("pg_cancel_backend of no session returned true")
	}

	// pg_terminate_backend ends a running session with FATAL 57P01 and an
	// idle one at its next message.
	go func() { _, err := a.Exec(ctx, `SELECT pg_sleep(600)`); done <- err }()
	waitActive(t, c, a.PgConn().PID())
	if !adminOne[bool](t, c, `SELECT pg_terminate_backend($1)`, int32(a.PgConn().PID())) {
		t.Fatal("pg_terminate_backend of a live session returned false")
	}
	if err := <-done; sqlState(err) != "57P01" {
		t.Fatalf("terminated pg_sleep: %v, want 57P01", err)
	}
	if !adminOne[bool](t, c, `SELECT pg_terminate_backend($1)`, int32(b.PgConn().PID())) {
		t.Fatal("pg_terminate_backend of an idle session returned false")
	}
	if _, err := b.Exec(ctx, `SELECT 1`); err == nil {
		t.Fatal("a terminated session ran a query")
	}
	// The sessions end once their connections close, asynchronously.
	for adminOne[int64](t, c, `SELECT count(*) FROM pg_stat_activity`) != 1 {
		select {
		case <-ctx.Done():
			t.Fatal("pg_stat_activity still lists terminated sessions")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestAdvisoryLocks(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	a, b := connect(t, addr), connect(t, addr)
	ctx := testCtx(t)
	exec := func(c *pgx.Conn, sql string) {
		t.Helper()
		if _, err := c.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	try := func(c *pgx.Conn, sql string, want bool) {
		t.Helper()
		if got := adminOne[bool](t, c, sql); got != want {
			t.Errorf("%s = %v, want %v", sql, got, want)
		}
	}

	// Exclusive session locks: held again by the holder, refused to others
	// until every hold is released.
	exec(a, `SELECT pg_advisory_lock(1)`)
	try(a, `SELECT pg_try_advisory_lock(1)`, true)
	try(b, `SELECT pg_try_advisory_lock(1)`, false)
	try(b, `SELECT pg_try_advisory_lock_shared(1)`, false)
	try(b, `SELECT pg_try_advisory_lock(0, 1)`, true) // two int4 keys are another lock
	try(a, `SELECT pg_advisory_unlock(1)`, true)
	try(b, `SELECT pg_try_advisory_lock(1)`, false)
	try(b, `SELECT pg_advisory_unlock(1)`, false) // not b's
	// A waiting pg_advisory_lock gets the lock when it is released.
	done := make(chan error, 1)
	go func() { _, err := b.Exec(ctx, `SELECT pg_advisory_lock(1)`); done <- err }()
	try(a, `SELECT pg_advisory_unlock(1)`, true)
	if err := <-done; err != nil {
		t.Fatalf("waiting pg_advisory_lock: %v", err)
	}
	try(a, `SELECT pg_try_advisory_lock(1)`, false)
	exec(b, `SELECT pg_advisory_unlock_all()`)
	try(a, `SELECT pg_try_advisory_lock(1)`, true)
	try(a, `SELECT pg_try_advisory_lock(0, 1)`, true) // unlock_all released b's

	// Shared locks share, and keep exclusive ones out.
	exec(a, `SELECT pg_advisory_lock_shared(2)`)
	try(b, `SELECT pg_try_advisory_lock_shared(2)`, true)
	try(b, `SELECT pg_try_advisory_lock(2)`, false)
	try(a, `SELECT pg_advisory_unlock_shared(2)`, true)
	try(b, `SELECT pg_advisory_unlock_shared(2)`, true)
	try(b, `SELECT pg_try_advisory_lock(2)`, true)

	// Transaction locks end with the block, and outside one with the
	// statement.
	exec(a, `BEGIN`)
	exec(a, `SELECT pg_advisory_xact_lock(3)`)
	try(b, `SELECT pg_try_advisory_lock(3)`, false)
	exec(a, `COMMIT`)
	try(b, `SELECT pg_try_advisory_xact_lock(3)`, true)
	try(a, `SELECT pg_try_advisory_xact_lock(3)`, true)

	// As golang-migrate locks: the key a parameter.
	if _, err := a.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(-3620589442)); err != nil {
		t.Fatalf("pg_advisory_lock($1): %v", err)
	}
	if got := adminOne[bool](t, b, `SELECT pg_try_advisory_lock($1)`, int64(-3620589442)); got {
		t.Error("pg_try_advisory_lock($1) got a lock another session holds")
	}
	if got := adminOne[bool](t, a, `SELECT pg_advisory_unlock($1)`, int64(-3620589442)); !got {
		t.Error("pg_advisory_unlock($1) of a held lock returned false")
	}

	// A lock wait ends with a cancel, and a closed session's locks go.
	exec(a, `SELECT pg_advisory_lock(4)`)
	go func() { _, err := b.Exec(ctx, `SELECT pg_advisory_lock(4)`); done <- err }()
	for adminOne[int64](t, a, `SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_advisory_lock(4)%' AND pid <> pg_backend_pid()`) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	try(a, `SELECT pg_cancel_backend(`+strconv.FormatUint(uint64(b.PgConn().PID()), 10)+`)`, true)
	if err := <-done; sqlState(err) != "57014" {
		t.Fatalf("canceled lock wait: %v, want 57014", err)
	}
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for !adminOne[bool](t, b, `SELECT pg_try_advisory_lock(4)`) {
		// a's session ends after its connection closes, asynchronously.
		select {
		case <-ctx.Done():
			t.Fatal("a closed session kept its advisory lock")
		case <-time.After(10 * time.Millisecond):
		}
	}
}
