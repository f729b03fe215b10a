package wire

import (
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate"
)

// Codes of the packets a client may send before StartupMessage.
const (
	sslRequestCode    = 80877103
	gssEncRequestCode = 80877104
	cancelRequestCode = 80877102
	protocolMajor3    = 3
	maxStartupPacket  = 10000
	startupTimeout    = time.Minute
)

// startupPacket is what the client sent to open the session.
type startupPacket struct {
	minor  uint32
	params map[string]string
}

// errCanceled marks a connection that only carried a CancelRequest.
var errCanceled = errors.New("cancel request handled")

// errAuthTimeout ends a connection whose authentication took too long.
var errAuthTimeout = errors.New("authentication timed out")

// negotiate reads packets until the StartupMessage: it answers SSLRequest
// (upgrading to TLS when configured) and GSSENCRequest, and handles
// CancelRequest (returning errCanceled). It returns the connection to use
// from then on, which is a *tls.Conn after an accepted SSLRequest.
func (c *conn) negotiate(nc net.Conn) (net.Conn, *startupPacket, error) {
	_ = nc.SetDeadline(time.Now().Add(startupTimeout))
	defer func() { _ = nc.SetDeadline(time.Time{}) }()
	tlsDone := false
	for {
		body, err := readStartupPacket(nc)
		if err != nil {
			return nil, nil, err
		}
		code := binary.BigEndian.Uint32(body)
		switch {
		case code == sslRequestCode && len(body) == 4:
			if c.srv.cfg.TLS == nil || tlsDone {
				if _, err := nc.Write([]byte{'N'}); err != nil {
					return nil, nil, err
				}
				continue
			}
			if _, err := nc.Write([]byte{'S'}); err != nil {
				return nil, nil, err
			}
			tc := tls.Server(nc, c.srv.cfg.TLS)
			if err := tc.Handshake(); err != nil {
				return nil, nil, fmt.Errorf("TLS handshake: %w", err)
			}
			nc, tlsDone = tc, true
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
		return nil, startupError("incomplete startup packet")
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
// reported setting, BackendKeyData and ReadyForQuery.
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
	var unrecognized []string
	for name := range sp.params {
		if strings.HasPrefix(name, "_pq_.") {
			unrecognized = append(unrecognized, name)
		}
	}
	if sp.minor > 0 || len(unrecognized) > 0 {
		slices.Sort(unrecognized)
		c.be.Send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: unrecognized})
	}
	if !c.srv.register(c) {
		return &pgerr.Error{Code: pgerr.TooManyConnections, Severity: "FATAL", Message: "sorry, too many clients already"}
	}
	c.registered = true
	// Like authentication_timeout: a client that stalls mid-exchange does
	// not keep its connection slot.
	timer := time.AfterFunc(startupTimeout, func() { c.cancelConn(errAuthTimeout) })
	err := c.authenticate(user)
	timer.Stop()
	if err != nil {
		return err
	}
	params := make(map[string]string, len(sp.params))
	for k, v := range sp.params {
		if !strings.HasPrefix(k, "_pq_.") {
			params[k] = v
		}
	}
	session, err := c.srv.cfg.Backend.NewSession(c.ctx, translate.StartupInfo{User: user, Database: database, Params: params})
	if err != nil {
		return err
	}
	c.session = session
	c.logger = c.logger.With("user", user, "pid", c.pid)
	c.reportParams(true)
	c.be.Send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret})
	c.sendReady()
	return c.flush()
}

// authenticate runs the method the Authenticator picks for this connection.
func (c *conn) authenticate(user string) error {
	method, err := c.srv.cfg.Auth.MethodFor(c.remote, user)
	if err != nil {
		return err
	}
	if method == auth.MethodSCRAM {
		if err := c.scram(user); err != nil {
			return err
		}
	}
	c.be.Send(&pgproto3.AuthenticationOk{})
	return nil
}

// scram relays the SASL messages of one SCRAM-SHA-256 exchange.
func (c *conn) scram(user string) error {
	ex := c.srv.cfg.Auth.Begin(user)
	c.be.Send(&pgproto3.AuthenticationSASL{AuthMechanisms: ex.Mechanisms()})
	c.frames.expectAuth(&pgproto3.SASLInitialResponse{})
	if err := c.flush(); err != nil {
		return err
	}
	msg, err := c.frames.next()
	if err != nil {
		return fmt.Errorf("read SASL initial response: %w", err)
	}
	initial, ok := msg.(*pgproto3.SASLInitialResponse)
	if !ok {
		return &pgerr.Error{Code: pgerr.ProtocolViolation, Severity: "FATAL",
			Message: fmt.Sprintf("expected SASL response, got message type %T", msg)}
	}
	serverFirst, err := ex.Start(initial.AuthMechanism, initial.Data)
	if err != nil {
		return err
	}
	c.be.Send(&pgproto3.AuthenticationSASLContinue{Data: serverFirst})
	c.frames.expectAuth(&pgproto3.SASLResponse{})
	if err := c.flush(); err != nil {
		return err
	}
	msg, err = c.frames.next()
	if err != nil {
		return fmt.Errorf("read SASL response: %w", err)
	}
	final, ok := msg.(*pgproto3.SASLResponse)
	if !ok {
		return &pgerr.Error{Code: pgerr.ProtocolViolation, Severity: "FATAL",
			Message: fmt.Sprintf("expected SASL response, got message type %T", msg)}
	}
	serverFinal, err := ex.Finish(final.Data)
	if err != nil {
		c.logger.Info("authentication failed", "user", user, "remote", c.remote.String(), "err", err)
		return err
	}
	c.be.Send(&pgproto3.AuthenticationSASLFinal{Data: serverFinal})
	return nil
}
