package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate"
)

// endImplicit ends the session's implicit transaction, sending a commit
// failure to the client.
func (c *conn) endImplicit() error {
	err := c.session.EndImplicit(c.ctx)
	if err != nil {
		c.sendError(err)
	}
	return err
}

// beginImplicit starts (or continues) the implicit transaction.
func (c *conn) beginImplicit() {
	c.session.BeginImplicit()
}

// conn is one client connection. All protocol work happens on its own
// goroutine; only cancelStatement is called from others.
type conn struct {
	srv    *Server
	acc    *access // users, access rules and TLS as when accepted
	logger *slog.Logger
	nc     net.Conn
	remote net.Addr
	be     *pgproto3.Backend
	input  *pump
	frames *frameReader

	ctx        context.Context // ends when the client goes or the server stops
	cancelConn context.CancelCauseFunc

	pid        uint32
	secret     []byte
	registered bool
	// inStartup is set from accept until AuthenticationOk: the connection
	// counts against the bound on connections in startup (Server.admit).
	inStartup bool
	// queued holds the messages to write before AuthenticationOk, when
	// the connection has no buffered writer yet.
	queued   []byte
	session  translate.Session
	reported map[string]string

	stmts   map[string]*prepared
	portals map[string]*portal
	// ignoreTillSync is set after an error in an extended-protocol message:
	// everything up to the next Sync is discarded.
	ignoreTillSync bool

	mu         sync.Mutex
	stmtCancel context.CancelCauseFunc // of the running statement, nil when idle
	terminated bool                    // pg_terminate_backend ended the session (terminate.go)
	// waitingIdle is set while the goroutine waits for a message between
	// statements outside a transaction block, when a drain may close the
	// session at once; drainWoke records that it did (shutdown.go).
	waitingIdle bool
	drainWoke   bool
	// atBoundary is set between statements: after startup, a simple
	// Query and a Sync; not inside an extended-protocol batch.
	atBoundary bool

	rowBuf []byte // reused buffer of encoded DataRows
	// heldRows is the bytes of DataRows buffered in be since its last
	// flush (writeRows).
	heldRows int

	audit auditState // audit.go
	obs   stmtObs    // the statement being observed (observe.go)
	ident connIdent  // the session's user and database, for logs

	tzName string // TimeZone setting tzLoc was loaded for
	tzLoc  *time.Location
	// lastEnv is the encoders' settings last read (result.go).
	lastEnv *encodeEnv
}

// errCancelRequest is the cause of a statement canceled by CancelRequest.
var errCancelRequest = errors.New("cancel request")

// errClientGone is the cause when the client closed its connection.
var errClientGone = errors.New("client connection closed")

// serveConn serves a connection accepted at accepted; the caller counted
// it as one in startup.
func (s *Server) serveConn(ctx context.Context, nc net.Conn, accepted time.Time) {
	c := &conn{
		srv:       s,
		acc:       s.currentAccess(),
		nc:        nc,
		remote:    nc.RemoteAddr(),
		logger:    s.logger.With("remote", nc.RemoteAddr().String()),
		stmts:     make(map[string]*prepared),
		portals:   make(map[string]*portal),
		inStartup: true,
	}
	c.ctx, c.cancelConn = context.WithCancelCause(ctx)
	stop := context.AfterFunc(c.ctx, func() { nc.Close() })
	defer func() {
		stop()
		c.cancelConn(errClientGone)
		nc.Close()
		if c.input != nil {
			c.input.stop(io.EOF)
		}
		c.closeAll()
		if c.registered {
			s.unregister(c)
		}
		s.leaveStartup(c)
	}()
	defer func() {
		if r := recover(); r != nil {
			c.logger.Error("panic in connection", "panic", r, "stack", string(debug.Stack()))
			if c.be != nil {
				c.sendError(&pgerr.Error{Code: pgerr.InternalError, Severity: "FATAL",
					Message: fmt.Sprintf("internal error: %v", r)})
				_ = c.be.Flush()
			}
		}
	}()
	if err := c.run(nc, accepted); err != nil && !errors.Is(err, errCanceled) {
		c.logger.Debug("connection ended", "err", err)
	}
}

