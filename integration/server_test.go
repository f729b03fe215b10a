package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/translate"
	"github.com/icegate/icegate/wire"
)

// serverOpts tunes the in-process server; the zero value serves the
// catalog "icegate" with trust authentication for the built-in user.
type serverOpts struct {
	catalogName string
	users       []auth.User
	password    string // of the built-in user icegate
	maxConns    int
	tempDir     string // where statements spill; "" = a directory of the test's
	// roles keeps roles and privileges in the warehouse's .icegate/roles,
	// as icegate serve does, with the configured users as superusers.
	roles bool
}

// startServer serves warehouse in-process on 127.0.0.1 with a free port,
// wired as `icegate serve` wires it, and returns the address. The server
// stops, and its connections close, when the test ends.
func startServer(t testing.TB, warehouse string, opts serverOpts) string {
	t.Helper()
	if opts.catalogName == "" {
		opts.catalogName = "icegate"
	}
	if opts.maxConns == 0 {
		opts.maxConns = 100
	}
	logger := slog.New(slog.NewTextHandler(testLogWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))

	cat, err := catalog.NewFilesystem(opts.catalogName, warehouse, nil)
	if err != nil {
		t.Fatalf("open warehouse %s: %v", warehouse, err)
	}
	authn, err := auth.New(opts.users, opts.password, logger)
	if err != nil {
		t.Fatalf("auth.New: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	if err := authn.CheckListen(ln.Addr().String()); err != nil {
		ln.Close()
		t.Fatalf("CheckListen: %v", err)
	}
	if opts.tempDir == "" {
		opts.tempDir = t.TempDir()
	}
	tmp, err := spill.Open(opts.tempDir, logger)
	if err != nil {
		t.Fatalf("temporary directory: %v", err)
	}
	var store *roles.Store
	if opts.roles {
		boot := []string{auth.BuiltinUser}
		for _, u := range opts.users {
			boot = append(boot, u.Name)
		}
		if store, err = roles.Open(context.Background(), filepath.Join(warehouse, ".icegate", "roles"), boot); err != nil {
			t.Fatalf("roles store: %v", err)
		}
		store.SetPasswords(auth.NewVerifier, func(v string) error { _, err := auth.ParseVerifier(v); return err })
		authn.SetLookup(func(user string) (string, bool) { return store.Verifier(context.Background(), user, time.Now()) })
	}
	srv := wire.NewServer(wire.Config{
		Backend:        translate.NewBackend(cat, translate.Options{Logger: logger, TempDir: tmp, Roles: store}),
		Auth:           authn,
		MaxConnections: opts.maxConns,
		Logger:         logger,
	})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := srv.Serve(ctx, ln); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, net.ErrClosed) {
			t.Errorf("Serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("server on %s did not stop within 10s of its context's cancel", ln.Addr())
		}
		tmp.Close()
	})
	return ln.Addr().String()
}

// testLogWriter sends server logs to the test log, so they show with -v or
// on failure only.
type testLogWriter struct{ t testing.TB }

func (w testLogWriter) Write(p []byte) (int, error) {
	w.t.Logf("server: %s", p)
	return len(p), nil
}

var _ io.Writer = testLogWriter{}

// freeAddr is a loopback address nothing listens on (yet).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// connString is a libpq-style URL for the built-in user on addr.
func connString(addr, user, password string) string {
	host, port, _ := net.SplitHostPort(addr)
	if password != "" {
		user += ":" + password
	}
	return fmt.Sprintf("postgres://%s@%s:%s/icegate?sslmode=disable&TimeZone=UTC", user, host, port)
}

// connect opens a pgx connection to addr as the built-in user, closed at
// the end of the test.
func connect(t testing.TB, addr string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connString(addr, "icegate", ""))
	if err != nil {
		t.Fatalf("connect to %s: %v", addr, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// testCtx is a context bounded by the test's deadline, or a minute.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
