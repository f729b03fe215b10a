package translate

import (
	"context"
	"errors"

	"github.com/icegate/icegate/internal/pgerr"
)

// interruptErr reports an error caused by the end of ctx as PostgreSQL
// does: 57014 with the reason.
func interruptErr(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	if pe := pgerr.As(err); pe != nil && pe.Code != pgerr.QueryCanceled {
		return err // failed for its own reason before the interrupt
	}
	if errors.Is(context.Cause(ctx), errStatementTimeout) {
		return pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement due to statement timeout")
	}
	return pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement due to user request")
}
