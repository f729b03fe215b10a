package wire

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/auth"
)

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

type testServer struct {
	srv     *Server
	addr    string
	backend *testBackend
	stop    func()
}

// startServer serves cfg on 127.0.0.1:0 until the test ends; missing
// Backend, Auth and Logger default to the test backend, trust
// authentication and a logger that discards.
func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	return startServerOn(t, "127.0.0.1:0", cfg)
}

// startServerOn is startServer on the listen address addr.
func startServerOn(t testing.TB, addr string, cfg Config) *testServer {
	t.Helper()
	ts := &testServer{}
	if cfg.Backend == nil {
		ts.backend = newTestBackend()
		cfg.Backend = ts.backend
	}
	if cfg.Auth == nil {
		a, err := auth.New(nil, "", quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		cfg.Auth = a
	}
	if cfg.Logger == nil {
		cfg.Logger = quietLogger()
	}
	ts.srv = NewServer(cfg)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	ts.addr = ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ts.srv.Serve(ctx, ln) }()
	stopped := false
	ts.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after its context ended")
		}
	}
	t.Cleanup(ts.stop)
	return ts
}

func (ts *testServer) url(user, extra string) string {
	u := fmt.Sprintf("postgres://%s@%s/icegate?sslmode=disable", user, ts.addr)
	if extra != "" {
		u += "&" + extra
	}
	return u
}

// rawClient is a scripted frontend for what drivers do not do on demand.
type rawClient struct {
	t  *testing.T
	nc net.Conn
	fe *pgproto3.Frontend
}

func rawConnect(t *testing.T, addr string, params map[string]string) *rawClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(20 * time.Second))
	c := &rawClient{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
	if params == nil {
		params = map[string]string{"user": "tester"}
	}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: params})
	c.until()
	return c
}

func (c *rawClient) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatal(err)
	}
}

// until reads messages up to and including ReadyForQuery and returns them
// summarised.
func (c *rawClient) until() []string {
	c.t.Helper()
	var out []string
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			c.t.Fatalf("receive after %v: %v", out, err)
		}
		out = append(out, summarize(msg))
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			return out
		}
	}
}

// summarize renders a backend message compactly for comparisons.
func summarize(msg pgproto3.BackendMessage) string {
	switch m := msg.(type) {
	case *pgproto3.DataRow:
		vals := make([]string, len(m.Values))
		for k, v := range m.Values {
			if v == nil {
				vals[k] = "NULL"
			} else {
				vals[k] = string(v)
			}
		}
		return "DataRow(" + strings.Join(vals, ",") + ")"
	case *pgproto3.CommandComplete:
		return "CommandComplete(" + string(m.CommandTag) + ")"
	case *pgproto3.ErrorResponse:
		return "ErrorResponse(" + m.Code + ")"
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery(" + string(m.TxStatus) + ")"
	case *pgproto3.RowDescription:
		names := make([]string, len(m.Fields))
		for k, f := range m.Fields {
			names[k] = fmt.Sprintf("%s:%d:%d", f.Name, f.DataTypeOID, f.Format)
		}
		return "RowDescription(" + strings.Join(names, ",") + ")"
	case *pgproto3.ParameterDescription:
		return fmt.Sprintf("ParameterDescription(%v)", m.ParameterOIDs)
	case *pgproto3.ParameterStatus:
		return "ParameterStatus(" + m.Name + "=" + m.Value + ")"
	case *pgproto3.NoticeResponse:
		return "NoticeResponse(" + m.Message + ")"
	}
	name := fmt.Sprintf("%T", msg)
	return name[strings.LastIndex(name, ".")+1:]
}

// withoutStatus drops ParameterStatus, BackendKeyData and authentication
// messages.
func withoutStatus(msgs []string) []string {
	var out []string
	for _, m := range msgs {
		if strings.HasPrefix(m, "ParameterStatus") || m == "BackendKeyData" || m == "AuthenticationOk" {
			continue
		}
		out = append(out, m)
	}
	return out
}
