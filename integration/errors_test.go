package integration

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestStatementErrors checks that errors reach clients with PostgreSQL's
// SQLSTATEs (and a position for syntax errors), in both query modes, and
// that the connection stays usable after each.
func TestStatementErrors(t *testing.T) {
	addr := startServer(t, fixtures.Warehouse(t), serverOpts{})
	conn := connect(t, addr)
	tests := []struct {
		name     string
		sql      string
		code     string
		position int32 // 0: not checked
	}{
		{name: "unknown table", sql: "SELECT * FROM iceberg.no_such_table", code: pgerr.UndefinedTable},
		{name: "unknown namespace", sql: "SELECT * FROM no_such_namespace.duckdb__uuid", code: pgerr.UndefinedTable},
		{name: "unknown column", sql: "SELECT no_such_column FROM iceberg.duckdb__uuid", code: pgerr.UndefinedColumn},
		{name: "syntax error at a token", sql: "SELEC 1", code: pgerr.SyntaxError, position: 1},
		{name: "syntax error at end of input", sql: "SELECT 1 FROM", code: pgerr.SyntaxError, position: 14},
		{name: "row locking with DISTINCT", sql: "SELECT DISTINCT * FROM iceberg.duckdb__uuid FOR UPDATE",
			code: pgerr.FeatureNotSupported},
		{name: "ambiguous column", sql: "SELECT uuid FROM iceberg.duckdb__uuid a JOIN iceberg.duckdb__uuid b ON a.uuid = b.uuid",
			code: pgerr.AmbiguousColumn, position: 8},
		{name: "scalar subquery with two rows", sql: "SELECT (SELECT uuid FROM iceberg.duckdb__uuid CROSS JOIN (VALUES (1), (2)) v)",
			code: pgerr.CardinalityViolation},
	}
	modes := []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol}
	for _, tc := range tests {
		for _, mode := range modes {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				ctx := testCtx(t)
				rows, err := conn.Query(ctx, tc.sql, mode)
				if err == nil {
					for rows.Next() {
					}
					rows.Close()
					err = rows.Err()
				}
				var pe *pgconn.PgError
				if !errors.As(err, &pe) {
					t.Fatalf("%s: want a server error with SQLSTATE %s, got %v", tc.sql, tc.code, err)
				}
				if pe.Code != tc.code {
					t.Errorf("%s: SQLSTATE %s (%s), want %s", tc.sql, pe.Code, pe.Message, tc.code)
				}
				if tc.position != 0 && pe.Position != tc.position {
					t.Errorf("%s: error position %d, want %d (%s)", tc.sql, pe.Position, tc.position, pe.Message)
				}
				var one int
				if err := conn.QueryRow(ctx, "SELECT 1", mode).Scan(&one); err != nil || one != 1 {
					t.Errorf("connection unusable after the error: %v", err)
				}
			})
		}
	}
}

// TestAuthErrors checks password authentication against a server with a
// configured user and a built-in password.
func TestAuthErrors(t *testing.T) {
	verifier, err := auth.NewVerifier("alice-secret")
	if err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, fixtures.Warehouse(t), serverOpts{
		users:    []auth.User{{Name: "alice", SCRAM: verifier}},
		password: "builtin-secret",
	})
	tests := []struct {
		user, password string
		code           string // "" = success
	}{
		{"alice", "alice-secret", ""},
		{"icegate", "builtin-secret", ""},
		{"alice", "wrong", pgerr.InvalidPassword},
		{"icegate", "alice-secret", pgerr.InvalidPassword},
		{"mallory", "anything", pgerr.InvalidPassword},
	}
	for _, tc := range tests {
		t.Run(tc.user+"/"+tc.password, func(t *testing.T) {
			ctx := testCtx(t)
			conn, err := pgx.Connect(ctx, connString(addr, tc.user, tc.password))
			if tc.code == "" {
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer conn.Close(ctx)
				var one int
				if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
					t.Fatalf("query after login: %v", err)
				}
				return
			}
			if err == nil {
				conn.Close(ctx)
				t.Fatalf("connected; want SQLSTATE %s", tc.code)
			}
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != tc.code {
				t.Fatalf("connect error %v, want SQLSTATE %s", err, tc.code)
			}
		})
	}
}

