package integration

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestIdleInTransactionTimeout checks idle_in_transaction_session_timeout
// as PostgreSQL applies it: a session idle that long inside a transaction
// block ends with FATAL 25P03; outside a block it does not.
func TestIdleInTransactionTimeout(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	idle := connect(t, addr)
	if _, err := idle.Exec(ctx, "SET idle_in_transaction_session_timeout = '200ms'"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond) // idle, but not in a block
	if _, err := idle.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatalf("idle outside a block: %v", err)
	}
	if _, err := idle.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := idle.Exec(ctx, "SELECT 1"); err != nil { // busy in the block: fine
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	_, err := idle.Exec(ctx, "SELECT 1")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "25P03" || pe.Severity != "FATAL" || !idle.IsClosed() {
		t.Fatalf("idle in a block past the timeout: want FATAL 25P03 and a closed connection, got %v (closed %v)", err, idle.IsClosed())
	}
	// The server goes on serving others.
	other := connect(t, addr)
	if _, err := other.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatalf("another session after the timeout: %v", err)
	}
	if _, err := other.Exec(ctx, "SET idle_in_transaction_session_timeout = 'soon'"); err == nil {
		t.Fatal("a bad value was accepted")
	}
}
