package translate

import (
	"context"
	"errors"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/settings"
)

// The statement runner: how a statement's limits are applied and how the
// end of its context becomes PostgreSQL's error, in one place. Every path
// that runs a statement's work (parse and bind, a query's operators, an
// InitPlan, INSERT, DELETE/UPDATE/MERGE, data-modifying WITH, FETCH and a
// cursor's portal) bounds its context with withStatementTimeout (or, for
// rows fetched later, the deadline fixed at Execute) and maps the errors
// it returns with statementErr.

// errStatementTimeout is the cause of a context ended by statement_timeout.
var errStatementTimeout = pgerr.New(pgerr.QueryCanceled, "canceling statement due to statement timeout")

// statementTimeout is statement_timeout (milliseconds; 0 = none).
func (s *session) statementTimeout() time.Duration {
	v, _ := s.settings.Get("statement_timeout")
	ms, ok := settings.ParseMillis(v)
	if !ok || ms <= 0 {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}

// withStatementTimeout bounds ctx by statement_timeout, counted from now;
// the returned cancel must be called when the work ends.
func (s *session) withStatementTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if t := s.statementTimeout(); t > 0 {
		return context.WithTimeoutCause(ctx, t, errStatementTimeout)
	}
	return ctx, func() {}
}

// statementDeadline is when statement_timeout ends a statement started
// now (zero: never), for work that runs later than Execute (a cursor's
// rows fetched by its portal).
func (s *session) statementDeadline() time.Time {
	if t := s.statementTimeout(); t > 0 {
		return time.Now().Add(t)
	}
	return time.Time{}
}

// withDeadline bounds ctx by a statementDeadline (zero: none).
func withDeadline(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	if deadline.IsZero() {
		return ctx, func() {}
	}
	return context.WithDeadlineCause(ctx, deadline, errStatementTimeout)
}

// statementErr reports an error caused by the end of ctx as PostgreSQL
// does: 57014 "canceling statement due to statement timeout" when
// statement_timeout ended it, "... due to user request" when a cancel did.
// An error of its own (with another SQLSTATE and not caused by the end of
// the context) passes unchanged, as does any error while ctx is live.
func statementErr(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	interrupted := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, errStatementTimeout)
	if pe := pgerr.As(err); pe != nil && pe.Code != pgerr.QueryCanceled && !interrupted {
		return err // failed for its own reason before the interrupt
	}
	if errors.Is(context.Cause(ctx), errStatementTimeout) {
		if pe := pgerr.As(err); pe != nil && pe.Message == errStatementTimeout.Message {
			return err
		}
		return pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement due to statement timeout")
	}
	if pe := pgerr.As(context.Cause(ctx)); pe != nil {
		return pe // the context was ended with a reason of its own
	}
	if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.QueryCanceled {
		return err
	}
	return pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement due to user request")
}
