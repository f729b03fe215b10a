package wire

import (
	"errors"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// Shutdown, after PostgreSQL's modes (pg_ctl stop -m smart|fast|immediate):
//
//   - Drain (SIGTERM): the server stops starting sessions - a new
//     connection is answered with FATAL 57P03 "the database system is
//     shutting down" - and lets the work under way end. A session waiting
//     for its next statement outside a transaction block is told FATAL
//     57P01 and closed at once; a running statement (a COPY too) runs to
//     its end, and its session is closed as soon as it is back outside a
//     transaction block. A session inside a transaction block may go on
//     until COMMIT or ROLLBACK: closing it earlier would throw away the
//     client's work without need, and the drain timeout bounds it. When
//     the timeout passes, what is left is terminated as by Terminate.
//   - Terminate (SIGINT): every session is terminated now: a running
//     statement is canceled and fails with FATAL 57P01, an idle session
//     gets 57P01 and is closed. A commit already under way finishes or
//     fails as a whole (commits are atomic swaps of the table's metadata),
//     and Serve returns only once every session's goroutine has ended, so
//     the process exits after it.
//   - Immediate (SIGQUIT) is the process exiting at once; nothing here.
//
// In both modes Serve returns nil once no session is left.

// codeCannotConnectNow is PostgreSQL's cannot_connect_now.
const codeCannotConnectNow = "57P03"

// shuttingDown refuses a connection that arrives while the server drains,
// as PostgreSQL's postmaster does during a shutdown.
func shuttingDown() *pgerr.Error {
	return &pgerr.Error{Code: codeCannotConnectNow, Severity: "FATAL", Message: "the database system is shutting down"}
}

// errDrainWake interrupts the read of a session idle outside a
// transaction block when the server starts draining.
var errDrainWake = errors.New("server draining")

// Drain starts a graceful shutdown: no new sessions; sessions end once
// their work does, and those left after timeout are terminated. A timeout
// of 0 or less terminates at once (Terminate). It returns at once; Serve
// returns when the last session has ended. Calling it again (or
// Terminate) while draining only shortens the wait.
func (s *Server) Drain(timeout time.Duration) {
	if timeout <= 0 {
		s.Terminate()
		return
	}
	s.mu.Lock()
	s.beginDrainLocked()
	if s.drainTimer == nil {
		s.drainTimer = time.AfterFunc(timeout, func() {
			s.logger.Info("drain timeout passed: terminating the remaining sessions", "timeout", timeout)
			s.Terminate()
		})
	}
	conns := s.sessionsLocked()
	s.mu.Unlock()
	s.logger.Info("draining: refusing new connections, letting running statements finish",
		"sessions", len(conns), "drain_timeout", timeout)
	for _, c := range conns {
		c.drainWake()
	}
}

// Terminate is the fast shutdown: no new sessions, and every session is
// terminated now with FATAL 57P01 (see Drain).
func (s *Server) Terminate() {
	s.mu.Lock()
	s.beginDrainLocked()
	conns := s.sessionsLocked()
	s.mu.Unlock()
	s.logger.Info("terminating every session", "sessions", len(conns))
	for _, c := range conns {
		c.terminate()
	}
}

// Draining reports whether a shutdown has begun: a readiness probe should
// fail from then on.
func (s *Server) Draining() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draining
}

// beginDrainLocked marks the server draining; s.mu is held.
func (s *Server) beginDrainLocked() {
	s.draining = true
	s.checkIdleLocked()
}

// checkIdleLocked lets Serve return once the server drains and no
// session is left; s.mu is held.
func (s *Server) checkIdleLocked() {
	if s.draining && s.active == 0 && !s.idleClosed {
		s.idleClosed = true
		close(s.idle)
	}
}

// sessionsLocked lists the registered sessions; s.mu is held.
func (s *Server) sessionsLocked() []*conn {
	out := make([]*conn, 0, len(s.conns))
	for _, c := range s.conns {
		out = append(out, c)
	}
	return out
}

// drainWake closes a session that waits for its next message outside a
// transaction block; others notice the drain when their work ends
// (conn.drained). Any goroutine may call it.
func (c *conn) drainWake() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.waitingIdle {
		c.drainWoke = true
		c.input.interrupt(errDrainWake)
	}
}

// drained reports whether the session ends now for the drain: the server
// drains, and the session is between statements outside a transaction
// block. Only the connection's goroutine calls it.
func (c *conn) drained() bool {
	return c.atBoundary && c.session.TxStatus() == 'I' && c.srv.Draining()
}
