package oracle

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// icegateBinary returns the icegate binary to test: $ICEGATE_BIN, or one
// built from the main module two directories up.
func icegateBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("ICEGATE_BIN"); bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			t.Fatalf("ICEGATE_BIN %q: %v", bin, err)
		}
		return abs
	}
	bin := filepath.Join(t.TempDir(), "icegate")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/icegate")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build icegate: %v\n%s", err, out)
	}
	return bin
}

// startIcegate serves warehouse on a free loopback port until the test
// ends, and returns the port.
func startIcegate(t *testing.T, warehouse string) int {
	t.Helper()
	return startIcegateWith(t, "--warehouse", warehouse)
}

// startIcegateWith serves with the given arguments of icegate serve (a
// --config, a --warehouse) on a free loopback port until the test ends, and
// returns the port.
func startIcegateWith(t *testing.T, args ...string) int {
	t.Helper()
	return startIcegateEnv(t, nil, args...)
}

// startIcegateEnv is startIcegateWith with env ("NAME=value") added to
// the cleaned environment.
func startIcegateEnv(t *testing.T, env []string, args ...string) int {
	t.Helper()
	bin := icegateBinary(t)
	port := freePort(t)
	var logs bytes.Buffer
	cmd := exec.Command(bin, append(append([]string{"serve"}, args...), "--listen", fmt.Sprintf("127.0.0.1:%d", port))...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(cleanEnv(), env...)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start icegate: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("icegate log:\n%s", logs.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			conn.Close()
			return port
		}
		select {
		case err := <-exited:
			exited <- err // for the cleanup, which waits for it too
			t.Fatalf("icegate serve exited early: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("icegate not accepting on port %d: %v\n%s", port, err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cleanEnv is the environment without ICEGATE_* and PG* settings, so the
// server runs on its defaults whatever the caller's shell holds.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "ICEGATE_") || strings.HasPrefix(kv, "PG") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// connect opens a pgx connection that uses the simple protocol, so every
// value arrives in text format, with the session TimeZone UTC.
func connect(ctx context.Context, t *testing.T, port int) *pgx.Conn {
	t.Helper()
	return connectTo(ctx, t, port, "icegate")
}

// connectTo is connect to database db (a catalog's name).
func connectTo(ctx context.Context, t *testing.T, port int, db string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=127.0.0.1 port=%d user=icegate dbname=%s sslmode=disable connect_timeout=10", port, db))
	if err != nil {
		t.Fatalf("parse connection config: %v", err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	cfg.RuntimeParams["TimeZone"] = "UTC"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect to icegate: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// queryText runs sql and returns the column names and every row as
// canonical cells (the server's text, NULL as NULL).
func queryText(ctx context.Context, conn *pgx.Conn, sql string) ([]string, [][]cell, error) {
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var names []string
	for _, fd := range rows.FieldDescriptions() {
		names = append(names, fd.Name)
	}
	var out [][]cell
	for rows.Next() {
		raw := rows.RawValues()
		row := make([]cell, len(raw))
		for i, v := range raw {
			if v == nil {
				row[i] = cell{null: true}
			} else {
				row[i] = cell{text: string(v)}
			}
		}
		out = append(out, row)
	}
	return names, out, rows.Err()
}
