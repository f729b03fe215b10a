package wire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate"
)

// Config configures a Server.
type Config struct {
	Backend translate.Backend
	Auth    *auth.Authenticator
	// TLS enables SSLRequest; nil answers 'N'. Auth and TLS are those at
	// start; Server.Reload replaces them for new connections.
	TLS *tls.Config
	// MaxConnections bounds concurrent sessions; 0 means 100.
	MaxConnections int
	// MaxMessageSize bounds one client message that carries data (Query,
	// Parse, Bind, CopyData, FunctionCall); 0 means 1 GiB, PostgreSQL's
	// limit. Other messages are held to 10000 bytes, as in PostgreSQL.
	MaxMessageSize int
	// AuthenticationTimeout bounds the time from accepting a connection
	// to AuthenticationOk, as PostgreSQL's authentication_timeout does; 0
	// means DefaultAuthenticationTimeout (1 minute, PostgreSQL's default).
	// Connections in startup or authentication are also bounded in
	// number, to twice MaxConnections: past that, new ones are refused
	// with FATAL 53300 (see Server.refuse).
	AuthenticationTimeout time.Duration
	Logger                *slog.Logger
}

// Server serves the PostgreSQL protocol on listeners.
type Server struct {
	cfg    Config
	logger *slog.Logger
	access atomic.Pointer[access] // see Reload

	mu     sync.Mutex
	addr   net.Addr
	conns  map[uint32]*conn // by BackendKeyData process id
	nextID uint32
	active int
	// inStartup counts connections between accept and AuthenticationOk;
	// refused counts those refused since lastRefusalLog.
	inStartup      int
	refusing       int // connections being refused (refuse)
	refused        int
	lastRefusalLog time.Time
	wg             sync.WaitGroup
}

// refusalLogInterval spaces the warnings about connections refused for
// being past the bound on connections in startup.
const refusalLogInterval = 10 * time.Second

// NewServer returns a Server for cfg.
func NewServer(cfg Config) *Server {
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = 100
	}
	if cfg.AuthenticationTimeout <= 0 {
		cfg.AuthenticationTimeout = DefaultAuthenticationTimeout
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	s := &Server{cfg: cfg, logger: logger, conns: make(map[uint32]*conn)}
	s.access.Store(newAccess(cfg.Auth, cfg.TLS, logger))
	return s
}

// Addr is the address of the listener being served, nil before Serve.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Serve accepts connections on ln until ctx is done or ln fails. On return
// the listener is closed, every connection has been closed and its goroutine
// has finished. It returns nil when ctx ended it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if s.cfg.Backend == nil || s.cfg.Auth == nil {
		return errors.New("wire: Config.Backend and Config.Auth are required")
	}
	s.mu.Lock()
	s.addr = ln.Addr()
	s.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()

	var err error
	for {
		nc, aerr := ln.Accept()
		if aerr != nil {
			if ctx.Err() == nil && (errors.Is(aerr, syscall.EMFILE) || errors.Is(aerr, syscall.ENFILE)) {
				// Out of file descriptors: wait for connections to end.
				s.logger.Warn("accept failed; retrying", "err", aerr)
				select {
				case <-ctx.Done():
				case <-time.After(100 * time.Millisecond):
				}
				continue
			}
			if ctx.Err() == nil {
				err = fmt.Errorf("accept on %s: %w", ln.Addr(), aerr)
			}
			break
		}
		if !s.admit() {
			s.refuse(ctx, nc)
			continue
		}
		accepted := time.Now()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveConn(ctx, nc, accepted)
		}()
	}
	ln.Close()
	cancel()
	s.wg.Wait()
	return err
}

// startupLimit is how many connections may be in startup or
// authentication at once: twice MaxConnections, about where PostgreSQL's
// postmaster stops starting backends. A connection that has sent nothing
// holds only a descriptor and a goroutine, for AuthenticationTimeout at
// most.
func (s *Server) startupLimit() int { return 2 * s.cfg.MaxConnections }

