package wire

import (
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/audit"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate"
)

// Codes of the packets a client may send before StartupMessage.
const (
	sslRequestCode    = 80877103
	gssEncRequestCode = 80877104
	cancelRequestCode = 80877102
	protocolMajor3    = 3
	// maxStartupPacket is PostgreSQL's cap on a packet before
	// StartupMessage is through.
	maxStartupPacket = 10000
	// authMessageLimit bounds one SASL message. PostgreSQL allows 65535
	// bytes; a SCRAM-SHA-256 message is well under 1 kB, and a client that
	// has not authenticated gets no more memory than the startup packet's
	// cap.
	authMessageLimit = maxStartupPacket
	// DefaultAuthenticationTimeout is PostgreSQL's authentication_timeout
	// default: how long a connection may take from accept to
	// AuthenticationOk.
	DefaultAuthenticationTimeout = time.Minute
	// lastWordTimeout bounds writing a last FATAL error to a client that
	// may not be reading.
	lastWordTimeout = time.Second
)

// startupPacket is what the client sent to open the session.
type startupPacket struct {
	minor  uint32
	params map[string]string
}

// errCanceled marks a connection that only carried a CancelRequest.
var errCanceled = errors.New("cancel request handled")

// negotiate reads packets until the StartupMessage: it answers SSLRequest
// (upgrading to TLS when configured) and GSSENCRequest, and handles
// CancelRequest (returning errCanceled). It returns the connection to use
// from then on, which is a *tls.Conn after an accepted SSLRequest, and
// also sets c.nc to it. The caller has set the authentication deadline on
// nc.
func (c *conn) negotiate(nc net.Conn) (net.Conn, *startupPacket, error) {
	tlsDone := false
	for {
		body, err := readStartupPacket(nc)
		if err != nil {
			return nil, nil, err
		}
		code := binary.BigEndian.Uint32(body)
		switch {
		case code == sslRequestCode && len(body) == 4:
			if c.acc.tls == nil || tlsDone {
				if _, err := nc.Write([]byte{'N'}); err != nil {
					return nil, nil, err
				}
				continue
			}
			if _, err := nc.Write([]byte{'S'}); err != nil {
				return nil, nil, err
			}
			tc := tls.Server(nc, c.acc.tls)
			if err := tc.Handshake(); err != nil {
				return nil, nil, fmt.Errorf("TLS handshake: %w", err)
			}
			nc, tlsDone = tc, true
			c.nc = nc // a last error goes over TLS too
		case code == gssEncRequestCode && len(body) == 4:
			if _, err := nc.Write([]byte{'N'}); err != nil {
				return nil, nil, err
			}
		case code == cancelRequestCode:
			var req pgproto3.CancelRequest
			if err := req.Decode(body); err != nil {
				return nil, nil, startupError("invalid cancel request: %v", err)
			}
			c.srv.cancel(req.ProcessID, req.SecretKey)
			return nil, nil, errCanceled
		case code>>16 == protocolMajor3:
			sp, err := parseStartup(code&0xffff, body[4:])
			if err != nil {
				return nil, nil, err
			}
			return nc, sp, nil
		default:
			return nil, nil, &pgerr.Error{Code: pgerr.FeatureNotSupported, Severity: "FATAL",
				Message: fmt.Sprintf("unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", code>>16, code&0xffff)}
		}
	}
}

// readStartupPacket reads one length-prefixed startup-phase packet and
// returns its body (after the length word).
func readStartupPacket(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(int32(binary.BigEndian.Uint32(hdr[:]))) - 4
	if n < 4 || n > maxStartupPacket {
		return nil, startupError("invalid length of startup packet")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		// The client left or stalled: PostgreSQL logs this and says
		// nothing, there being no one to say it to.
		return nil, fmt.Errorf("incomplete startup packet: %w", unexpectedEOF(err))
	}
	return body, nil
}

// parseStartup decodes the name/value pairs of a StartupMessage.
func parseStartup(minor uint32, b []byte) (*startupPacket, error) {
	sp := &startupPacket{minor: minor, params: make(map[string]string)}
	for {
		name, rest, ok := cutNul(b)
		if !ok {
			return nil, startupError("invalid startup packet layout: expected terminator as last byte")
		}
		if name == "" {
			if len(rest) != 0 {
				return nil, startupError("invalid startup packet layout: expected terminator as last byte")
			}
			return sp, nil
		}
		value, rest2, ok := cutNul(rest)
		if !ok {
			return nil, startupError("invalid startup packet layout: expected terminator as last byte")
		}
		sp.params[name] = value
		b = rest2
	}
}

func cutNul(b []byte) (string, []byte, bool) {
	for i, ch := range b {
		if ch == 0 {
			return string(b[:i]), b[i+1:], true
		}
	}
	return "", nil, false
}

func startupError(format string, args ...any) *pgerr.Error {
	return &pgerr.Error{Code: pgerr.ProtocolViolation, Severity: "FATAL", Message: fmt.Sprintf(format, args...)}
}

