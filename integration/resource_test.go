package integration

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// startResourceServer runs `bin serve` as a child process with extra
// environment, so the test can read its memory from /proc.
func startResourceServer(t *testing.T, bin string, env ...string) *crashServer {
	t.Helper()
	s := startCrashServer(t, bin, t.TempDir(), env...)
	t.Cleanup(func() { s.kill(t) })
	return s
}

// procStatusKB reads a field of /proc/PID/status in kB (VmRSS, VmHWM).
func procStatusKB(t *testing.T, pid int, field string) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatalf("read the server's memory: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field+":" {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// pgCode is the SQLSTATE and message of err ("" when it has none).
func pgCode(err error) (string, string) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code, pe.Message
	}
	return "", ""
}

// TestResourceLimits runs statements that would take the server's memory
// or time without bound against icegate as a child process, under
// statement_mem and statement_timeout, and checks each fails with
// PostgreSQL's error for it, the server's peak memory (VmHWM) stays
// within statement_mem plus a fixed margin, a CancelRequest in the middle
// of a large sort ends it within 2s (PostgreSQL checks for interrupts
// inside sorts), and statement_timeout stops regexp_replace over a long
// value. The measured figures are logged. ICEGATE_BIN names a built
// icegate; otherwise the test builds ./cmd/icegate.
func TestResourceLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("the resource test builds icegate and runs it out of memory on purpose; -short skips it")
	}
	bin := os.Getenv("ICEGATE_BIN")
	if bin == "" {
		bin = buildBinary(t)
	}
	srv := startResourceServer(t, bin, "ICEGATE_MAX_STATEMENT_MEM=256MB")
	pid := srv.cmd.Process.Pid
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, connString(srv.addr, "icegate", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	exec := func(sql string) error {
		_, err := conn.Exec(ctx, sql)
		return err
	}
	wantErr := func(sql, code string) time.Duration {
		t.Helper()
		start := time.Now()
		err := exec(sql)
		took := time.Since(start)
		if got, msg := pgCode(err); got != code {
			t.Errorf("%s: %v (SQLSTATE %s %s) after %v; want SQLSTATE %s", sql, err, got, msg, took, code)
		}
		return took
	}
	base := procStatusKB(t, pid, "VmRSS")
	t.Logf("server RSS at start: %d MB", base>>10)

	// statement_mem is bounded by the server's max_statement_mem.
	if err := exec("SET statement_mem = '1GB'"); func() string { c, _ := pgCode(err); return c }() != "22023" {
		t.Errorf("SET statement_mem above max_statement_mem: %v; want 22023", err)
	}

	// Memory bombs under statement_mem = 64MB.
	if err := exec("SET statement_mem = '64MB'"); err != nil {
		t.Fatal(err)
	}
	for _, b := range []struct{ sql, code string }{
		{"SELECT length(string_agg(repeat('x', 1000) || g, ',')) FROM generate_series(1, 300000) g", "53200"},
		{"SELECT g % 3, length(string_agg(repeat('x', 1000) || g, ',')) FROM generate_series(1, 300000) g GROUP BY 1", "53200"},
		{"SELECT cardinality(array_agg(repeat('x', 1000) || g)) FROM generate_series(1, 300000) g", "53200"},
		{"SELECT length(string_agg(repeat('x', 1000) || g, ',' ORDER BY g DESC)) FROM generate_series(1, 300000) g", "53200"},
		{"SELECT length(repeat('x', 300000000))", "53200"},
		{"SELECT length(repeat('x', g)) FROM generate_series(300000000, 300000001) g", "53200"},
		{"SELECT length(lpad('x', 200000000 + g)) FROM generate_series(1, 2) g", "53200"},
		{"SELECT length(lpad('x', 300000000 + g)) FROM generate_series(1, 2) g", "54000"}, // 4 bytes a character: over 1GB, as in PostgreSQL
		{"SELECT length(repeat('x', 2000000000))", "54000"},
		{"SELECT length(repeat('x', 1000000 + g) || repeat('y', 1000000)) FROM generate_series(1, 200) g", "53200"},
		{"SELECT length(replace(repeat('ab', 10000000 + g), 'b', 'bbbbbbbbbb')) FROM generate_series(1, 2) g", "53200"},
		{"SELECT length(regexp_replace(repeat('ab', 5000000 + g), 'b', 'xxxxxxxxxxxxxxxxxxxx', 'g')) FROM generate_series(1, 2) g", "53200"},
		// Growing window frames keep the values of every frame.
		{"SELECT max(length(s)) FROM (SELECT string_agg(repeat('x', 100) || g, ',') OVER (ORDER BY g ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) s FROM generate_series(1, 100000) g) q", "53200"},
		// A constant repeated over a batch of rows.
		{"SELECT count(x) FROM (SELECT repeat('x', 1000000) x FROM generate_series(1, 3000)) s", "53200"},
		// An uncorrelated subquery runs before the statement's rows.
		{"SELECT length(array_to_string(ARRAY(SELECT repeat('x', 1000) || g FROM generate_series(1, 300000) g), ','))", "53200"},
	} {
		took := wantErr(b.sql, b.code)
		t.Logf("%s: %s after %v, server peak RSS %d MB", b.sql, b.code, took.Round(time.Millisecond), procStatusKB(t, pid, "VmHWM")>>10)
	}
	// The peak: statement_mem, and what Go's collector lets the heap grow
	// to before it collects (twice what is live): twice the limit, plus a
	// fixed 256MB for the server and the batch in flight. A value that grew
	// by reallocation would leave its smaller copies behind as well - four
	// times the value for append's growth - which the limit does not see.
	peakBound := func(limitKB int64) int64 { return base + 2*limitKB + 256<<10 }
	peak := procStatusKB(t, pid, "VmHWM")
	if limit := peakBound(64 << 10); peak > limit {
		t.Errorf("server peak RSS %d MB under statement_mem = 64MB; want at most %d MB", peak>>10, limit>>10)
	}
	if err := exec("SELECT 1"); err != nil {
		t.Fatalf("the server after the bombs: %v", err)
	}

	// A CancelRequest in the middle of a sort of five million rows, with
	// a statement_timeout set that does not fire: 57014 due to user
	// request, soon after the request.
	if err := exec("SET statement_mem = 0; SET statement_timeout = '60s'"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		done <- exec("SELECT g FROM generate_series(1, 5000000) g ORDER BY random() LIMIT 1 OFFSET 4999999")
	}()
	select {
	case err := <-done:
		t.Fatalf("the sort ended before it was canceled, after %v: %v", time.Since(start), err)
	case <-time.After(2 * time.Second):
	}
	cancelAt := time.Now()
	cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
	if err := conn.PgConn().CancelRequest(cctx); err != nil {
		t.Fatalf("CancelRequest: %v", err)
	}
	ccancel()
	var sortErr error
	select {
	case sortErr = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the sort did not end within 60s of its CancelRequest")
	}
	latency := time.Since(cancelAt)
	t.Logf("ORDER BY random() over 5M rows: canceled 2s in, ended %v after the CancelRequest", latency.Round(time.Millisecond))
	if code, msg := pgCode(sortErr); code != "57014" || msg != "canceling statement due to user request" {
		t.Errorf("canceled sort: %v; want 57014 canceling statement due to user request", sortErr)
	}
	if latency > 2*time.Second {
		t.Errorf("the sort ended %v after its CancelRequest; want under 2s", latency)
	}

	// statement_timeout stops regexp_replace over a 40MB value.
	if err := exec("SET statement_timeout = '2s'"); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	err = exec("SELECT length(regexp_replace(repeat('ab', 20000000 + g), '(a|b)*?b', 'x', 'g')) FROM generate_series(1, 1) g")
	took := time.Since(start)
	t.Logf("regexp_replace over 40MB under statement_timeout = 2s: ended after %v", took.Round(time.Millisecond))
	if code, msg := pgCode(err); code != "57014" || msg != "canceling statement due to statement timeout" {
		t.Errorf("regexp_replace past statement_timeout: %v; want 57014 canceling statement due to statement timeout", err)
	}
	if took > 4*time.Second {
		t.Errorf("regexp_replace ended %v after it started under a 2s timeout; want under 4s", took)
	}
	// An uncorrelated subquery (run while the statement is planned) is
	// bounded by statement_timeout too.
	start = time.Now()
	err = exec("SELECT (SELECT count(*) FROM generate_series(1, 1000000000))")
	took = time.Since(start)
	t.Logf("a scalar subquery counting 10^9 rows under statement_timeout = 2s: ended after %v", took.Round(time.Millisecond))
	if code, msg := pgCode(err); code != "57014" || msg != "canceling statement due to statement timeout" {
		t.Errorf("scalar subquery past statement_timeout: %v; want 57014 canceling statement due to statement timeout", err)
	}
	if took > 4*time.Second {
		t.Errorf("the scalar subquery ended %v after it started under a 2s timeout; want under 4s", took)
	}

	// statement_mem = 0 means max_statement_mem (256MB), not no limit.
	if err := exec("SET statement_timeout = 0; SET statement_mem = 0"); err != nil {
		t.Fatal(err)
	}
	took = wantErr("SELECT length(string_agg(repeat('x', 1000) || g, ',')) FROM generate_series(1, 600000) g", "53200")
	t.Logf("string_agg of 600MB under statement_mem = 0 (max_statement_mem = 256MB): 53200 after %v, server peak RSS %d MB",
		took.Round(time.Millisecond), procStatusKB(t, pid, "VmHWM")>>10)
	if peak, limit := procStatusKB(t, pid, "VmHWM"), peakBound(256<<10); peak > limit {
		t.Errorf("server peak RSS %d MB under max_statement_mem = 256MB; want at most %d MB", peak>>10, limit>>10)
	}
	if err := exec("SELECT 1"); err != nil {
		t.Fatalf("the server after the bombs: %v", err)
	}
}
