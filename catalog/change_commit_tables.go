package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// TableChange is one table's part of CommitChanges.
type TableChange struct {
	ID Identifier
	// Change, when set, is validated and staged against the table as it is
	// at each attempt, as CommitChange does for one table.
	Change *Change
	// First, when set, is committed as it is at the first attempt (a
	// change staged earlier, whose requirements hold when nothing was
	// committed since). With Change nil it is committed as it is at every
	// attempt, and a failed requirement ends the commit.
	First *TableCommit
}

// CommitChanges commits changes to several tables in one atomic commit of
// cat: every table gets its snapshot or none does. A lost race reloads the
// tables, re-validates the changes against what was committed since their
// bases and retries per the first table's commit.retry.* properties. The
// metadata files of failed attempts are removed; the changes' own data and
// delete files are the caller's. An outcome the catalog could not report
// (ErrCommitStateUnknown) is returned as it is: nothing is retried then.
func CommitChanges(ctx context.Context, cat MultiTableCommitter, parts []TableChange) error {
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = qualified(p.ID.Namespace, p.ID.Name)
	}
	what := "commit to " + strings.Join(names, ", ")
	policy := retryPolicyOf(nil)
	start := time.Now()
	for attempt := 1; ; attempt++ {
		commits := make([]TableCommit, len(parts))
		var staged []*StagedChange
		discard := func() {
			for _, st := range staged {
				st.discard(context.WithoutCancel(ctx))
			}
		}
		for i, p := range parts {
			if p.First != nil && (attempt == 1 || p.Change == nil) {
				commits[i] = *p.First
				if attempt > 1 && p.First.Create == nil {
					// A fixed commit whose requirements fail now
					// cannot succeed by retrying.
					tbl, err := cat.LoadTable(ctx, p.ID)
					if err == nil {
						err = CheckRequirements(tbl.Metadata, p.First.Requirements)
					}
					if err != nil {
						discard()
						return fmt.Errorf("%s: %s: %w", what, names[i], err)
					}
				}
				continue
			}
			tbl, err := cat.LoadTable(ctx, p.ID)
			if err != nil {
				discard()
				return fmt.Errorf("%s: %w", what, err)
			}
			if i == 0 && attempt == 1 {
				policy = retryPolicyOf(tbl.Metadata.Properties)
			}
			st, err := stageTableChange(ctx, cat, tbl, p.Change, attempt)
			if err != nil {
				observeFailure(ctx, err)
				discard()
				return fmt.Errorf("%s: %s: %w", what, names[i], err)
			}
			staged = append(staged, st)
			commits[i] = TableCommit{ID: p.ID, Requirements: st.Requirements, Updates: st.Updates}
		}
		err := cat.CommitTables(ctx, commits)
		if err == nil {
			observeCommit(ctx, CommitCommitted)
			return nil
		}
		if errors.Is(err, ErrCommitStateUnknown) {
			return fmt.Errorf("%s: %w", what, err)
		}
		discard()
		if !errors.Is(err, ErrCommitConflict) || errors.Is(err, ErrValidation) {
			observeFailure(ctx, err)
			return fmt.Errorf("%s: %w", what, err)
		}
		if attempt > policy.retries {
			observeCommit(ctx, CommitGaveUp)
			return fmt.Errorf("%s: gave up after %d attempts: %w", what, attempt, err)
		}
		wait := policy.wait(attempt)
		if time.Since(start)+wait > policy.total {
			observeCommit(ctx, CommitGaveUp)
			return fmt.Errorf("%s: commit retries timed out: %w", what, err)
		}
		observeCommit(ctx, CommitRetried)
		slog.Debug("multi-table commit lost a race; retrying", "tables", names, "attempt", attempt, "wait", wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// AsMultiTableCommitter finds a MultiTableCommitter in cat or the catalogs
// it wraps.
func AsMultiTableCommitter(cat Catalog) (MultiTableCommitter, bool) {
	for range 10 {
		switch c := cat.(type) {
		case MultiTableCommitter:
			return c, true
		case Wrapper:
			cat = c.Unwrap()
			continue
		}
		break
	}
	return nil, false
}
