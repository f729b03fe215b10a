package main

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestShutdownDrain sends SIGTERM while a COPY streams: the COPY
// finishes and commits, an idle session is told 57P01, a new connection
// gets 57P03, the process exits 0, and after a restart the COPY's rows
// are there.
func TestShutdownDrain(t *testing.T) {
	bin := releaseBinary(t)
	warehouse := t.TempDir()
	s := startProcess(t, bin, warehouse, "ICEGATE_SHUTDOWN_DRAIN_TIMEOUT=60s")
	ctx := context.Background()
	admin := s.connect(t)
	exec1(t, admin, "CREATE SCHEMA s")
	exec1(t, admin, "CREATE TABLE s.t (id int, label text)")
	exec1(t, admin, "INSERT INTO s.t VALUES (0, 'before')")
	idle := s.connect(t)
	exec1(t, idle, "SELECT 1")

	const rows = 30
	copyDone := s.slowCopy(t, rows, 50*time.Millisecond)
	s.signal(t, syscall.SIGTERM)

	// New connections are refused with 57P03 while the COPY runs.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := s.tryConnect()
		if err == nil {
			_ = c.Close(ctx)
			if time.Now().After(deadline) {
				t.Fatal("new connections still accepted 5s after SIGTERM")
			}
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if got := sqlState(err); got != "57P03" || !strings.Contains(err.Error(), "the database system is shutting down") {
			t.Fatalf("connecting while draining: %v (SQLSTATE %q), want 57P03 the database system is shutting down", err, got)
		}
		break
	}
	// The idle session was closed with 57P01.
	if _, err := idle.Exec(ctx, "SELECT 1"); err == nil {
		t.Error("an idle session could still run a statement while draining")
	} else if got := sqlState(err); got != "57P01" && !idle.IsClosed() {
		t.Errorf("idle session while draining: %v (SQLSTATE %q), want 57P01 or a closed connection", err, got)
	}
	if res := <-copyDone; res.err != nil || res.tag.RowsAffected() != rows {
		t.Fatalf("COPY during the drain: %v, %d rows, want %d", res.err, res.tag.RowsAffected(), rows)
	}
	s.wantExit(t, 30*time.Second, 0)

	if n := rowsAfterRestart(t, bin, warehouse, "s.t"); n != rows+1 {
		t.Errorf("after the restart s.t has %d rows, want %d", n, rows+1)
	}
}

// copyResult is how a COPY ended.
type copyResult struct {
	tag pgconn.CommandTag
	err error
}

// slowCopy starts, on a connection of its own, a COPY into s.t of rows
// rows sent one every interval, and returns once it is under way; the
// channel says how it ended.
func (s *server) slowCopy(t *testing.T, rows int, interval time.Duration) <-chan copyResult {
	t.Helper()
	src := &slowRows{n: rows, interval: interval, started: make(chan struct{})}
	copier := s.connect(t)
	done := make(chan copyResult, 1)
	go func() {
		tag, err := copier.PgConn().CopyFrom(context.Background(), src, "COPY s.t FROM STDIN")
		done <- copyResult{tag, err}
	}()
	<-src.started
	time.Sleep(200 * time.Millisecond) // a few rows are in
	return done
}

// rowsAfterRestart starts the binary again on the warehouse and counts
// the rows of table.
func rowsAfterRestart(t *testing.T, bin, warehouse, table string) int64 {
	t.Helper()
	return count(t, startProcess(t, bin, warehouse).connect(t), table)
}

// wantExit waits for the process to exit and checks its status.
func (s *server) wantExit(t *testing.T, within time.Duration, status int) {
	t.Helper()
	if code := s.wait(t, within); code != status {
		t.Fatalf("exit status %d, want %d\n%s", code, status, s.logs.String())
	}
}