// startSession validates the startup parameters, authenticates, opens the
// translate session and sends the greeting: ParameterStatus for every
// reported setting, BackendKeyData and ReadyForQuery. Until
// AuthenticationOk it reads and writes the connection directly, holding no
// buffer beyond the message at hand (see authenticated).
func (c *conn) startSession(sp *startupPacket) error {
	user := sp.params["user"]
	if user == "" {
		return &pgerr.Error{Code: pgerr.InvalidAuthorizationSpec, Severity: "FATAL",
			Message: "no PostgreSQL user name specified in startup packet"}
	}
	database := sp.params["database"]
	if database == "" {
		database = user
	}
	if err := checkReplication(sp.params); err != nil {
		return err
	}
	var unrecognized []string
	for name := range sp.params {
		if strings.HasPrefix(name, "_pq_.") {
			unrecognized = append(unrecognized, name)
		}
	}
	if sp.minor > 0 || len(unrecognized) > 0 {
		slices.Sort(unrecognized)
		c.queue(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: unrecognized})
	}
	if pe := c.srv.register(c); pe != nil {
		return pe
	}
	c.registered = true
	c.audit.user, c.audit.database, c.audit.application = user, database, sp.params["application_name"]
	method, err := c.authenticate(user, database)
	if err != nil {
		c.auditAuthentication(method, err)
		return err
	}
	if c.auditOn() {
		c.auditAuthentication(method, nil)
		c.audit.commits = &audit.Commits{}
		c.ctx = audit.WithCommits(c.ctx, c.audit.commits)
	}
	if err := c.authenticated(); err != nil {
		return err
	}
	c.be.Send(&pgproto3.AuthenticationOk{})
	params := make(map[string]string, len(sp.params))
	for k, v := range sp.params {
		if !strings.HasPrefix(k, "_pq_.") {
			params[k] = v
		}
	}
	session, err := c.srv.cfg.Backend.NewSession(c.ctx, translate.StartupInfo{User: user, Database: database, Params: params,
		// A long statement's progress goes out while it runs: Execute
		// holds the connection's goroutine, so nothing else writes then.
		Notify: func(n translate.Notice) {
			c.sendNotice(n)
			_ = c.flush()
		},
		PID:        int32(c.pid),
		Hooks:      translate.SessionHooks{Running: c.statementRunning, Cancel: c.cancelStatement, Terminate: c.terminate},
		ClientAddr: c.remote,
	})
	if err != nil {
		return err
	}
	c.session = session
	c.ident = connIdent{database: database}
	c.logger = c.logger.With("user", user, "pid", c.pid)
	c.reportParams(true)
	c.be.Send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret})
	c.sendReady()
	return c.flush()
}

// checkReplication refuses a replication connection as PostgreSQL checks
// the parameter: a Boolean or "database"; true or database asks for a
// WAL sender, which icegate does not have.
func checkReplication(params map[string]string) error {
	v, ok := params["replication"]
	if !ok {
		return nil
	}
	if strings.EqualFold(v, "database") {
		return replicationUnsupported()
	}
	on, valid := parsePgBool(v)
	switch {
	case !valid:
		return &pgerr.Error{Code: pgerr.InvalidParameterValue, Severity: "FATAL",
			Message: `invalid value for parameter "replication"`,
			Hint:    `Valid values are: "false", 0, "true", 1, "database".`}
	case on:
		return replicationUnsupported()
	}
	return nil
}

func replicationUnsupported() error {
	return &pgerr.Error{Code: pgerr.FeatureNotSupported, Severity: "FATAL",
		Message: "replication connections are not supported",
		Detail:  "icegate has no write-ahead log to stream; connect without the replication parameter."}
}

// parsePgBool reads a Boolean as PostgreSQL's parse_bool does: true,
// false, yes, no and their prefixes, on, off (at least "of"), 1, 0, case
// ignored.
func parsePgBool(v string) (value, ok bool) {
	s := strings.ToLower(strings.TrimSpace(v))
	if s == "" {
		return false, false
	}
	switch {
	case strings.HasPrefix("true", s), strings.HasPrefix("yes", s), s == "on", s == "1":
		return true, true
	case strings.HasPrefix("false", s), strings.HasPrefix("no", s), s == "0", len(s) >= 2 && strings.HasPrefix("off", s):
		return false, true
	}
	return false, false
}

