package wire

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

// loopDeadline bounds one fuzz input: the server must answer and close the
// connection within it once the client has sent everything.
const loopDeadline = 10 * time.Second

// FuzzMessageLoop feeds arbitrary bytes to a session after a valid startup
// and checks the server neither panics (in the message loop or while running
// a statement) nor hangs: once the client half-closes, the server must end
// the connection and free its slot. The seeds are real sessions: the bytes
// pgx sends for queries, prepared statements with binary parameters,
// batches, COPY FROM STDIN and errors, recorded below, and hand-built
// extended-protocol exchanges. CI runs it for a fixed count of inputs:
//
//	go test ./wire -run '^$' -fuzz FuzzMessageLoop -fuzztime 12000x
func FuzzMessageLoop(f *testing.F) {
	panics := &panicLog{}
	ts := startServer(f, Config{Logger: slog.New(panics), MaxMessageSize: 1 << 20})
	// Sleeping statements report on a buffered channel: keep it empty so
	// inputs that run many of them do not block the server.
	stopDrain := make(chan struct{})
	f.Cleanup(func() { close(stopDrain) })
	go func() {
		for {
			select {
			case <-ts.backend.events:
			case <-stopDrain:
				return
			}
		}
	}()
	for _, seed := range recordedSessions(f, ts) {
		f.Add(seed)
	}
	for _, seed := range builtSessions(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		_ = nc.SetDeadline(time.Now().Add(loopDeadline))
		c := &rawClient{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
			Parameters: map[string]string{"user": "tester"}})
		c.until()
		// Write and read at once: the server may answer before it has read
		// everything, and must not block on a client that reads slowly.
		written := make(chan error, 1)
		go func() {
			_, err := nc.Write(input)
			if err == nil {
				err = nc.(*net.TCPConn).CloseWrite()
			}
			written <- err
		}()
		if _, err := io.Copy(io.Discard, nc); err != nil {
			t.Fatalf("server did not close the connection within %s: %v", loopDeadline, err)
		}
		<-written // a write error is fine: the server may close first
		if p := panics.take(); p != "" {
			t.Fatalf("server panicked: %s", p)
		}
		if !waitIdle(ts.srv, loopDeadline) {
			t.Fatal("connection slot still held after the client left")
		}
	})
}

// waitIdle waits until srv has no registered connection.
func waitIdle(srv *Server, d time.Duration) bool {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		srv.mu.Lock()
		n := srv.active
		srv.mu.Unlock()
		if n == 0 {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// panicLog is a slog handler that keeps the server's panic reports, except
// the test backend's deliberate one (the "panic" statement).
type panicLog struct {
	mu  sync.Mutex
	got string
}

func (h *panicLog) Enabled(context.Context, slog.Level) bool { return true }

func (h *panicLog) Handle(_ context.Context, r slog.Record) error {
	if !strings.Contains(r.Message, "panic") {
		return nil
	}
	var value, stack string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "panic":
			value = a.Value.String()
		case "stack":
			stack = a.Value.String()
		}
		return true
	})
	if value == "test backend panics" {
		return nil
	}
	h.mu.Lock()
	h.got += r.Message + ": " + value + "\n" + stack
	h.mu.Unlock()
	return nil
}

func (h *panicLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *panicLog) WithGroup(string) slog.Handler      { return h }

func (h *panicLog) take() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.got
	h.got = ""
	return s
}

// recorder keeps what a client writes.
type recorder struct {
	net.Conn
	mu  sync.Mutex
	out bytes.Buffer
}

func (r *recorder) Write(b []byte) (int, error) {
	r.mu.Lock()
	r.out.Write(b)
	r.mu.Unlock()
	return r.Conn.Write(b)
}

