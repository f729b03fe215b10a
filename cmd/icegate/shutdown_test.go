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
	src := &slowRows{n: rows, interval: 50 * time.Millisecond, started: make(chan struct{})}
	copier := s.connect(t)
	copyDone := make(chan error, 1)
	var tag pgconn.CommandTag
	go func() {
		var err error
		tag, err = copier.PgConn().CopyFrom(ctx, src, "COPY s.t FROM STDIN")
		copyDone <- err
	}()
	<-src.started
	time.Sleep(200 * time.Millisecond) // the COPY is under way
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
	if err := <-copyDone; err != nil {
		t.Fatalf("COPY during the drain: %v", err)
	}
	if tag.RowsAffected() != rows {
		t.Fatalf("COPY copied %d rows, want %d", tag.RowsAffected(), rows)
	}
	if code := s.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("exit status %d after SIGTERM, want 0\n%s", code, s.logs.String())
	}

	s2 := startProcess(t, bin, warehouse)
	if n := count(t, s2.connect(t), "s.t"); n != rows+1 {
		t.Errorf("after the restart s.t has %d rows, want %d", n, rows+1)
	}
}

// TestShutdownDrainTimeout: a statement running past
// shutdown.drain-timeout is canceled with 57P01, and the process exits.
func TestShutdownDrainTimeout(t *testing.T) {
	bin := releaseBinary(t)
	s := startProcess(t, bin, t.TempDir(), "ICEGATE_SHUTDOWN_DRAIN_TIMEOUT=1s")
	c := s.connect(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Exec(context.Background(), "SELECT pg_sleep(60)")
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	s.signal(t, syscall.SIGTERM)
	select {
	case err := <-done:
		if got := sqlState(err); got != "57P01" {
			t.Errorf("statement past the drain timeout: %v (SQLSTATE %q), want 57P01", err, got)
		}
		if d := time.Since(start); d < 900*time.Millisecond {
			t.Errorf("statement canceled %s after SIGTERM, before the 1s drain timeout", d)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("statement not canceled 20s after SIGTERM with a 1s drain timeout")
	}
	if code := s.wait(t, 20*time.Second); code != 0 {
		t.Fatalf("exit status %d, want 0\n%s", code, s.logs.String())
	}
}

// TestShutdownFast: SIGINT cancels a running statement with 57P01 at
// once, and the process exits 0.
func TestShutdownFast(t *testing.T) {
	bin := releaseBinary(t)
	s := startProcess(t, bin, t.TempDir())
	c := s.connect(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Exec(context.Background(), "SELECT pg_sleep(60)")
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	s.signal(t, syscall.SIGINT)
	select {
	case err := <-done:
		if got := sqlState(err); got != "57P01" {
			t.Errorf("statement at SIGINT: %v (SQLSTATE %q), want 57P01", err, got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("statement not canceled 10s after SIGINT")
	}
	if code := s.wait(t, 20*time.Second); code != 0 {
		t.Fatalf("exit status %d, want 0\n%s", code, s.logs.String())
	}
}

// TestShutdownImmediate: SIGQUIT ends the process at once, mid-COPY;
// after a restart every committed row is there and the table reads,
// holding either all of the interrupted COPY or none of it.
func TestShutdownImmediate(t *testing.T) {
	bin := releaseBinary(t)
	warehouse := t.TempDir()
	s := startProcess(t, bin, warehouse)
	ctx := context.Background()
	c := s.connect(t)
	exec1(t, c, "CREATE SCHEMA s")
	exec1(t, c, "CREATE TABLE s.t (id int, label text)")
	const committed = 5
	for i := range committed {
		exec1(t, c, "INSERT INTO s.t VALUES ("+string(rune('0'+i))+", 'committed')")
	}
	const rows = 40
	src := &slowRows{n: rows, interval: 25 * time.Millisecond, started: make(chan struct{})}
	copier := s.connect(t)
	go func() { _, _ = copier.PgConn().CopyFrom(ctx, src, "COPY s.t FROM STDIN") }()
	<-src.started
	time.Sleep(300 * time.Millisecond)
	s.signal(t, syscall.SIGQUIT)
	if code := s.wait(t, 10*time.Second); code != immediateExitStatus {
		t.Fatalf("exit status %d after SIGQUIT, want %d\n%s", code, immediateExitStatus, s.logs.String())
	}
	s2 := startProcess(t, bin, warehouse)
	n := count(t, s2.connect(t), "s.t")
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
	if code := s.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("exit status %d, want 0\n%s", code, s.logs.String())
	}
	s2 := startProcess(t, bin, warehouse)
	if n := count(t, s2.connect(t), "s.t"); n != 3 {
		t.Errorf("after the restart s.t has %d rows, want 3", n)
	}
}
