package wire

import (
	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/audit"
	"github.com/icegate/icegate/internal/pgerr"
)

// methodName is an authentication method as pg_hba.conf names it.
func methodName(m auth.Method) string {
	switch m {
	case auth.MethodTrust:
		return "trust"
	case auth.MethodReject:
		return "reject"
	case auth.MethodCert:
		return "cert"
	}
	return "scram-sha-256"
}

// auditState is a session's part in the audit log (Config.Audit): who
// it is, and the records of extended-protocol statements waiting for
// their Sync, where their implicit transaction commits.
type auditState struct {
	user, database, application string
	mechanism                   string // the SASL mechanism of a SCRAM authentication
	commits                     *audit.Commits
	pending                     []audit.Record
}

// auditOn reports whether the server keeps an audit log.
func (c *conn) auditOn() bool { return c.srv.cfg.Audit != nil }

// auditRecord fills the session's fields into r and writes it; a failed
// write is logged, never shown to the client.
func (c *conn) auditRecord(r audit.Record) {
	r.User, r.Database, r.Application = c.audit.user, c.audit.database, c.audit.application
	if c.remote != nil {
		r.Client = c.remote.String()
	}
	r.PID = c.pid
	if err := c.srv.cfg.Audit.Write(r); err != nil {
		c.logger.Error("audit log", "err", err)
	}
}

// auditAuthentication records an authentication's outcome.
func (c *conn) auditAuthentication(method string, err error) {
	if !c.auditOn() {
		return
	}
	r := audit.Record{Event: audit.EventAuthentication, Method: method, Mechanism: c.audit.mechanism}
	c.setOutcome(&r, err)
	c.auditRecord(r)
}

// setOutcome sets r's outcome, SQLSTATE and message from err.
func (c *conn) setOutcome(r *audit.Record, err error) {
	if err == nil {
		r.Outcome, r.SQLState = "success", pgerr.SuccessfulCompletion
		return
	}
	pe := c.toPgError(err)
	r.Outcome, r.SQLState, r.Message = "failure", pe.Code, pe.Message
}

// auditStatement records a statement of the simple protocol, which has
// committed (or failed) by now.
func (c *conn) auditStatement(sql string, err error) {
	if !c.auditOn() {
		return
	}
	kind, ok := audit.Classify(sql)
	commits := c.audit.commits.Take()
	if !ok {
		if len(commits) == 0 {
			return
		}
		kind = audit.KindCommit
	}
	r := audit.Record{Event: audit.EventStatement, Kind: kind, Statement: sql, Tables: commits}
	c.setOutcome(&r, err)
	c.auditRecord(r)
}

// auditExecute notes an extended-protocol Execute of sql, to be written
// at the Sync that commits it (auditSync).
func (c *conn) auditExecute(sql string, err error) {
	if !c.auditOn() {
		return
	}
	kind, ok := audit.Classify(sql)
	if !ok {
		kind = audit.KindCommit // written only if it commits something
	}
	r := audit.Record{Event: audit.EventStatement, Kind: kind, Statement: sql}
	c.setOutcome(&r, err)
	c.audit.pending = append(c.audit.pending, r)
}

// auditSync writes the records of the batch a Sync ends; commitErr is
// the failure of its implicit commit, if any.
func (c *conn) auditSync(commitErr error) {
	if !c.auditOn() {
		return
	}
	commits := c.audit.commits.Take()
	for i, r := range c.audit.pending {
		if r.Outcome == "success" && commitErr != nil {
			c.setOutcome(&r, commitErr)
		}
		if i == len(c.audit.pending)-1 {
			r.Tables = commits
		}
		// A statement audited for what it committed (COMMIT) is
		// written only when it did commit something.
		if r.Kind != audit.KindCommit || len(r.Tables) > 0 {
			c.auditRecord(r)
		}
	}
	c.audit.pending = nil
}
