package wire

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/pgerr"
)

// passwordAuth is an Authenticator with the built-in user's password set,
// so every connection goes through SCRAM.
func passwordAuth(t testing.TB) *auth.Authenticator {
	t.Helper()
	a, err := auth.New(nil, "secret", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// saslClient opens a connection as the built-in user and reads up to
// AuthenticationSASL; with second set it also sends a well-formed
// SASLInitialResponse and reads AuthenticationSASLContinue.
func saslClient(t *testing.T, addr string, second bool) *rawClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	c := &rawClient{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": auth.BuiltinUser}})
	if m, err := c.fe.Receive(); err != nil {
		t.Fatal(err)
	} else if _, ok := m.(*pgproto3.AuthenticationSASL); !ok {
		t.Fatalf("got %#v, want AuthenticationSASL", m)
	}
	if !second {
		return c
	}
	c.send(&pgproto3.SASLInitialResponse{AuthMechanism: auth.MechanismSCRAM, Data: []byte("n,,n=,r=0123456789abcdef")})
	if m, err := c.fe.Receive(); err != nil {
		t.Fatal(err)
	} else if _, ok := m.(*pgproto3.AuthenticationSASLContinue); !ok {
		t.Fatalf("got %#v, want AuthenticationSASLContinue", m)
	}
	return c
}

// TestAuthenticationMessagesAreSmall sends, where a SASL message is due,
// messages of other types and SASL messages declaring huge lengths, then
// streams body bytes. As in PostgreSQL, the server refuses on the type byte
// or the length word with FATAL 08P01, without waiting for the body.
func TestAuthenticationMessagesAreSmall(t *testing.T) {
	ts := startServer(t, Config{Auth: passwordAuth(t)})
	body := make([]byte, 4<<20)
	cases := []struct {
		name   string
		second bool // after SASLInitialResponse, in place of SASLResponse
		bytes  []byte
		msg    string
	}{
		{"Query of 1 GiB instead of SASLInitialResponse", false, header('Q', 1<<30), "expected SASL response, got message type 81"},
		{"Query of 1 GiB instead of SASLResponse", true, header('Q', 1<<30), "expected SASL response, got message type 81"},
		{"CopyData of 512 MiB instead of SASLResponse", true, header('d', 1<<29), "expected SASL response, got message type 100"},
		{"Terminate instead of SASLInitialResponse", false, frame('X', nil), "expected SASL response, got message type 88"},
		{"SASLInitialResponse of 1 GiB", false, header('p', 1<<30), "invalid message length"},
		{"SASLResponse of 64 kB", true, header('p', 64<<10), "invalid message length"},
		{"SASLResponse under 4 bytes", true, header('p', 3), "invalid message length"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := saslClient(t, ts.addr, tc.second)
			if _, err := c.nc.Write(tc.bytes); err != nil {
				t.Fatal(err)
			}
			// The body the header announced: the server must answer
			// without reading it (a write error is the server closing).
			go func() { _, _ = c.nc.Write(body) }()
			expectFatal(t, c, pgerr.ProtocolViolation, tc.msg)
		})
	}
	checkAlive(t, strings.Replace(ts.url(auth.BuiltinUser, ""), "@", ":secret@", 1))
}

// TestAuthenticationDoesNotBuffer opens three connections that each declare
// a 1 GiB Query where the SASL answer is due and push 4 MiB of its body:
// the process allocates next to nothing for them.
func TestAuthenticationDoesNotBuffer(t *testing.T) {
	ts := startServer(t, Config{Auth: passwordAuth(t)})
	body := make([]byte, 4<<20)
	clients := make([]*rawClient, 3)
	for i := range clients {
		clients[i] = saslClient(t, ts.addr, false)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	for _, c := range clients {
		if _, err := c.nc.Write(header('Q', 1<<30)); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.nc.Write(body)
		}()
	}
	for _, c := range clients {
		expectFatal(t, c, pgerr.ProtocolViolation, "expected SASL response, got message type 81")
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d bytes for 3 connections each declaring a 1 GiB message and sending 4 MiB of it", allocated)
	if allocated > 1<<20 {
		t.Errorf("allocated %d bytes while refusing 3 oversized authentication messages, want under 1 MiB", allocated)
	}
}

// waitNoConnections waits until the server holds no connection, in or after
// authentication.
func waitNoConnections(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pre, refusing, active := s.counts()
		if pre == 0 && refusing == 0 && active == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server still holds %d connections in startup, %d being refused and %d sessions", pre, refusing, active)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSilentConnectionsAreBounded opens connections that send nothing: past
// twice max_connections in startup or authentication the server refuses new
// ones with FATAL 53300, as PostgreSQL does, after their startup packet
// (an SSLRequest answered first, a CancelRequest honoured) or, past
// another max_connections of those, at once; established sessions keep
// working, and each silent one is closed at authentication_timeout, after
// which clients get in again.
func TestSilentConnectionsAreBounded(t *testing.T) {
	const maxConns = 2
	ts := startServer(t, Config{MaxConnections: maxConns, AuthenticationTimeout: 3 * time.Second})
	bystander := connect(t, ts.url("tester", ""))
	dial := func() (net.Conn, *rawClient) {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		_ = nc.SetDeadline(time.Now().Add(20 * time.Second))
		return nc, &rawClient{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
	}
	waitCounts := func(inStartup, refusing int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			pre, ref, _ := ts.srv.counts()
			if pre == inStartup && ref == refusing {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d connections in startup and %d being refused, want %d and %d", pre, ref, inStartup, refusing)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	var silent []net.Conn
	for range 2 * maxConns {
		nc, _ := dial()
		silent = append(silent, nc)
	}
	waitCounts(2*maxConns, 0)

	// Past the bound: a client gets 53300 after its startup packet, over
	// the SSLRequest dance too, as psql shows PostgreSQL's.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := pgx.Connect(ctx, ts.url("tester", "")); pgCode(err) != pgerr.TooManyConnections {
		t.Fatalf("client while the startup slots are full: %v, want 53300", err)
	}
	nc, c := dial()
	c.send(&pgproto3.SSLRequest{})
	var answer [1]byte
	if _, err := io.ReadFull(nc, answer[:]); err != nil || answer[0] != 'N' {
		t.Fatalf("SSLRequest answered %q, %v; want N", answer[:], err)
	}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "tester"}})
	expectFatal(t, c, pgerr.TooManyConnections, "sorry, too many clients already")
	// A CancelRequest still cancels.
	cancelReq := &pgproto3.CancelRequest{ProcessID: bystander.PgConn().PID(), SecretKey: bystander.PgConn().SecretKey()}
	queryDone := make(chan error, 1)
	go func() {
		_, err := bystander.Exec(context.Background(), "sleep")
		queryDone <- err
	}()
	time.Sleep(50 * time.Millisecond)
	_, cc := dial()
	cc.send(cancelReq)
	if err := <-queryDone; pgCode(err) != pgerr.QueryCanceled {
		t.Fatalf("statement under a CancelRequest while the startup slots are full: %v, want 57014", err)
	}
	expectEvents(t, ts.backend, "canceled", "closed")

	// Silent ones past the bound take the refusal slots; past those the
	// error comes before anything is read.
	waitCounts(2*maxConns, 0)
	for range maxConns {
		nc, _ := dial()
		silent = append(silent, nc)
	}
	waitCounts(2*maxConns, maxConns)
	for i := range 3 {
		_, c := dial()
		m, err := c.fe.Receive()
		if er, ok := m.(*pgproto3.ErrorResponse); err != nil || !ok || er.Code != pgerr.TooManyConnections ||
			er.Severity != "FATAL" || er.Message != "sorry, too many clients already" {
			t.Fatalf("extra connection %d: got %#v, %v; want FATAL 53300", i, m, err)
		}
	}
	checkAliveConn(t, bystander)
	// The silent ones are closed at the timeout, without a word.
	for i, nc := range silent {
		if n, err := nc.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("silent connection %d: read %d bytes, %v; want EOF", i, n, err)
		}
	}
	checkAlive(t, ts.url("tester", ""))
	checkAliveConn(t, bystander)
}

// TestAuthenticationTimeout checks authentication_timeout bounds the whole
// way from accept to AuthenticationOk: a client that stops in the middle of
// the startup packet or of the SASL exchange is closed, the latter with
// PostgreSQL's FATAL 57014, and its slot is freed.
func TestAuthenticationTimeout(t *testing.T) {
	ts := startServer(t, Config{Auth: passwordAuth(t), MaxConnections: 1, AuthenticationTimeout: time.Second})
	t.Run("half a startup packet", func(t *testing.T) {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := nc.Write([]byte{0, 0, 0, 40, 0, 3, 0, 0, 'u'}); err != nil {
			t.Fatal(err)
		}
		if n, err := nc.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("read %d bytes, %v; want EOF", n, err)
		}
	})
	for _, second := range []bool{false, true} {
		name := "silent after AuthenticationSASL"
		if second {
			name = "silent after AuthenticationSASLContinue"
		}
		t.Run(name, func(t *testing.T) {
			c := saslClient(t, ts.addr, second)
			expectFatal(t, c, pgerr.QueryCanceled, "canceling authentication due to timeout")
			// The slot is freed: the next subtest gets it.
			waitNoConnections(t, ts.srv)
		})
	}
}

