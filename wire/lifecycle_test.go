package wire

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/pgerr"
)

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func checkAlive(t *testing.T, url string) {
	t.Helper()
	conn := connect(t, url)
	var n int64
	if err := conn.QueryRow(context.Background(), "select numbers 1 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("server not answering: %d, %v", n, err)
	}
}

// TestBadClientsCloseOnlyTheirConnection sends malformed startup packets and
// messages; each closes that connection only.
func TestBadClientsCloseOnlyTheirConnection(t *testing.T) {
	ts := startServer(t, Config{})
	bystander := connect(t, ts.url("tester", ""))
	cases := []struct {
		name     string
		payload  []byte
		wantCode string // "" when the server just closes
	}{
		{"unknown startup code", []byte{0, 0, 0, 8, 0x12, 0x34, 0x56, 0x78}, pgerr.FeatureNotSupported},
		{"huge length", []byte{0x7f, 0, 0, 0, 0, 3, 0, 0}, pgerr.ProtocolViolation},
		{"tiny length", []byte{0, 0, 0, 2}, pgerr.ProtocolViolation},
		{"unterminated parameters", append([]byte{0, 0, 0, 13, 0, 3, 0, 0}, "user\x00"...), pgerr.ProtocolViolation},
		{"no user", []byte{0, 0, 0, 9, 0, 3, 0, 0, 0}, pgerr.InvalidAuthorizationSpec},
		{"http request", []byte("GET / HTTP/1.1\r\n\r\n"), pgerr.ProtocolViolation},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
			if _, err := nc.Write(tc.payload); err != nil {
				t.Fatal(err)
			}
			fe := pgproto3.NewFrontend(nc, nc)
			msg, err := fe.Receive()
			if tc.wantCode != "" {
				er, ok := msg.(*pgproto3.ErrorResponse)
				if err != nil || !ok || er.Code != tc.wantCode || er.Severity != "FATAL" {
					t.Fatalf("got %T %+v, %v; want FATAL %s", msg, msg, err, tc.wantCode)
				}
				_, err = fe.Receive()
			}
			if err == nil {
				t.Fatal("connection still open")
			}
			checkAlive(t, ts.url("tester", ""))
			if err := bystander.Ping(context.Background()); err != nil {
				t.Fatalf("other connection broken: %v", err)
			}
		})
	}
}

func TestGarbageMessageAfterStartup(t *testing.T) {
	ts := startServer(t, Config{})
	c := rawConnect(t, ts.addr, nil)
	if _, err := c.nc.Write([]byte{'Z', 0, 0, 0, 4}); err != nil {
		t.Fatal(err)
	}
	msg, err := c.fe.Receive()
	if er, ok := msg.(*pgproto3.ErrorResponse); err != nil || !ok || er.Code != pgerr.ProtocolViolation {
		t.Fatalf("got %#v, %v; want 08P01", msg, err)
	}
	if _, err := c.fe.Receive(); err == nil {
		t.Fatal("connection still open after a garbage message")
	}
	checkAlive(t, ts.url("tester", ""))
}

func TestTerminate(t *testing.T) {
	ts := startServer(t, Config{})
	c := rawConnect(t, ts.addr, nil)
	c.send(&pgproto3.Terminate{})
	if _, err := c.fe.Receive(); !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		t.Fatalf("after Terminate: %v, want EOF", err)
	}
}