// scram relays the SASL messages of one SCRAM-SHA-256 exchange; with
// endPoint (over TLS) SCRAM-SHA-256-PLUS is offered first. The mechanism
// the client chose is kept for the audit log.
func (c *conn) scram(user string, endPoint []byte) error {
	ex := c.acc.auth.BeginTLS(user, endPoint)
	c.queue(&pgproto3.AuthenticationSASL{AuthMechanisms: ex.Mechanisms()})
	if err := c.writeQueued(); err != nil {
		return err
	}
	var initial pgproto3.SASLInitialResponse
	if err := readAuthMessage(c.nc, &initial); err != nil {
		return fmt.Errorf("read SASL initial response: %w", err)
	}
	c.audit.mechanism = initial.AuthMechanism
	serverFirst, err := ex.Start(initial.AuthMechanism, initial.Data)
	if err != nil {
		return err
	}
	c.queue(&pgproto3.AuthenticationSASLContinue{Data: serverFirst})
	if err := c.writeQueued(); err != nil {
		return err
	}
	var final pgproto3.SASLResponse
	if err := readAuthMessage(c.nc, &final); err != nil {
		return fmt.Errorf("read SASL response: %w", err)
	}
	serverFinal, err := ex.Finish(final.Data)
	if err != nil {
		c.logger.Info("authentication failed", "user", user, "remote", c.remote.String(), "mechanism", initial.AuthMechanism, "err", err)
		return err
	}
	c.logger.Debug("authenticated", "user", user, "mechanism", initial.AuthMechanism)
	c.queue(&pgproto3.AuthenticationSASLFinal{Data: serverFinal})
	return nil
}

// readAuthMessage reads one message of the SASL exchange from the
// connection itself, unbuffered. As in PostgreSQL the type byte must be 'p'
// (anything else is refused before its length is read) and the length is
// checked before the body is read.
func readAuthMessage(r io.Reader, msg pgproto3.FrontendMessage) error {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:1]); err != nil {
		return err
	}
	if hdr[0] != 'p' {
		return protocolError("expected SASL response, got message type %d", hdr[0])
	}
	if _, err := io.ReadFull(r, hdr[1:]); err != nil {
		return unexpectedEOF(err)
	}
	n := int64(int32(binary.BigEndian.Uint32(hdr[1:]))) - 4
	if n < 0 || n > authMessageLimit {
		return protocolError("invalid message length: SASL message of %d bytes, the limit is %d bytes", n, authMessageLimit)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return unexpectedEOF(err)
	}
	if err := msg.Decode(body); err != nil {
		return protocolError("invalid message format: %v", err)
	}
	return nil
}

// queue adds a message to send before AuthenticationOk.
func (c *conn) queue(msg pgproto3.BackendMessage) {
	b, err := msg.Encode(c.queued)
	if err == nil {
		c.queued = b
	}
}

// writeQueued writes the queued messages to the connection.
func (c *conn) writeQueued() error {
	if len(c.queued) == 0 {
		return nil
	}
	_, err := c.nc.Write(c.queued)
	c.queued = nil
	if err != nil {
		return fmt.Errorf("write to client: %w", err)
	}
	return nil
}

// authenticated ends the startup phase: the authentication deadline is
// lifted, the connection no longer counts as one in startup, and the
// buffered reader and writer of the session take over the connection.
func (c *conn) authenticated() error {
	if err := c.writeQueued(); err != nil {
		return err
	}
	_ = c.nc.SetDeadline(time.Time{})
	c.srv.leaveStartup(c)
	c.input = startPump(c.nc, func(err error) { c.cancelConn(errClientGone) })
	c.be = pgproto3.NewBackend(c.input, c.nc)
	c.frames = newFrameReader(c.input, c.srv.cfg.MaxMessageSize)
	return nil
}

// failStartup ends a connection whose session did not start: a client
// that left or stalled before AuthenticationOk ends quietly (PostgreSQL
// does not log a client leaving at the password prompt, as psql does), a
// timeout gets PostgreSQL's FATAL 57014, anything else its FATAL error.
func (c *conn) failStartup(err error) error {
	if c.be == nil {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			c.logger.Info("authentication timed out", "timeout", c.srv.cfg.AuthenticationTimeout)
			c.lastWord(&pgerr.Error{Code: pgerr.QueryCanceled, Severity: "FATAL", Message: "canceling authentication due to timeout"})
			return fmt.Errorf("authentication timed out: %w", err)
		case connectionEnded(err):
			return fmt.Errorf("connection ended during authentication: %w", err)
		}
	}
	// Every error before ReadyForQuery ends the connection: FATAL.
	fatal := *c.toPgError(err)
	fatal.Severity = "FATAL"
	if c.be == nil {
		c.lastWord(&fatal)
		return err
	}
	c.be.Send(errorResponse(&fatal))
	_ = c.flush()
	return err
}

// lastWord writes a FATAL error, with queued messages before it, to a
// connection in startup, giving a client that does not read a moment only.
func (c *conn) lastWord(pe *pgerr.Error) {
	c.queue(errorResponse(pe))
	_ = c.nc.SetWriteDeadline(time.Now().Add(lastWordTimeout))
	_ = c.writeQueued()
}

// connectionEnded reports whether err is the client's connection ending or
// breaking under a read or write.
func connectionEnded(err error) bool {
	for _, target := range []error{io.EOF, io.ErrUnexpectedEOF, net.ErrClosed, syscall.ECONNRESET, syscall.EPIPE, syscall.ECONNABORTED} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}