// logRecorder keeps every record logged, at every level.
type logRecorder struct {
	mu      sync.Mutex
	records []string
	bad     []string // records at WARN or above
}

func (r *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *logRecorder) WithGroup(string) slog.Handler            { return r }
func (r *logRecorder) Handle(_ context.Context, rec slog.Record) error {
	var b strings.Builder
	b.WriteString(rec.Level.String() + " " + rec.Message)
	rec.Attrs(func(a slog.Attr) bool {
		b.WriteString(" " + a.String())
		return true
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, b.String())
	if rec.Level >= slog.LevelWarn || strings.Contains(rec.Message, "internal") {
		r.bad = append(r.bad, b.String())
	}
	return nil
}

func (r *logRecorder) take() (all, bad []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	all, bad = r.records, r.bad
	r.records, r.bad = nil, nil
	return all, bad
}

// TestClientLeavingIsNotAnError checks a client that goes away (EOF or
// reset) before or during authentication, or during a statement, is not
// logged as an internal error nor at WARN or above: psql, for one, connects,
// reads AuthenticationSASL and disconnects to prompt for the password.
func TestClientLeavingIsNotAnError(t *testing.T) {
	rec := &logRecorder{}
	scram := startServer(t, Config{Auth: passwordAuth(t), Logger: slog.New(rec)})
	trust := startServer(t, Config{Logger: slog.New(rec)})
	reset := func(nc net.Conn) {
		_ = nc.(*net.TCPConn).SetLinger(0)
		nc.Close()
	}
	cases := []struct {
		name string
		ts   *testServer
		run  func(t *testing.T, ts *testServer)
	}{
		{"no bytes", scram, func(t *testing.T, ts *testServer) {
			nc, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			nc.Close()
		}},
		{"reset before the startup packet", scram, func(t *testing.T, ts *testServer) {
			nc, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			reset(nc)
		}},
		{"half a startup packet", scram, func(t *testing.T, ts *testServer) {
			nc, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = nc.Write([]byte{0, 0, 0, 40, 0, 3})
			nc.Close()
		}},
		{"close at AuthenticationSASL (psql's password prompt)", scram, func(t *testing.T, ts *testServer) {
			saslClient(t, ts.addr, false).nc.Close()
		}},
		{"reset at AuthenticationSASL", scram, func(t *testing.T, ts *testServer) {
			reset(saslClient(t, ts.addr, false).nc)
		}},
		{"close at AuthenticationSASLContinue", scram, func(t *testing.T, ts *testServer) {
			saslClient(t, ts.addr, true).nc.Close()
		}},
		{"close in the middle of SASLResponse", scram, func(t *testing.T, ts *testServer) {
			c := saslClient(t, ts.addr, true)
			_, _ = c.nc.Write(header('p', 100))
			c.nc.Close()
		}},
		{"close during a running statement", trust, func(t *testing.T, ts *testServer) {
			c := rawConnect(t, ts.addr, nil)
			c.send(&pgproto3.Query{String: "sleep"})
			time.Sleep(50 * time.Millisecond)
			c.nc.Close()
			expectEvents(t, ts.backend, "canceled", "closed")
		}},
		{"reset while rows are sent", trust, func(t *testing.T, ts *testServer) {
			c := rawConnect(t, ts.addr, nil)
			c.send(&pgproto3.Query{String: "select numbers 2000000 1000"})
			for {
				m, err := c.fe.Receive()
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := m.(*pgproto3.DataRow); ok {
					break
				}
			}
			reset(c.nc)
		}},
		{"reset while an Execute's rows are sent", trust, func(t *testing.T, ts *testServer) {
			c := rawConnect(t, ts.addr, nil)
			c.send(&pgproto3.Parse{Query: "select numbers 2000000 1000"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
			for {
				m, err := c.fe.Receive()
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := m.(*pgproto3.DataRow); ok {
					break
				}
			}
			reset(c.nc)
		}},
		{"close during COPY FROM STDIN", trust, func(t *testing.T, ts *testServer) {
			c := rawConnect(t, ts.addr, nil)
			c.send(&pgproto3.Query{String: "copy t from stdin"})
			if m, err := c.fe.Receive(); err != nil {
				t.Fatal(err)
			} else if _, ok := m.(*pgproto3.CopyInResponse); !ok {
				t.Fatalf("got %#v, want CopyInResponse", m)
			}
			c.send(&pgproto3.CopyData{Data: []byte("1\tx\ty\n2\t")})
			c.nc.Close()
		}},
		{"close between statements", trust, func(t *testing.T, ts *testServer) {
			rawConnect(t, ts.addr, nil).nc.Close()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t, tc.ts)
			waitNoConnections(t, tc.ts.srv)
			all, bad := rec.take()
			if len(bad) > 0 {
				t.Errorf("logged %q\nall records: %q", bad, all)
			}
		})
	}
}

// TestReplicationParameter checks the replication startup parameter as
// PostgreSQL reads it: false in any Boolean spelling connects, true or
// database asks for a WAL sender (refused, 0A000), anything else is 22023.
func TestReplicationParameter(t *testing.T) {
	ts := startServer(t, Config{})
	cases := []struct{ value, code string }{
		{"false", ""}, {"off", ""}, {"0", ""}, {"NO", ""}, {"f", ""},
		{"true", pgerr.FeatureNotSupported}, {"on", pgerr.FeatureNotSupported}, {"1", pgerr.FeatureNotSupported},
		{"database", pgerr.FeatureNotSupported}, {"Yes", pgerr.FeatureNotSupported},
		{"maybe", pgerr.InvalidParameterValue}, {"o", pgerr.InvalidParameterValue}, {"", pgerr.InvalidParameterValue},
	}
	for _, tc := range cases {
		t.Run(tc.value, func(t *testing.T) {
			nc, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
			c := &rawClient{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
			c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
				Parameters: map[string]string{"user": "tester", "replication": tc.value}})
			if tc.code == "" {
				if got := c.until(); got[len(got)-1] != "ReadyForQuery(I)" {
					t.Fatalf("greeting %q", got)
				}
				return
			}
			expectFatal(t, c, tc.code, "replication")
		})
	}
}