// TestStartupParameters checks startup parameters go through the session
// settings as PostgreSQL's do: what drivers send, placeholders with a dot,
// iceberg.* options and -c switches in options are set; an unknown
// parameter is FATAL 42704 and a replication connection FATAL 0A000.
func TestStartupParameters(t *testing.T) {
	addr := startServer(t, fixtures.Warehouse(t), serverOpts{})
	tests := []struct {
		name, params string // extra URL query parameters
		show         map[string]string
		code         string // "" = success
	}{
		{name: "pgJDBC's", params: "extra_float_digits=3&application_name=PostgreSQL%20JDBC%20Driver&client_encoding=UTF8&DateStyle=ISO",
			show: map[string]string{"extra_float_digits": "3", "application_name": "PostgreSQL JDBC Driver", "DateStyle": "ISO, MDY"}},
		{name: "search_path and a placeholder", params: "search_path=iceberg&myapp.tenant=7",
			show: map[string]string{"search_path": "iceberg", "myapp.tenant": "7"}},
		{name: "options", params: "options=-c%20statement_timeout%3D5s%20-c%20iceberg.vectorization.enabled%3Dfalse",
			show: map[string]string{"statement_timeout": "5s"}},
		{name: "replication off", params: "replication=false"},
		{name: "unknown parameter", params: "nosuch=1", code: pgerr.UndefinedObject},
		{name: "unknown parameter in options", params: "options=-c%20nosuch%3D1", code: pgerr.UndefinedObject},
		{name: "replication", params: "replication=database", code: pgerr.FeatureNotSupported},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			conn, err := pgx.Connect(ctx, connString(addr, "icegate", "")+"&"+tc.params)
			if tc.code != "" {
				var pe *pgconn.PgError
				if err == nil {
					conn.Close(ctx)
				}
				if !errors.As(err, &pe) || pe.Code != tc.code || pe.Severity != "FATAL" {
					t.Fatalf("connect: %v, want FATAL %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer conn.Close(ctx)
			for name, want := range tc.show {
				var got string
				if err := conn.QueryRow(ctx, "SHOW "+name).Scan(&got); err != nil || got != want {
					t.Errorf("SHOW %s: %q, %v; want %q", name, got, err, want)
				}
			}
		})
	}
}

// TestBrokenConnections sends a malformed startup packet and, on an
// authenticated connection, a garbage message: each must close only its own
// connection while another connection keeps working.
func TestBrokenConnections(t *testing.T) {
	addr := startServer(t, fixtures.Warehouse(t), serverOpts{})
	bystander := connect(t, addr)

	startup := func(params map[string]string) []byte {
		msg := &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: params}
		b, err := msg.Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name string
		// handshake: complete a trusted startup before sending junk.
		handshake bool
		junk      []byte
	}{
		{name: "startup length too short", junk: []byte{0, 0, 0, 3}},
		{name: "startup length huge", junk: []byte{0x7f, 0xff, 0xff, 0xff, 0, 3, 0, 0}},
		{name: "unknown protocol version", junk: []byte{0, 0, 0, 8, 0, 9, 0, 9}},
		{name: "http request", junk: []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")},
		{name: "startup parameters not terminated", junk: func() []byte {
			b := startup(map[string]string{"user": "icegate"})
			b = b[:len(b)-1]
			binary.BigEndian.PutUint32(b, uint32(len(b)))
			return b
		}()},
		{name: "unknown message type after login", handshake: true, junk: []byte{'!', 0, 0, 0, 4}},
		{name: "message length too short after login", handshake: true, junk: []byte{'Q', 0, 0, 0, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			nc.SetDeadline(time.Now().Add(10 * time.Second))
			r := bufio.NewReader(nc)
			if tc.handshake {
				if _, err := nc.Write(startup(map[string]string{"user": "icegate", "database": "icegate"})); err != nil {
					t.Fatal(err)
				}
				readUntilReady(t, r)
			}
			if _, err := nc.Write(tc.junk); err != nil {
				t.Fatalf("write: %v", err)
			}
			// The server may send an ErrorResponse first; then it must close.
			if err := drainUntilClosed(r); err != nil {
				t.Fatalf("server did not close the broken connection: %v", err)
			}

			var one int
			if err := bystander.QueryRow(testCtx(t), "SELECT 1").Scan(&one); err != nil || one != 1 {
				t.Fatalf("other connection broken too: %v", err)
			}
		})
	}
}

// readUntilReady reads backend messages up to the first ReadyForQuery.
func readUntilReady(t *testing.T, r *bufio.Reader) {
	t.Helper()
	for {
		typ, body, err := readMessage(r)
		if err != nil {
			t.Fatalf("handshake: %v", err)
		}
		switch typ {
		case 'Z':
			return
		case 'E':
			t.Fatalf("handshake: server error %q", body)
		}
	}
}

// drainUntilClosed reads messages until EOF (or a reset), failing on a
// timeout, which means the connection was left open.
func drainUntilClosed(r *bufio.Reader) error {
	for {
		_, _, err := readMessage(r)
		if err == nil {
			continue
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return err
		}
		return nil // EOF, reset or a truncated message: closed
	}
}

func readMessage(r *bufio.Reader) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if n < 4 || n > 1<<24 {
		return 0, nil, errors.New("bad message length from server")
	}
	body := make([]byte, n-4)
	_, err := io.ReadFull(r, body)
	return hdr[0], body, err
}

// TestConstantErrorBeforeRowDescription: PostgreSQL raises the error of a
// constant expression (SELECT 1/0, 2147483647 + 1) while planning, so a
// simple query sends no RowDescription before it; clients that print the
// columns of a failed query (or count results) see the same from icegate.
// Rows sent before a later row fails keep their RowDescription.
func TestConstantErrorBeforeRowDescription(t *testing.T) {
	ctx := testCtx(t)
	conn := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	for _, c := range []struct{ sql, code string }{
		{"SELECT 1/0", "22012"},
		{"SELECT 2147483647 + 1 AS x", "22003"},
		{"SELECT 1; SELECT 1/0 AS y", "22012"},
	} {
		mrr := conn.PgConn().Exec(ctx, c.sql)
		var described [][]string
		for mrr.NextResult() {
			var names []string
			for _, fd := range mrr.ResultReader().FieldDescriptions() {
				names = append(names, fd.Name)
			}
			described = append(described, names)
			_, _ = mrr.ResultReader().Close()
		}
		err := mrr.Close()
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != c.code {
			t.Errorf("%s: %v, want %s", c.sql, err, c.code)
		}
		for _, names := range described {
			if len(names) != 1 || names[0] != "?column?" {
				t.Errorf("%s: the failing statement described its columns %v before its error", c.sql, described)
			}
		}
	}
}
