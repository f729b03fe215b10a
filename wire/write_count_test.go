package wire

import (
	"context"
	"net"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate"
)

// countingListener counts the writes to the connections it accepts.
type countingListener struct {
	net.Listener
	writes *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{Conn: c, writes: l.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// TestWritesPerQuery counts the socket writes of one execution of a
// prepared query (Bind, Describe, Execute, Sync): a result of a few rows
// stays buffered with the messages before it and its completion, all
// written at Sync in one write; a result larger than the small-rows bound
// goes out in writes of its own, between the messages before it and the
// completion.
func TestWritesPerQuery(t *testing.T) {
	cat, err := catalog.NewFilesystem("icegate", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := auth.New(nil, "", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(Config{Backend: translate.NewBackend(cat, translate.Options{Logger: quietLogger()}), Auth: a, Logger: quietLogger()})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var writes atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, countingListener{Listener: ln, writes: &writes}) }()
	defer func() { cancel(); <-done }()
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+ln.Addr().String()+"/icegate?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (id bigint, v text)",
		"INSERT INTO ns.t SELECT g, 'v' || g FROM generate_series(1, 1000) g"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		sql    string
		arg    int64
		rows   int
		writes int64
	}{
		{"one row", "SELECT id, v FROM ns.t WHERE id = $1", 7, 1, 1},
		{"no row", "SELECT id, v FROM ns.t WHERE id = $1", 7000, 0, 1},
		{"rows past the bound", "SELECT id, v FROM ns.t WHERE id > $1", 900, 100, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func() int {
				rows, err := conn.Query(ctx, tc.sql, tc.arg)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for rows.Next() {
					n++
				}
				if rows.Err() != nil {
					t.Fatal(rows.Err())
				}
				return n
			}
			run() // prepares the statement
			before := writes.Load()
			if n := run(); n != tc.rows {
				t.Fatalf("%d rows, want %d", n, tc.rows)
			}
			if got := writes.Load() - before; got != tc.writes {
				t.Errorf("%d writes, want %d", got, tc.writes)
			}
		})
	}
}