func TestCancelRequest(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	go func() {
		time.Sleep(100 * time.Millisecond)
		_ = conn.PgConn().CancelRequest(context.Background())
	}()
	_, err := conn.Exec(context.Background(), "sleep")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != pgerr.QueryCanceled || pe.Message != "canceling statement due to user request" {
		t.Fatalf("got %v, want 57014 canceling statement due to user request", err)
	}
	expectEvents(t, ts.backend, "canceled", "closed")
	var n int64
	if err := conn.QueryRow(context.Background(), "select numbers 1 1").Scan(&n); err != nil || n != 1 {
		t.Errorf("after cancel: %d, %v", n, err)
	}
	// A cancel request with the wrong secret is ignored.
	bad := rawConnect(t, ts.addr, nil)
	bad.send(&pgproto3.Query{String: "select numbers 1 1"})
	bad.until()
	nc, _ := net.Dial("tcp", ts.addr)
	req := &pgproto3.CancelRequest{ProcessID: conn.PgConn().PID(), SecretKey: []byte{1, 2, 3, 4}}
	buf, _ := req.Encode(nil)
	_, _ = nc.Write(buf)
	nc.Close()
	select {
	case ev := <-ts.backend.events:
		t.Errorf("unexpected event %q", ev)
	case <-time.After(100 * time.Millisecond):
	}
}

func expectEvents(t *testing.T, b *testBackend, want ...string) {
	t.Helper()
	for _, w := range want {
		select {
		case ev := <-b.events:
			if ev != w {
				t.Fatalf("event %q, want %q", ev, w)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %q event", w)
		}
	}
}

func TestClientDisconnectCancelsStatement(t *testing.T) {
	ts := startServer(t, Config{})
	c := rawConnect(t, ts.addr, nil)
	c.send(&pgproto3.Query{String: "sleep"})
	time.Sleep(50 * time.Millisecond)
	c.nc.Close()
	expectEvents(t, ts.backend, "canceled", "closed")
}

func TestMaxConnections(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 1})
	first := connect(t, ts.url("tester", ""))
	_, err := pgx.Connect(context.Background(), ts.url("tester", ""))
	if pgCode(err) != pgerr.TooManyConnections || !strings.Contains(err.Error(), "sorry, too many clients already") {
		t.Fatalf("second connection: %v, want 53300", err)
	}
	first.Close(context.Background())
	deadline := time.Now().Add(5 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), ts.url("tester", ""))
		if err == nil {
			conn.Close(context.Background())
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("slot not freed after close: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestUnknownDatabaseIsFatal(t *testing.T) {
	ts := startServer(t, Config{})
	_, err := pgx.Connect(context.Background(), strings.Replace(ts.url("tester", ""), "/icegate?", "/nodb?", 1))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != pgerr.InvalidCatalogName || pe.Severity != "FATAL" {
		t.Fatalf("got %v, want FATAL 3D000", err)
	}
}

func TestSCRAM(t *testing.T) {
	verifier, err := auth.NewVerifier("wonderland")
	if err != nil {
		t.Fatal(err)
	}
	a, err := auth.New([]auth.User{{Name: "alice", SCRAM: verifier}}, "builtin-pw", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, Config{Auth: a})
	cases := []struct {
		user, password, code string
	}{
		{"alice", "wonderland", ""},
		{"icegate", "builtin-pw", ""},
		{"alice", "wrong", pgerr.InvalidPassword},
		{"icegate", "", pgerr.InvalidPassword},
		{"bob", "wonderland", pgerr.InvalidPassword},
	}
	for _, tc := range cases {
		t.Run(tc.user+"/"+tc.password, func(t *testing.T) {
			url := strings.Replace(ts.url(tc.user, ""), tc.user+"@", tc.user+":"+tc.password+"@", 1)
			conn, err := pgx.Connect(context.Background(), url)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close(context.Background())
				if err := conn.Ping(context.Background()); err != nil {
					t.Fatal(err)
				}
				return
			}
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != tc.code || pe.Severity != "FATAL" {
				t.Fatalf("got %v, want FATAL %s", err, tc.code)
			}
			if want := `password authentication failed for user "` + tc.user + `"`; pe.Message != want {
				t.Errorf("message %q, want %q", pe.Message, want)
			}
		})
	}
}

