package wire

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"

	"github.com/icegate/icegate/auth"
)

// access is what decides who may connect: the Authenticator (users and
// access rules) and the TLS configuration. A connection takes the one in
// force when it is accepted and keeps it; Server.Reload swaps in another
// for the connections accepted after.
type access struct {
	auth *auth.Authenticator
	tls  *tls.Config
	// endPoint is the tls-server-end-point channel binding data of the
	// server's certificate; nil when there is none, and then
	// SCRAM-SHA-256-PLUS is not offered.
	endPoint []byte
}

func newAccess(a *auth.Authenticator, tc *tls.Config, logger *slog.Logger) *access {
	acc := &access{auth: a, tls: tc}
	if tc == nil || len(tc.Certificates) == 0 || len(tc.Certificates[0].Certificate) == 0 {
		return acc
	}
	leaf := tc.Certificates[0].Leaf
	if leaf == nil {
		var err error
		if leaf, err = x509.ParseCertificate(tc.Certificates[0].Certificate[0]); err != nil {
			logger.Warn("cannot parse the server certificate: SCRAM-SHA-256-PLUS is not offered", "err", err)
			return acc
		}
	}
	ep, err := auth.EndPoint(leaf)
	if err != nil {
		logger.Warn("SCRAM-SHA-256-PLUS is not offered", "err", err)
		return acc
	}
	acc.endPoint = ep
	return acc
}

// Reload replaces the Authenticator and the TLS configuration for the
// connections accepted from now on; sessions already open, and
// connections in authentication, keep the ones they started with.
func (s *Server) Reload(a *auth.Authenticator, tc *tls.Config) error {
	if a == nil {
		return errors.New("wire: reload without an Authenticator")
	}
	s.access.Store(newAccess(a, tc, s.logger))
	return nil
}

// currentAccess is the access in force for a new connection.
func (s *Server) currentAccess() *access { return s.access.Load() }

// authenticate decides the connection's method by the access rules and
// runs it.
func (c *conn) authenticate(user, database string) (string, error) {
	tc, isTLS := c.nc.(*tls.Conn)
	method, err := c.acc.auth.Decide(auth.ConnInfo{Remote: c.remote, User: user, Database: database, SSL: isTLS})
	if err != nil {
		c.logger.Info("connection refused by the access rules", "user", user, "database", database, "tls", isTLS, "err", err)
		return methodName(method), err
	}
	name := methodName(method)
	switch method {
	case auth.MethodSCRAM:
		var endPoint []byte
		if isTLS {
			endPoint = c.acc.endPoint
		}
		return name, c.scram(user, endPoint)
	case auth.MethodCert:
		var state *tls.ConnectionState
		if isTLS {
			st := tc.ConnectionState()
			state = &st
		}
		if err := auth.CheckCert(user, state); err != nil {
			cn := ""
			if state != nil && len(state.PeerCertificates) > 0 {
				cn = state.PeerCertificates[0].Subject.CommonName
			}
			c.logger.Info("certificate authentication failed", "user", user, "certificate_cn", cn, "err", err)
			return name, err
		}
		return name, nil
	case auth.MethodTrust:
		return name, nil
	}
	return name, fmt.Errorf("authenticate: unknown method %d", method)
}
