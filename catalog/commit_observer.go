package catalog

import (
	"context"
	"errors"
)

// CommitObserver hears how the commits of data changes (CommitChange,
// CommitChanges) end, for the server's metrics. The server attaches one
// to the context its statements run under (WithCommitObserver).
type CommitObserver interface {
	// ObserveCommit is called once per event: CommitCommitted,
	// CommitRetried (a lost race, tried again), CommitConflict (the change
	// conflicts with what was committed since its snapshot: 40001) or
	// CommitGaveUp (races lost past the retry policy).
	ObserveCommit(event string)
}

// The events of CommitObserver.
const (
	CommitCommitted = "committed"
	CommitRetried   = "retried"
	CommitConflict  = "conflict"
	CommitGaveUp    = "gave_up"
)

type commitObserverKey struct{}

// WithCommitObserver returns ctx carrying o.
func WithCommitObserver(ctx context.Context, o CommitObserver) context.Context {
	return context.WithValue(ctx, commitObserverKey{}, o)
}

// observeCommit tells ctx's observer, if any, of event.
func observeCommit(ctx context.Context, event string) {
	if o, ok := ctx.Value(commitObserverKey{}).(CommitObserver); ok {
		o.ObserveCommit(event)
	}
}

// observeFailure tells ctx's observer of a commit that failed with err,
// when err says the change conflicted.
func observeFailure(ctx context.Context, err error) {
	if errors.Is(err, ErrValidation) {
		observeCommit(ctx, CommitConflict)
	}
}
