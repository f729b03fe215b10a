package wire

import (
	"github.com/icegate/icegate/internal/pgerr"
)

// errAdminTerminate ends a session another one terminated
// (pg_terminate_backend): its running statement fails with it, or the
// wait for its next message does, and the loop sends it as FATAL.
var errAdminTerminate = &pgerr.Error{Code: pgerr.AdminShutdown, Severity: "FATAL",
	Message: "terminating connection due to administrator command"}

// statementRunning reports whether a statement of the session runs now
// (pg_stat_activity's state); any goroutine may call it.
func (c *conn) statementRunning() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stmtCancel != nil
}

// terminate ends the session from another goroutine: the running
// statement is canceled with errAdminTerminate, and a wait for the next
// message returns it.
func (c *conn) terminate() {
	c.mu.Lock()
	c.terminated = true
	cancel := c.stmtCancel
	c.mu.Unlock()
	if cancel != nil {
		cancel(errAdminTerminate)
	}
	if c.input != nil {
		c.input.interrupt(errAdminTerminate)
	}
}

func (c *conn) isTerminated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.terminated
}

// fatal reports whether the connection ends after err is sent: a FATAL
// error, or any error once the session was terminated.
func (c *conn) fatal(err error) bool { return isFatal(err) || c.isTerminated() }
