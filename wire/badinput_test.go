package wire

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgerr"
)

// frame is one raw message: type, length word, body.
func frame(typ byte, body []byte) []byte {
	out := []byte{typ, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(out[1:], uint32(len(body)+4))
	return append(out, body...)
}

// header is a message header declaring length n with no body sent.
func header(typ byte, n uint32) []byte {
	out := []byte{typ, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(out[1:], n)
	return out
}

// expectFatal reads until an ErrorResponse and checks it is FATAL with
// code and a message containing msg, then that the connection ends.
func expectFatal(t *testing.T, c *rawClient, code, msg string) {
	t.Helper()
	m, err := c.fe.Receive()
	for err == nil {
		// Skip what the messages before the bad one answered.
		if _, isErr := m.(*pgproto3.ErrorResponse); isErr {
			break
		}
		m, err = c.fe.Receive()
	}
	er, ok := m.(*pgproto3.ErrorResponse)
	if err != nil || !ok || er.Code != code || er.Severity != "FATAL" || !strings.Contains(er.Message, msg) {
		t.Fatalf("got %#v, %v; want FATAL %s %q", m, err, code, msg)
	}
	if m, err := c.fe.Receive(); err == nil {
		t.Fatalf("connection still open after FATAL: %#v", m)
	}
}

// TestBadMessagesAfterStartup feeds malformed messages to a session: each
// gets a FATAL 08P01 naming the fault, only that connection ends, and a
// bystander session keeps working.
func TestBadMessagesAfterStartup(t *testing.T) {
	ts := startServer(t, Config{MaxMessageSize: 20000})
	bystander := connect(t, ts.url("tester", ""))
	cases := []struct {
		name  string
		bytes []byte
		msg   string
	}{
		{"unknown message type", frame('Z', nil), "invalid frontend message type 90"},
		{"startup packet after startup", []byte{0, 0, 0, 8, 4, 210, 22, 47}, "invalid frontend message type 0"},
		{"length under 4", header('Q', 3), "invalid message length"},
		{"negative length", header('Q', 0x80000000), "invalid message length"},
		{"Sync over the small limit", header('S', 20000), "over the limit of 10000 bytes"},
		{"Query over max_message_size, no body sent", header('Q', 1<<30), "over the limit of 20000 bytes (max_message_size)"},
		{"Query over max_message_size, body sent", frame('Q', append([]byte(strings.Repeat(" ", 20001)), 0)), "(max_message_size)"},
		{"password message outside authentication", frame('p', []byte("x\x00")), "invalid frontend message type 112"},
		{"Query without terminator", frame('Q', []byte("select numbers 1 1")), "invalid message format"},
		{"Bind cut short", frame('B', []byte{0, 0, 0, 5}), "invalid message format"},
		{"Execute cut short", frame('E', []byte{0}), "invalid message format"},
		{"CopyData over max_message_size during COPY", append(frame('Q', []byte("copy t from stdin\x00")), header('d', 1<<29)...),
			"over the limit of 20000 bytes (max_message_size)"},
		{"unknown message type during COPY", append(frame('Q', []byte("copy t from stdin\x00")), frame('Y', nil)...),
			"invalid frontend message type 89"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := rawConnect(t, ts.addr, nil)
			if _, err := c.nc.Write(tc.bytes); err != nil {
				t.Fatal(err)
			}
			expectFatal(t, c, pgerr.ProtocolViolation, tc.msg)
			checkAlive(t, ts.url("tester", ""))
			if err := bystander.Ping(context.Background()); err != nil {
				t.Fatalf("other connection broken: %v", err)
			}
		})
	}
}

// TestLargeMessageWithinLimit checks a Query just under max_message_size
// runs, read through the growing buffer.
func TestLargeMessageWithinLimit(t *testing.T) {
	ts := startServer(t, Config{MaxMessageSize: 200000})
	c := rawConnect(t, ts.addr, nil)
	c.send(&pgproto3.Query{String: "select numbers 2 1" + strings.Repeat(" ", 199000)})
	got := withoutStatus(c.until())
	want := "RowDescription(n:20:0) DataRow(1) DataRow(2) CommandComplete(SELECT 2) ReadyForQuery(I)"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestInvalidUTF8 checks query strings and text parameters with invalid
// UTF-8 get PostgreSQL's 22021 as an ERROR: the session goes on.
func TestInvalidUTF8(t *testing.T) {
	ts := startServer(t, Config{})
	c := rawConnect(t, ts.addr, nil)
	check := func(what string, want []string) {
		t.Helper()
		got := c.until()
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: got %q, want %q", what, got, want)
		}
	}
	c.send(&pgproto3.Query{String: "select numbers 1 1 \xc3\x28"})
	m, err := c.fe.Receive()
	if er, ok := m.(*pgproto3.ErrorResponse); err != nil || !ok || er.Code != "22021" || er.Severity != "ERROR" ||
		er.Message != `invalid byte sequence for encoding "UTF8": 0xc3 0x28` {
		t.Fatalf("query: got %#v, %v", m, err)
	}
	check("after the query error", []string{"ReadyForQuery(I)"})

	c.send(&pgproto3.Parse{Query: "select \xff"}, &pgproto3.Sync{})
	check("parse", []string{"ErrorResponse(22021)", "ReadyForQuery(I)"})

	c.send(&pgproto3.Parse{Query: "echo text"}, &pgproto3.Bind{Parameters: [][]byte{[]byte("a\xe2\x82")}},
		&pgproto3.Execute{}, &pgproto3.Sync{})
	check("text parameter", []string{"ParseComplete", "ErrorResponse(22021)", "ReadyForQuery(I)"})

	c.send(&pgproto3.Parse{Query: "echo text"}, &pgproto3.Bind{Parameters: [][]byte{[]byte("\x80")}, ParameterFormatCodes: []int16{1}},
		&pgproto3.Execute{}, &pgproto3.Sync{})
	check("binary text parameter", []string{"ParseComplete", "ErrorResponse(22021)", "ReadyForQuery(I)"})

	c.send(&pgproto3.Query{String: "select numbers 1 1"})
	check("session goes on", []string{"RowDescription(n:20:0)", "DataRow(1)", "CommandComplete(SELECT 1)", "ReadyForQuery(I)"})
}

// TestStartupRefusals covers what a client may send instead of a 3.0
// StartupMessage: other protocol versions, SSLRequest without TLS,
// GSSENCRequest, a CancelRequest for no session.
func TestStartupRefusals(t *testing.T) {
	ts := startServer(t, Config{})
	bystander := connect(t, ts.url("tester", ""))
	dial := func(t *testing.T) (net.Conn, *pgproto3.Frontend) {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
		return nc, pgproto3.NewFrontend(nc, nc)
	}
	startup := func(version uint32) []byte {
		b := []byte{0, 0, 0, 0}
		b = binary.BigEndian.AppendUint32(b, version)
		b = append(b, "user\x00tester\x00\x00"...)
		binary.BigEndian.PutUint32(b, uint32(len(b)))
		return b
	}
	t.Run("protocol 2.0", func(t *testing.T) {
		nc, fe := dial(t)
		if _, err := nc.Write(startup(2 << 16)); err != nil {
			t.Fatal(err)
		}
		expectFatal(t, &rawClient{t: t, nc: nc, fe: fe}, pgerr.FeatureNotSupported,
			"unsupported frontend protocol 2.0: server supports 3.0 to 3.0")
	})
	t.Run("protocol 4.0", func(t *testing.T) {
		nc, fe := dial(t)
		if _, err := nc.Write(startup(4 << 16)); err != nil {
			t.Fatal(err)
		}
		expectFatal(t, &rawClient{t: t, nc: nc, fe: fe}, pgerr.FeatureNotSupported,
			"unsupported frontend protocol 4.0: server supports 3.0 to 3.0")
	})
	t.Run("protocol 3.5 negotiated down", func(t *testing.T) {
		nc, fe := dial(t)
		if _, err := nc.Write(startup(3<<16 | 5)); err != nil {
			t.Fatal(err)
		}
		m, err := fe.Receive()
		if npv, ok := m.(*pgproto3.NegotiateProtocolVersion); err != nil || !ok || npv.NewestMinorProtocol != 0 {
			t.Fatalf("got %#v, %v; want NegotiateProtocolVersion(0)", m, err)
		}
		c := &rawClient{t: t, nc: nc, fe: fe}
		if got := c.until(); got[len(got)-1] != "ReadyForQuery(I)" {
			t.Fatalf("greeting %q", got)
		}
	})
	t.Run("SSLRequest without TLS", func(t *testing.T) {
		nc, fe := dial(t)
		fe.Send(&pgproto3.SSLRequest{})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		var answer [1]byte
		if _, err := io.ReadFull(nc, answer[:]); err != nil || answer[0] != 'N' {
			t.Fatalf("SSLRequest answered %q, %v; want N", answer[:], err)
		}
		c := &rawClient{t: t, nc: nc, fe: fe}
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "tester"}})
		if got := c.until(); got[len(got)-1] != "ReadyForQuery(I)" {
			t.Fatalf("startup after SSLRequest: %q", got)
		}
	})
	t.Run("CancelRequest for an unknown key", func(t *testing.T) {
		nc, fe := dial(t)
		fe.Send(&pgproto3.CancelRequest{ProcessID: 999999, SecretKey: []byte{1, 2, 3, 4}})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		// PostgreSQL closes without a word.
		if n, err := nc.Read(make([]byte, 1)); err == nil {
			t.Fatalf("server answered a CancelRequest with %d bytes", n)
		}
	})
	checkAlive(t, ts.url("tester", ""))
	if err := bystander.Ping(context.Background()); err != nil {
		t.Fatalf("other connection broken: %v", err)
	}
}