// TestShutdownCancelsRunning: a statement running when SIGINT comes, or
// past shutdown.drain-timeout after SIGTERM, is canceled with 57P01 (not
// before the timeout), and the process exits 0.
func TestShutdownCancelsRunning(t *testing.T) {
	bin := releaseBinary(t)
	cases := []struct {
		name     string
		sig      syscall.Signal
		env      []string
		notUntil time.Duration // the statement runs at least this long after the signal
	}{
		{name: "SIGTERM past the drain timeout", sig: syscall.SIGTERM, env: []string{"ICEGATE_SHUTDOWN_DRAIN_TIMEOUT=1s"}, notUntil: 900 * time.Millisecond},
		{name: "SIGINT", sig: syscall.SIGINT},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startProcess(t, bin, t.TempDir(), tc.env...)
			c := s.connect(t)
			done := make(chan error, 1)
			go func() {
				_, err := c.Exec(context.Background(), "SELECT pg_sleep(60)")
				done <- err
			}()
			time.Sleep(300 * time.Millisecond) // the statement is running
			start := time.Now()
			s.signal(t, tc.sig)
			select {
			case err := <-done:
				if got := sqlState(err); got != "57P01" {
					t.Errorf("statement: %v (SQLSTATE %q), want 57P01", err, got)
				}
				if d := time.Since(start); d < tc.notUntil {
					t.Errorf("statement canceled %s after the signal, before %s", d, tc.notUntil)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("statement not canceled 20s after the signal")
			}
			s.wantExit(t, 20*time.Second, 0)
		})
	}
}

// TestShutdownImmediate: SIGQUIT ends the process at once, mid-COPY;
// after a restart every committed row is there and the table reads,
// holding either all of the interrupted COPY or none of it.
func TestShutdownImmediate(t *testing.T) {
	bin := releaseBinary(t)
	warehouse := t.TempDir()
	s := startProcess(t, bin, warehouse)
	c := s.connect(t)
	exec1(t, c, "CREATE SCHEMA s")
	exec1(t, c, "CREATE TABLE s.t (id int, label text)")
	const committed = 5
	for i := range committed {
		exec1(t, c, "INSERT INTO s.t VALUES ("+string(rune('0'+i))+", 'committed')")
	}
	const rows = 40
	s.slowCopy(t, rows, 25*time.Millisecond)
	s.signal(t, syscall.SIGQUIT)
	s.wantExit(t, 10*time.Second, immediateExitStatus)
	n := rowsAfterRestart(t, bin, warehouse, "s.t")
	if n != committed && n != committed+rows {
		t.Errorf("after SIGQUIT and a restart s.t has %d rows, want %d (COPY lost whole) or %d", n, committed, committed+rows)
	}
}

// TestShutdownDrainTransactionBlock: a session inside BEGIN when SIGTERM
// comes may still reach its COMMIT, which commits; then it is closed with
// 57P01, and the rows are there after a restart.
func TestShutdownDrainTransactionBlock(t *testing.T) {
	bin := releaseBinary(t)
	warehouse := t.TempDir()
	s := startProcess(t, bin, warehouse, "ICEGATE_SHUTDOWN_DRAIN_TIMEOUT=60s")
	ctx := context.Background()
	c := s.connect(t)
	exec1(t, c, "CREATE SCHEMA s")
	exec1(t, c, "CREATE TABLE s.t (id int)")
	exec1(t, c, "BEGIN")
	exec1(t, c, "INSERT INTO s.t VALUES (1), (2)")
	s.signal(t, syscall.SIGTERM)
	time.Sleep(300 * time.Millisecond) // the drain has begun
	exec1(t, c, "INSERT INTO s.t VALUES (3)")
	exec1(t, c, "COMMIT")
	if _, err := c.Exec(ctx, "SELECT 1"); err == nil {
		t.Error("the session ran a statement after its block ended during the drain")
	}
	s.wantExit(t, 30*time.Second, 0)
	if n := rowsAfterRestart(t, bin, warehouse, "s.t"); n != 3 {
		t.Errorf("after the restart s.t has %d rows, want 3", n)
	}
}