// recordedSessions runs pgx scenarios against ts and returns what the
// client sent after its StartupMessage.
func recordedSessions(f *testing.F, ts *testServer) [][]byte {
	ctx := context.Background()
	scenarios := map[string]func(*pgx.Conn) error{
		"simple and extended queries": func(c *pgx.Conn) error {
			var n int64
			if err := c.QueryRow(ctx, "select numbers 3 2").Scan(&n); err != nil {
				return err
			}
			_, err := c.Exec(ctx, "select numbers 2 1", pgx.QueryExecModeSimpleProtocol)
			return err
		},
		"binary parameters and results": func(c *pgx.Conn) error {
			var s string
			for _, v := range []any{int64(42), 1.5, true, time.Date(2024, 1, 31, 12, 0, 0, 0, time.UTC), []byte{1, 2}} {
				typ := map[string]string{"int64": "int8", "float64": "float8", "bool": "bool", "time.Time": "timestamptz", "[]uint8": "bytea"}[fmt.Sprintf("%T", v)]
				if err := c.QueryRow(ctx, "echo "+typ, v).Scan(&s); err != nil {
					return err
				}
			}
			rows, err := c.Query(ctx, "select types")
			if err != nil {
				return err
			}
			rows.Close()
			return rows.Err()
		},
		"batch with an error": func(c *pgx.Conn) error {
			b := &pgx.Batch{}
			b.Queue("select numbers 1 1")
			b.Queue("echo text", "x")
			b.Queue("select nothing")
			_ = c.SendBatch(ctx, b).Close()
			return nil
		},
		"copy from stdin": func(c *pgx.Conn) error {
			_, err := c.PgConn().CopyFrom(ctx, strings.NewReader("1\tx\t\\N\n2\ta\tb\n"), "copy t from stdin")
			if err != nil {
				return err
			}
			_, err = c.PgConn().CopyFrom(ctx, strings.NewReader("1,a\n"), "copy t from stdin csv")
			_ = err // a COPY error is part of the session
			return nil
		},
		"transaction": func(c *pgx.Conn) error {
			_, _ = c.Exec(ctx, "begin")
			_, _ = c.Exec(ctx, "error")
			_, err := c.Exec(ctx, "commit")
			return err
		},
	}
	var seeds [][]byte
	for name, run := range scenarios {
		cfg, err := pgx.ParseConfig(ts.url("tester", ""))
		if err != nil {
			f.Fatal(err)
		}
		var rec *recorder
		cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
			nc, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			rec = &recorder{Conn: nc}
			return rec, err
		}
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			f.Fatalf("%s: %v", name, err)
		}
		if err := run(conn); err != nil {
			f.Fatalf("%s: %v", name, err)
		}
		_ = conn.Close(ctx)
		rec.mu.Lock()
		stream := rec.out.Bytes()
		rec.mu.Unlock()
		if len(stream) < 4 {
			f.Fatalf("%s: nothing recorded", name)
		}
		startup := int(binary.BigEndian.Uint32(stream))
		seeds = append(seeds, bytes.Clone(stream[startup:]))
	}
	return seeds
}

// builtSessions are exchanges pgx does not make on its own: portals run a
// few rows at a time, Describe of both kinds, Close, Flush, binary COPY.
func builtSessions(f *testing.F) [][]byte {
	encode := func(msgs ...pgproto3.FrontendMessage) []byte {
		var out []byte
		for _, m := range msgs {
			var err error
			if out, err = m.Encode(out); err != nil {
				f.Fatal(err)
			}
		}
		return out
	}
	return [][]byte{
		encode(&pgproto3.Parse{Name: "s", Query: "select numbers 5 2"}, &pgproto3.Describe{ObjectType: 'S', Name: "s"},
			&pgproto3.Bind{DestinationPortal: "p", PreparedStatement: "s", ResultFormatCodes: []int16{1}},
			&pgproto3.Describe{ObjectType: 'P', Name: "p"}, &pgproto3.Execute{Portal: "p", MaxRows: 2}, &pgproto3.Flush{},
			&pgproto3.Execute{Portal: "p", MaxRows: 2}, &pgproto3.Close{ObjectType: 'P', Name: "p"},
			&pgproto3.Close{ObjectType: 'S', Name: "s"}, &pgproto3.Sync{}, &pgproto3.Terminate{}),
		encode(&pgproto3.Parse{Query: "echo numeric"}, &pgproto3.Bind{ParameterFormatCodes: []int16{1},
			Parameters: [][]byte{{0, 1, 0, 0, 0x40, 0, 0, 2, 1, 0xf4}}}, &pgproto3.Execute{}, &pgproto3.Sync{}),
		encode(&pgproto3.Query{String: "copy t from stdin binary"},
			&pgproto3.CopyData{Data: []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00\x07\x00\x00\x00\x01x\xff\xff\xff\xff\xff\xff")},
			&pgproto3.CopyDone{}, &pgproto3.Query{String: "select numbers 1 1; whoami"}),
		encode(&pgproto3.Query{String: "copy t from stdin"}, &pgproto3.CopyData{Data: []byte("1\ta\n")},
			&pgproto3.CopyFail{Message: "client gave up"}, &pgproto3.Sync{}),
		encode(&pgproto3.Query{String: "sleep"}),
	}
}