// run drives one connection from its first byte to its end.
func (c *conn) run(nc net.Conn, accepted time.Time) error {
	// authentication_timeout bounds all of startup, from the accept: the
	// startup packet, TLS, the SASL exchange. Past it the connection is
	// closed, as PostgreSQL does.
	_ = nc.SetDeadline(accepted.Add(c.srv.cfg.AuthenticationTimeout))
	stream, sp, err := c.negotiate(nc)
	if err != nil {
		c.srv.m.connection(connectionOutcome(err, false))
		// An ErrorResponse is allowed in place of the authentication
		// request, so the client learns why; a client that left or
		// stalled before StartupMessage is closed without a word.
		if pe := pgerr.As(err); pe != nil {
			c.lastWord(pe)
		}
		return err
	}
	c.nc = stream
	if err := c.startSession(sp); err != nil {
		c.srv.m.connection(connectionOutcome(err, true))
		return c.failStartup(err)
	}
	c.srv.m.connection("established")
	return c.loop()
}

// loop reads and runs messages until Terminate, a FATAL error, or the end of
// the connection.
func (c *conn) loop() error {
	c.atBoundary = true
	for {
		if c.drained() {
			c.sendError(errAdminTerminate)
			_ = c.flush()
			return errAdminTerminate
		}
		msg, err := c.nextMessage()
		if err != nil {
			// Malformed input gets its FATAL error; a connection that broke
			// or ended between messages ends quietly.
			if pe := pgerr.As(err); pe != nil {
				c.sendError(pe)
				_ = c.flush()
			}
			return err
		}
		switch m := msg.(type) {
		case *pgproto3.Terminate:
			return nil
		case *pgproto3.Sync:
			c.ignoreTillSync = false
			c.sync()
			c.atBoundary = true
		case *pgproto3.Flush:
			if err := c.flush(); err != nil {
				return err
			}
			continue
		case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
			continue // PostgreSQL ignores these outside COPY
		case *pgproto3.Query:
			if c.ignoreTillSync {
				continue
			}
			// simpleQuery answers errors itself; what it returns ends the
			// connection.
			if err := c.simpleQuery(m.String); err != nil {
				return err
			}
			c.atBoundary = true
		default:
			c.atBoundary = false
			if c.ignoreTillSync {
				continue
			}
			err := c.dispatch(m)
			if ex, ok := m.(*pgproto3.Execute); ok && c.auditOn() {
				if p := c.portals[ex.Portal]; p != nil && p.stmt != nil {
					c.auditExecute(p.stmt.sql, err)
				}
			}
			if err != nil {
				c.sendError(err)
				// Like PostgreSQL, an error goes out at once, not at the
				// next Sync: a client streaming COPY data learns to stop.
				_ = c.flush()
				if isFatal(err) {
					return err
				}
				c.ignoreTillSync = true
			}
		}
		if c.ctx.Err() != nil {
			return context.Cause(c.ctx)
		}
	}
}

// dispatch runs one message other than Sync, Flush and Terminate.
func (c *conn) dispatch(msg pgproto3.FrontendMessage) (err error) {
	defer c.recoverPanic(&err)
	switch m := msg.(type) {
	case *pgproto3.Parse:
		return c.parse(m)
	case *pgproto3.Bind:
		return c.bind(m)
	case *pgproto3.Describe:
		return c.describe(m)
	case *pgproto3.Execute:
		return c.execute(m)
	case *pgproto3.Close:
		return c.closeObject(m)
	case *pgproto3.FunctionCall:
		return pgerr.Unsupported("the fast-path function call interface")
	}
	return &pgerr.Error{Code: pgerr.ProtocolViolation, Severity: "FATAL",
		Message: fmt.Sprintf("unexpected message type %T", msg)}
}

// flush writes buffered messages to the client.
func (c *conn) flush() error {
	c.heldRows = 0
	if err := c.be.Flush(); err != nil {
		c.cancelConn(errClientGone)
		return fmt.Errorf("write to client: %w", err)
	}
	return nil
}

// sendReady sends ReadyForQuery with the session's transaction status.
func (c *conn) sendReady() {
	c.be.Send(&pgproto3.ReadyForQuery{TxStatus: c.session.TxStatus()})
}

