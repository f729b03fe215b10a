package wire

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgerr"
)

// toPgError turns any error into the *pgerr.Error to send: *pgerr.Error
// values as they are, cancellations as 57014, the client's connection gone
// as FATAL 08006, anything else as XX000 (and logged with its chain, since
// the client sees only the message).
func (c *conn) toPgError(err error) *pgerr.Error {
	if c.isTerminated() {
		// pg_terminate_backend canceled the statement: the session ends.
		if pe := pgerr.As(err); errors.Is(err, context.Canceled) || (pe != nil && pe.Code == pgerr.QueryCanceled) {
			return errAdminTerminate
		}
	}
	if pe := pgerr.As(err); pe != nil {
		return pe
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		msg := "canceling statement due to user request"
		if errors.Is(err, context.DeadlineExceeded) {
			msg = "canceling statement due to statement timeout"
		}
		return &pgerr.Error{Code: pgerr.QueryCanceled, Message: msg}
	}
	if c.ctx != nil && errors.Is(context.Cause(c.ctx), errClientGone) {
		// The client left while the statement ran or its answer was being
		// written: nothing is wrong with the server, and there is no one to
		// tell. PostgreSQL logs this at LOG.
		c.logger.Info("connection to client lost", "err", err)
		return &pgerr.Error{Code: pgerr.ConnectionFailure, Severity: "FATAL", Message: "connection to client lost"}
	}
	c.logger.Error("internal error", "err", fmt.Sprintf("%+v", err), "chain", errorChain(err))
	return &pgerr.Error{Code: pgerr.InternalError, Message: err.Error()}
}

// sendError queues an ErrorResponse for err.
func (c *conn) sendError(err error) {
	c.stmtDone("", err)
	c.noteFailure(err)
	c.be.Send(errorResponse(c.toPgError(err)))
}

// errorResponse is the one place an ErrorResponse is built.
func errorResponse(pe *pgerr.Error) *pgproto3.ErrorResponse {
	severity := pe.Severity
	if severity == "" {
		severity = "ERROR"
	}
	code := pe.Code
	if code == "" {
		code = pgerr.InternalError
	}
	return &pgproto3.ErrorResponse{
		Severity:            severity,
		SeverityUnlocalized: severity,
		Code:                code,
		Message:             pe.Message,
		Detail:              pe.Detail,
		Hint:                pe.Hint,
		Position:            pe.Position,
	}
}

// isFatal reports whether err ends the connection after it is sent.
func isFatal(err error) bool {
	pe := pgerr.As(err)
	return pe != nil && (pe.Severity == "FATAL" || pe.Severity == "PANIC")
}

// errorChain lists the messages of err's wrap chain, outermost first.
func errorChain(err error) []string {
	var chain []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		chain = append(chain, e.Error())
	}
	return chain
}

// recoverPanic turns a panic while running a message into an XX000 error;
// the connection and the server go on.
func (c *conn) recoverPanic(errp *error) {
	if r := recover(); r != nil {
		c.logger.Error("panic while running a statement", "panic", r, "stack", string(debug.Stack()))
		*errp = &pgerr.Error{Code: pgerr.InternalError, Message: fmt.Sprintf("internal error: %v", r)}
	}
}