// TestTrustRefusesRemotePeers connects to a non-loopback address of this
// machine when it has one: with trust authentication that is refused.
func TestTrustRefusesRemotePeers(t *testing.T) {
	var ip net.IP
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			ip = n.IP
			break
		}
	}
	if ip == nil {
		t.Skip("this machine has no non-loopback IPv4 address to connect from")
	}
	a, err := auth.New(nil, "", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(Config{Backend: newTestBackend(), Auth: a, Logger: quietLogger()})
	ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0"))
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	_, err = pgx.Connect(context.Background(), "postgres://tester@"+ln.Addr().String()+"/x?sslmode=disable")
	if pgCode(err) != pgerr.InvalidAuthorizationSpec {
		t.Fatalf("remote trust connection: %v, want 28000", err)
	}
	if err := a.CheckListen(ln.Addr().String()); err == nil {
		t.Error("CheckListen accepted a non-loopback address in trust mode")
	}
}

func selfSignedTLS(t *testing.T) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}

func TestTLS(t *testing.T) {
	withTLS := startServer(t, Config{TLS: selfSignedTLS(t)})
	conn := connect(t, strings.Replace(withTLS.url("tester", ""), "sslmode=disable", "sslmode=require", 1))
	if _, ok := conn.PgConn().Conn().(*tls.Conn); !ok {
		t.Errorf("connection is %T, want *tls.Conn", conn.PgConn().Conn())
	}
	checkAliveConn(t, conn)

	plain := startServer(t, Config{})
	conn2 := connect(t, strings.Replace(plain.url("tester", ""), "sslmode=disable", "sslmode=prefer", 1))
	checkAliveConn(t, conn2)
	if _, err := pgx.Connect(context.Background(), strings.Replace(plain.url("tester", ""), "sslmode=disable", "sslmode=require", 1)); err == nil {
		t.Error("sslmode=require succeeded against a server without TLS")
	}
}

func checkAliveConn(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	var n int64
	if err := conn.QueryRow(context.Background(), "select numbers 1 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("query over the connection: %d, %v", n, err)
	}
}

func TestShutdownClosesConnections(t *testing.T) {
	ts := startServer(t, Config{})
	c := rawConnect(t, ts.addr, nil)
	c.send(&pgproto3.Query{String: "sleep"})
	time.Sleep(50 * time.Millisecond)
	ts.stop() // fails the test if Serve does not return
	expectEvents(t, ts.backend, "canceled", "closed")
	for {
		if _, err := c.fe.Receive(); err != nil {
			break
		}
	}
}

func TestProtocolNegotiation(t *testing.T) {
	ts := startServer(t, Config{})
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion32,
		Parameters: map[string]string{"user": "tester", "_pq_.future": "1"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	msg, err := fe.Receive()
	npv, ok := msg.(*pgproto3.NegotiateProtocolVersion)
	if err != nil || !ok || npv.NewestMinorProtocol != 0 || len(npv.UnrecognizedOptions) != 1 || npv.UnrecognizedOptions[0] != "_pq_.future" {
		t.Fatalf("got %#v, %v; want NegotiateProtocolVersion(0, [_pq_.future])", msg, err)
	}
	c := &rawClient{t: t, nc: nc, fe: fe}
	got := c.until()
	if got[0] != "AuthenticationOk" || got[len(got)-1] != "ReadyForQuery(I)" {
		t.Errorf("greeting %q", got)
	}
}

func TestGSSEncRequestRefused(t *testing.T) {
	ts := startServer(t, Config{})
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.GSSEncRequest{})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var answer [1]byte
	if _, err := io.ReadFull(nc, answer[:]); err != nil || answer[0] != 'N' {
		t.Fatalf("GSSENCRequest answered %q, %v; want N", answer[:], err)
	}
	c := &rawClient{t: t, nc: nc, fe: fe}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "tester"}})
	if got := c.until(); got[len(got)-1] != "ReadyForQuery(I)" {
		t.Fatalf("startup after GSSENCRequest: %q", got)
	}
}