// sync ends an extended-protocol batch: portals of the implicit transaction
// are dropped and ReadyForQuery is sent.
func (c *conn) sync() {
	c.auditSync(c.endImplicit())
	if c.session.TxStatus() == 'I' {
		for name, p := range c.portals {
			p.close()
			delete(c.portals, name)
		}
	}
	c.sendReady()
	_ = c.flush()
}

// reportedUnchanged is what a session may offer to tell, without building
// them, that the reported settings still have the values last sent.
type reportedUnchanged interface {
	ReportedUnchanged(sent map[string]string) bool
}

// reportParams sends ParameterStatus for reported settings that changed
// since they were last sent (all of them when all is set).
func (c *conn) reportParams(all bool) {
	if u, ok := c.session.(reportedUnchanged); ok && !all && c.reported != nil && u.ReportedUnchanged(c.reported) {
		return // nothing changed: no map of the values built, nor sorted
	}
	current := c.session.ReportedParams()
	if c.reported == nil {
		c.reported = make(map[string]string, len(current))
	}
	for _, name := range slices.Sorted(maps.Keys(current)) {
		value := current[name]
		if old, ok := c.reported[name]; all || !ok || old != value {
			c.be.Send(&pgproto3.ParameterStatus{Name: name, Value: value})
			c.reported[name] = value
		}
	}
}

// beginStatement returns the context of a statement execution; a
// CancelRequest for this session cancels it.
func (c *conn) beginStatement() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(c.ctx)
	c.mu.Lock()
	c.stmtCancel = cancel
	c.mu.Unlock()
	return ctx, func() {
		c.mu.Lock()
		c.stmtCancel = nil
		c.mu.Unlock()
		cancel(nil)
	}
}

// cancelStatement cancels the running statement, if any.
func (c *conn) cancelStatement() {
	c.mu.Lock()
	cancel := c.stmtCancel
	c.mu.Unlock()
	if cancel != nil {
		cancel(errCancelRequest)
	}
}

// closeAll closes every portal and the session.
func (c *conn) closeAll() {
	for name, p := range c.portals {
		p.close()
		delete(c.portals, name)
	}
	if c.session != nil {
		if err := c.session.Close(); err != nil {
			c.logger.Warn("close session", "err", err)
		}
	}
}

// errIdleInTransaction ends a session idle too long inside a transaction
// block.
var errIdleInTransaction = &pgerr.Error{Code: pgerr.IdleInTransactionSessionTimeout, Severity: "FATAL",
	Message: "terminating connection due to idle-in-transaction timeout"}

// nextMessage reads the next client message; inside a transaction block
// it gives up after the session's idle_in_transaction_session_timeout with
// errIdleInTransaction, which the loop sends as FATAL.
func (c *conn) nextMessage() (pgproto3.FrontendMessage, error) {
	idle := c.atBoundary && c.session.TxStatus() == 'I'
	c.mu.Lock()
	c.waitingIdle = idle
	c.mu.Unlock()
	msg, err := c.nextMessageOrIdleTimeout()
	c.mu.Lock()
	c.waitingIdle = false
	woke := c.drainWoke
	c.drainWoke = false
	c.mu.Unlock()
	if woke {
		if errors.Is(err, errDrainWake) {
			return nil, errAdminTerminate
		}
		// The wake came after a message had arrived: the message runs,
		// and the loop closes the session after it.
		c.input.clearInterrupt()
	}
	if c.isTerminated() {
		return nil, errAdminTerminate
	}
	return msg, err
}

func (c *conn) nextMessageOrIdleTimeout() (pgproto3.FrontendMessage, error) {
	if c.isTerminated() {
		return nil, errAdminTerminate
	}
	if c.session.TxStatus() == 'I' {
		return c.frames.next()
	}
	d := c.session.IdleInTransactionTimeout()
	if d <= 0 {
		return c.frames.next()
	}
	timer := time.AfterFunc(d, func() { c.input.interrupt(errIdleInTransaction) })
	msg, err := c.frames.next()
	timer.Stop()
	c.input.clearInterrupt()
	if errors.Is(err, errIdleInTransaction) {
		return nil, errIdleInTransaction
	}
	return msg, err
}
