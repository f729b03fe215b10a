package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// commitChange is CommitChange.
func commitChange(ctx context.Context, cat MutableCatalog, id Identifier, change *Change) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	release, err := lockTableCommits(ctx, cat, id)
	if err != nil {
		return nil, err
	}
	defer func() { release() }()
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	policy := retryPolicyOf(tbl.Metadata.Properties)
	start := time.Now()
	for attempt := 1; ; attempt++ {
		st, err := stageTableChange(ctx, cat, tbl, change, attempt)
		if err != nil {
			observeFailure(ctx, err)
			return nil, fmt.Errorf("commit to %s: %w", name, err)
		}
		committed, err := cat.CommitTable(ctx, id, st.Requirements, st.Updates)
		if err == nil {
			observeCommit(ctx, CommitCommitted)
			return committed, nil
		}
		if errors.Is(err, ErrCommitStateUnknown) {
			// The metadata may name the staged files now: they stay.
			return nil, fmt.Errorf("commit to %s: %w", name, err)
		}
		st.discard(context.WithoutCancel(ctx))
		if !errors.Is(err, ErrCommitConflict) || errors.Is(err, ErrValidation) {
			observeFailure(ctx, err)
			return nil, fmt.Errorf("commit to %s: %w", name, err)
		}
		if attempt > policy.retries {
			observeCommit(ctx, CommitGaveUp)
			return nil, fmt.Errorf("commit to %s: gave up after %d attempts: %w", name, attempt, err)
		}
		wait := policy.wait(attempt)
		if time.Since(start)+wait > policy.total {
			observeCommit(ctx, CommitGaveUp)
			return nil, fmt.Errorf("commit to %s: commit retries timed out: %w", name, err)
		}
		observeCommit(ctx, CommitRetried)
		slog.Debug("commit lost a race; retrying", "table", name, "attempt", attempt, "wait", wait)
		release() // the writers of this process may go first meanwhile
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		r, err := lockTableCommits(ctx, cat, id)
		if err != nil {
			return nil, err
		}
		release = r
		if tbl, err = cat.LoadTable(ctx, id); err != nil {
			return nil, err
		}
	}
}

// stageTableChange validates change against tbl and stages it: one
// attempt of CommitChange and CommitChanges before they commit.
func stageTableChange(ctx context.Context, cat MutableCatalog, tbl *Table, change *Change, attempt int) (*StagedChange, error) {
	if err := checkChangeFiles(change, tbl.Metadata.FormatVersion); err != nil {
		return nil, err
	}
	if err := validateChange(ctx, tbl, change); err != nil {
		return nil, err
	}
	out, err := cat.NewOutput(tbl)
	if err != nil {
		return nil, err
	}
	return stageChange(ctx, out, tbl, change, attempt)
}
