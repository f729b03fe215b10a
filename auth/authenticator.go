package auth

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"net"
	"net/netip"

	"github.com/icegate/icegate/internal/pgerr"
)

// BuiltinUser is the login whose password comes from ICEGATE_PASSWORD.
const BuiltinUser = "icegate"

// User is a configured login with its stored verifier.
type User struct {
	Name  string
	SCRAM string // pg_authid format
}

// Method is how a connection authenticates.
type Method int

const (
	// MethodSCRAM is SASL SCRAM-SHA-256.
	MethodSCRAM Method = iota
	// MethodTrust accepts the connection without a password (only when no
	// password is configured at all, and only from loopback addresses).
	MethodTrust
)

// Authenticator decides how each connection authenticates and runs SCRAM
// exchanges. It is immutable after New and safe for concurrent use.
type Authenticator struct {
	verifiers  map[string]*Verifier
	trust      bool
	fakeSecret []byte
	lookup     Lookup
}

// Lookup finds the verifier (pg_authid format) of a user the
// configuration does not list: a role created with CREATE ROLE. ok is
// false when there is none (no such role, no password, or VALID UNTIL
// passed).
type Lookup func(user string) (verifier string, ok bool)

// SetLookup makes Begin ask lookup for users the configuration does not
// list. Call it before the Authenticator is used.
func (a *Authenticator) SetLookup(lookup Lookup) { a.lookup = lookup }

// New builds an Authenticator from configured users and the built-in user's
// password (empty: no built-in user). With neither, trust authentication is
// on, for loopback connections only, and a warning is logged.
func New(users []User, builtinPassword string, logger *slog.Logger) (*Authenticator, error) {
	if logger == nil {
		logger = slog.Default()
	}
	a := &Authenticator{verifiers: make(map[string]*Verifier, len(users)+1), fakeSecret: make([]byte, 32)}
	if _, err := rand.Read(a.fakeSecret); err != nil {
		return nil, fmt.Errorf("generate secret: %w", err)
	}
	for _, u := range users {
		if u.Name == "" {
			return nil, fmt.Errorf("user with empty name")
		}
		v, err := ParseVerifier(u.SCRAM)
		if err != nil {
			return nil, fmt.Errorf("user %q: %w", u.Name, err)
		}
		if _, dup := a.verifiers[u.Name]; dup {
			return nil, fmt.Errorf("user %q configured twice", u.Name)
		}
		a.verifiers[u.Name] = v
	}
	if builtinPassword != "" {
		if _, dup := a.verifiers[BuiltinUser]; dup {
			return nil, fmt.Errorf("user %q is configured and also has ICEGATE_PASSWORD set; use one", BuiltinUser)
		}
		salt := make([]byte, saltLen)
		if _, err := rand.Read(salt); err != nil {
			return nil, fmt.Errorf("generate salt: %w", err)
		}
		v, err := deriveVerifier(builtinPassword, salt, DefaultIterations)
		if err != nil {
			return nil, err
		}
		a.verifiers[BuiltinUser] = v
	}
	if len(a.verifiers) == 0 {
		a.trust = true
		logger.Warn("no users and no ICEGATE_PASSWORD: trust authentication is on, for loopback connections only")
	}
	return a, nil
}

// Trust reports whether the Authenticator runs in password-less trust mode.
func (a *Authenticator) Trust() bool { return a.trust }

// CheckListen refuses a listen address that is not loopback when trust
// authentication is on.
func (a *Authenticator) CheckListen(addr string) error {
	if !a.trust {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", addr, err)
	}
	if host == "localhost" || isLoopbackHost(host) {
		return nil
	}
	return fmt.Errorf("refusing to listen on %q without authentication: no password is configured, so "+
		"trust authentication is on, which is allowed only on loopback addresses (127.0.0.1, ::1); "+
		"set ICEGATE_PASSWORD or configure users (icegate user add) to listen on other addresses", addr)
}

// MethodFor returns the authentication method for a connection from remote
// by user. In trust mode a non-loopback peer gets a FATAL 28000.
func (a *Authenticator) MethodFor(remote net.Addr, user string) (Method, error) {
	if !a.trust {
		return MethodSCRAM, nil
	}
	if isLoopbackAddr(remote) {
		return MethodTrust, nil
	}
	return 0, &pgerr.Error{
		Code:     pgerr.InvalidAuthorizationSpec,
		Severity: "FATAL",
		Message:  fmt.Sprintf("connection for user %q refused: trust authentication is allowed only from loopback addresses", user),
		Hint:     "Set ICEGATE_PASSWORD or configure users to accept remote connections.",
	}
}

// Begin starts a SCRAM exchange for user. Unknown users get an exchange that
// looks the same to the client and always fails with 28P01.
func (a *Authenticator) Begin(user string) *Exchange {
	if v, ok := a.verifiers[user]; ok {
		return &Exchange{user: user, verifier: v}
	}
	if a.lookup != nil {
		if s, ok := a.lookup(user); ok {
			if v, err := ParseVerifier(s); err == nil {
				return &Exchange{user: user, verifier: v}
			}
		}
	}
	return &Exchange{user: user, verifier: fakeVerifier(a.fakeSecret, user), fake: true}
}

func isLoopbackHost(host string) bool {
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

func isLoopbackAddr(addr net.Addr) bool {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	case *net.UnixAddr:
		return true
	case nil:
		return false
	}
	host, _, err := net.SplitHostPort(addr.String())
	return err == nil && isLoopbackHost(host)
}