// admit counts a new connection as one in startup; false means there are
// too many already.
func (s *Server) admit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inStartup >= s.startupLimit() {
		s.refused++
		if now := time.Now(); now.Sub(s.lastRefusalLog) >= refusalLogInterval {
			s.logger.Warn("too many connections in startup or authentication: refusing new ones",
				"limit", s.startupLimit(), "refused", s.refused, "authentication_timeout", s.cfg.AuthenticationTimeout)
			s.lastRefusalLog, s.refused = now, 0
		}
		return false
	}
	s.inStartup++
	return true
}

// leaveStartup stops counting c as a connection in startup (at
// AuthenticationOk, or at its end); it may be called more than once.
func (s *Server) leaveStartup(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.inStartup {
		c.inStartup = false
		s.inStartup--
	}
}

// refusalTimeout bounds how long a refused connection may take to send
// its startup packet.
const refusalTimeout = 5 * time.Second

// tooManyClients is PostgreSQL's refusal of a connection past its limits.
func tooManyClients() *pgerr.Error {
	return &pgerr.Error{Code: pgerr.TooManyConnections, Severity: "FATAL", Message: "sorry, too many clients already"}
}

// refuse answers a connection past the startup bound with PostgreSQL's
// FATAL 53300. Like a PostgreSQL backend started past the limit, it first
// reads the startup packet (answering SSLRequest, and honouring a
// CancelRequest, which matters most on a busy server), so clients show
// the error as they would PostgreSQL's, for at most refusalTimeout. At most
// MaxConnections connections are refused so at once; past that the error
// goes out before anything is read, as the postmaster reports a failure to
// start a backend, and the connection is closed.
func (s *Server) refuse(ctx context.Context, nc net.Conn) {
	s.mu.Lock()
	wait := s.refusing < s.cfg.MaxConnections
	if wait {
		s.refusing++
	}
	s.mu.Unlock()
	if !wait {
		if b, err := errorResponse(tooManyClients()).Encode(nil); err == nil {
			// A new socket's send buffer is empty: the write does not wait.
			_ = nc.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			_, _ = nc.Write(b)
		}
		nc.Close()
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			s.refusing--
			s.mu.Unlock()
		}()
		stop := context.AfterFunc(ctx, func() { nc.Close() })
		defer stop()
		defer nc.Close()
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("panic while refusing a connection", "panic", r, "stack", string(debug.Stack()))
			}
		}()
		_ = nc.SetDeadline(time.Now().Add(min(refusalTimeout, s.cfg.AuthenticationTimeout)))
		c := &conn{srv: s, nc: nc, logger: s.logger, acc: s.currentAccess()}
		_, _, err := c.negotiate(nc)
		switch pe := pgerr.As(err); {
		case err == nil:
			c.lastWord(tooManyClients())
		case pe != nil:
			c.lastWord(pe)
		}
	}()
}

// register assigns a process id and secret to c and counts it against
// MaxConnections; false means the server is full.
func (s *Server) register(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active >= s.cfg.MaxConnections {
		return false
	}
	s.active++
	for {
		s.nextID++
		if s.nextID == 0 {
			continue
		}
		if _, used := s.conns[s.nextID]; !used {
			break
		}
	}
	c.pid = s.nextID
	var secret [4]byte
	_, _ = rand.Read(secret[:])
	c.secret = secret[:]
	s.conns[c.pid] = c
	return true
}

func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns[c.pid] == c {
		delete(s.conns, c.pid)
		s.active--
	}
}

// cancel handles a CancelRequest: the running statement of the session with
// this process id and secret is canceled. Mismatches are ignored silently, as
// PostgreSQL does.
func (s *Server) cancel(pid uint32, secret []byte) {
	s.mu.Lock()
	c := s.conns[pid]
	s.mu.Unlock()
	if c == nil || subtle.ConstantTimeCompare(c.secret, secret) != 1 {
		s.logger.Debug("cancel request for unknown session", "pid", pid)
		return
	}
	c.cancelStatement()
}

// counts returns the connections in startup or authentication, those
// being refused, and the registered sessions.
func (s *Server) counts() (inStartup, refusing, active int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inStartup, s.refusing, s.active
}
