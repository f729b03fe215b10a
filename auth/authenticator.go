package auth

import (
	"crypto/rand"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"slices"

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
	// MethodTrust accepts the connection without a password (by default
	// only when no password is configured at all; always only from
	// loopback addresses).
	MethodTrust
	// MethodReject refuses the connection (a reject rule).
	MethodReject
	// MethodCert authenticates by the client's TLS certificate: its
	// common name must be the user name.
	MethodCert
)

// Config configures an Authenticator.
type Config struct {
	// Users are the configured logins.
	Users []User
	// BuiltinPassword is the password of BuiltinUser; empty: no such user.
	BuiltinPassword string
	// Rules are the access rules in order; nil keeps the defaults: with
	// users, scram-sha-256 from anywhere; without, trust from loopback.
	Rules []Rule
	// TLSRequired refuses every connection without TLS, as if every rule
	// were hostssl.
	TLSRequired bool
	// MemberOf reports whether user is a member of role, directly or
	// through other roles, for +role and samerole in rules. nil: a user
	// is a member of the role of its own name only.
	MemberOf func(user, role string) bool
	Logger   *slog.Logger
}

// ConnInfo is what the access rules look at.
type ConnInfo struct {
	Remote   net.Addr
	User     string
	Database string
	SSL      bool
}

// Authenticator decides how each connection authenticates and runs SCRAM
// exchanges. It is immutable after New and safe for concurrent use.
type Authenticator struct {
	verifiers   map[string]*Verifier
	trust       bool
	fakeSecret  []byte
	rules       []Rule
	tlsRequired bool
	memberOf    func(user, role string) bool
	logger      *slog.Logger
	lookup      Lookup
}

// Lookup finds the verifier (pg_authid format) of a user the
// configuration does not list: a role created with CREATE ROLE. ok is
// false when there is none (no such role, no password, or VALID UNTIL
// passed).
type Lookup func(user string) (verifier string, ok bool)

// SetLookup makes Begin ask lookup for users the configuration does not
// list. Call it before the Authenticator is used.
func (a *Authenticator) SetLookup(lookup Lookup) { a.lookup = lookup }

// SetMemberOf sets how the access rules' +role and samerole test role
// membership (the roles store's); nil keeps "only the role itself".
func (a *Authenticator) SetMemberOf(memberOf func(user, role string) bool) {
	if memberOf != nil {
		a.memberOf = memberOf
	}
}

// New builds an Authenticator from configured users and the built-in user's
// password (empty: no built-in user). With neither, trust authentication is
// on, for loopback connections only, and a warning is logged.
func New(users []User, builtinPassword string, logger *slog.Logger) (*Authenticator, error) {
	return NewFromConfig(Config{Users: users, BuiltinPassword: builtinPassword, Logger: logger})
}

// NewFromConfig builds an Authenticator from cfg. Without users and without
// a built-in password, the default rules are trust for loopback only.
func NewFromConfig(cfg Config) (*Authenticator, error) {
	users, builtinPassword, logger := cfg.Users, cfg.BuiltinPassword, cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	a := &Authenticator{verifiers: make(map[string]*Verifier, len(users)+1), fakeSecret: make([]byte, 32),
		rules: cfg.Rules, tlsRequired: cfg.TLSRequired, memberOf: cfg.MemberOf, logger: logger}
	if a.memberOf == nil {
		a.memberOf = func(user, role string) bool { return user == role }
	}
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
	if len(a.verifiers) == 0 && a.rules == nil {
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
// by user, without TLS, to database user. See Decide.
func (a *Authenticator) MethodFor(remote net.Addr, user string) (Method, error) {
	return a.Decide(ConnInfo{Remote: remote, User: user, Database: user})
}

// Decide returns the authentication method for a connection: that of the
// first access rule matching it, or a FATAL 28000 when none does or the
// rule is reject, with PostgreSQL's messages; a refused connection comes
// with MethodReject.
func (a *Authenticator) Decide(ci ConnInfo) (Method, error) {
	if a.tlsRequired && !ci.SSL {
		return MethodReject, a.refusal(ci, "no pg_hba.conf entry for")
	}
	if a.rules == nil {
		switch {
		case !a.trust:
			return MethodSCRAM, nil
		case isLoopbackAddr(ci.Remote):
			return MethodTrust, nil
		}
		return MethodReject, &pgerr.Error{
			Code:     pgerr.InvalidAuthorizationSpec,
			Severity: "FATAL",
			Message:  fmt.Sprintf("connection for user %q refused: trust authentication is allowed only from loopback addresses", ci.User),
			Hint:     "Set ICEGATE_PASSWORD or configure users to accept remote connections.",
		}
	}
	ip := remoteIP(ci.Remote)
	for i := range a.rules {
		r := &a.rules[i]
		if !a.ruleMatches(r, ci, ip) {
			continue
		}
		a.logger.Debug("connection matched access rule", "rule", r.Source, "user", ci.User, "database", ci.Database)
		if r.Method == MethodReject {
			return MethodReject, a.refusal(ci, "pg_hba.conf rejects connection for")
		}
		return r.Method, nil
	}
	return MethodReject, a.refusal(ci, "no pg_hba.conf entry for")
}

// Rules returns the access rules in force; nil means the defaults.
func (a *Authenticator) Rules() []Rule { return a.rules }

// refusal is PostgreSQL's FATAL 28000 for a connection no rule admits.
func (a *Authenticator) refusal(ci ConnInfo, lead string) *pgerr.Error {
	enc := "no encryption"
	if ci.SSL {
		enc = "SSL encryption"
	}
	host := "[unknown]"
	if ip := remoteIP(ci.Remote); ip.IsValid() {
		host = ip.String()
	}
	return &pgerr.Error{
		Code:     pgerr.InvalidAuthorizationSpec,
		Severity: "FATAL",
		Message:  fmt.Sprintf("%s host %q, user %q, database %q, %s", lead, host, ci.User, ci.Database, enc),
	}
}

func (a *Authenticator) ruleMatches(r *Rule, ci ConnInfo, ip netip.Addr) bool {
	switch {
	case r.Type == ConnHostSSL && !ci.SSL, r.Type == ConnHostNoSSL && ci.SSL:
		return false
	}
	if !slices.ContainsFunc(r.Databases, func(t token) bool {
		switch {
		case !t.keyword:
			return t.name == ci.Database
		case t.name == "all":
			return true
		case t.name == "sameuser":
			return ci.Database == ci.User
		case t.name == "samerole":
			return a.memberOf(ci.User, ci.Database)
		}
		// replication matches only replication connections, which
		// icegate refuses before the rules are consulted.
		return false
	}) {
		return false
	}
	if !slices.ContainsFunc(r.Users, func(t token) bool {
		switch {
		case t.group:
			return a.memberOf(ci.User, t.name)
		case t.keyword:
			return true // all
		}
		return t.name == ci.User
	}) {
		return false
	}
	return r.Address.matches(ip, localAddrs)
}

// CheckCert authenticates a connection by its client certificate: the TLS
// handshake verified it against the configured CA, and its common name
// must be user. Errors are PostgreSQL's FATAL 28000.
func CheckCert(user string, state *tls.ConnectionState) error {
	if state == nil || len(state.VerifiedChains) == 0 || len(state.PeerCertificates) == 0 {
		return &pgerr.Error{Code: pgerr.InvalidAuthorizationSpec, Severity: "FATAL",
			Message: "connection requires a valid client certificate"}
	}
	cn := state.PeerCertificates[0].Subject.CommonName
	if cn == "" {
		return &pgerr.Error{Code: pgerr.InvalidAuthorizationSpec, Severity: "FATAL",
			Message: fmt.Sprintf("certificate authentication failed for user %q: client certificate contains no user name", user)}
	}
	if cn != user {
		return &pgerr.Error{Code: pgerr.InvalidAuthorizationSpec, Severity: "FATAL",
			Message: fmt.Sprintf("certificate authentication failed for user %q", user)}
	}
	return nil
}

// remoteIP is the client's IP address, IPv4-mapped addresses unmapped.
func remoteIP(addr net.Addr) netip.Addr {
	switch a := addr.(type) {
	case *net.TCPAddr:
		ip, _ := netip.AddrFromSlice(a.IP)
		return ip.Unmap()
	case nil:
		return netip.Addr{}
	}
	ap, err := netip.ParseAddrPort(addr.String())
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// localAddrs lists this machine's interface addresses, for samehost.
func localAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok {
				out = append(out, ip.Unmap())
			}
		}
	}
	return out
}

// Begin starts a SCRAM exchange for user on a connection without TLS.
// Unknown users get an exchange that looks the same to the client and
// always fails with 28P01.
func (a *Authenticator) Begin(user string) *Exchange {
	return a.BeginTLS(user, nil)
}

// BeginTLS starts a SCRAM exchange for user; endPoint is the connection's
// tls-server-end-point binding data (see EndPoint), nil without TLS. With
// it, SCRAM-SHA-256-PLUS is offered first.
func (a *Authenticator) BeginTLS(user string, endPoint []byte) *Exchange {
	if v, ok := a.verifiers[user]; ok {
		return &Exchange{user: user, verifier: v, endPoint: endPoint}
	}
	if a.lookup != nil {
		if s, ok := a.lookup(user); ok {
			if v, err := ParseVerifier(s); err == nil {
				return &Exchange{user: user, verifier: v, endPoint: endPoint}
			}
		}
	}
	return &Exchange{user: user, verifier: fakeVerifier(a.fakeSecret, user), fake: true, endPoint: endPoint}
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
