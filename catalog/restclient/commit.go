package restclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/internal/pgerr"
)

const routeTransactions = "/v1/{prefix}/transactions/commit"

// CommitTable implements catalog.MutableCatalog. A lost race (409) is
// catalog.ErrCommitConflict. When the outcome is unknown (the server
// failed with 5xx or the connection broke after the request was sent) the
// commit is not resent blindly: the table is reloaded, and the commit
// succeeded when its snapshots are in the table; when they are not and its
// requirements still hold it is sent once more; otherwise the error wraps
// catalog.ErrCommitStateUnknown (SQLSTATE 40003).
func (c *Catalog) CommitTable(ctx context.Context, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*catalog.Table, error) {
	t, err := c.commitTable(ctx, id, reqs, updates)
	if err == nil {
		catalog.NoteCommit(ctx, id, t.MetadataLocation, t.Metadata, updates)
	}
	return t, err
}

func (c *Catalog) commitTable(ctx context.Context, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*catalog.Table, error) {
	what := "commit to table " + qualified(id)
	if err := c.supports(http.MethodPost, routeTable, what); err != nil {
		return nil, err
	}
	body, err := restmsg.NewCommitTableRequest(&id, reqs, updates)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %s: %w", c.name, what, err)
	}
	r := &request{method: http.MethodPost, path: tablePath(id), body: body, class: retryCommit, what: what}
	tc := catalog.TableCommit{ID: id, Requirements: reqs, Updates: updates}
	for resent := false; ; resent = true {
		resp, err := c.do(ctx, r)
		if err == nil {
			var out restmsg.CommitTableResponse
			if err := c.decodeBody(r, resp, &out); err != nil {
				return nil, c.unknown([]catalog.Identifier{id}, err)
			}
			if out.Metadata.TableMetadata == nil {
				return nil, c.unknown([]catalog.Identifier{id}, errors.New("the answer has no metadata"))
			}
			return c.committed(ctx, id, out.MetadataLocation, out.Metadata.TableMetadata, resp.header.Get("ETag"))
		}
		var uo *unknownOutcome
		if !errors.As(err, &uo) {
			if errors.Is(err, catalog.ErrCommitConflict) {
				c.forget(id)
			}
			return nil, err
		}
		c.log.Warn("REST catalog: the outcome of a commit is unknown; reloading the table", "catalog", c.name, "table", qualified(id), "err", err)
		t, state, why := c.resolve(ctx, tc)
		switch {
		case state == landed:
			return t, nil
		case state == notLanded && !resent:
			continue
		}
		return nil, c.unknown([]catalog.Identifier{id}, errors.Join(uo.err, why))
	}
}

// outcome is what a reload says of a commit whose answer was lost.
type outcome int

const (
	undetermined outcome = iota
	landed               // every snapshot it adds is in the table
	notLanded            // none is, and its requirements still hold
)

// resolve reloads a table after a commit whose answer was lost and says
// whether the commit is in it. why explains an undetermined outcome.
func (c *Catalog) resolve(ctx context.Context, tc catalog.TableCommit) (*catalog.Table, outcome, error) {
	c.forget(tc.ID)
	creates := slices.ContainsFunc(tc.Requirements, func(r catalog.Requirement) bool { _, ok := r.(catalog.AssertCreate); return ok })
	t, err := c.LoadTable(ctx, tc.ID)
	if err != nil {
		if creates && errors.Is(err, catalog.ErrNotFound) {
			return nil, notLanded, nil
		}
		return nil, undetermined, fmt.Errorf("reload: %w", err)
	}
	if creates {
		for _, u := range tc.Updates {
			if a, ok := u.(catalog.AssignUUID); ok && a.UUID == t.Metadata.TableUUID {
				return t, landed, nil
			}
		}
		return nil, undetermined, errors.New("the table exists, with another uuid")
	}
	var ids []int64
	for _, u := range tc.Updates {
		if a, ok := u.(catalog.AddSnapshot); ok && a.Snapshot != nil {
			ids = append(ids, a.Snapshot.SnapshotID)
		}
	}
	if len(ids) == 0 {
		// Nothing in the table tells whether the commit was applied.
		return nil, undetermined, errors.New("the commit adds no snapshot to look for")
	}
	found := 0
	for _, sid := range ids {
		if t.Metadata.SnapshotByID(sid) != nil {
			found++
		}
	}
	switch {
	case found == len(ids):
		return t, landed, nil
	case found > 0:
		return nil, undetermined, fmt.Errorf("%d of the commit's %d snapshots are in the table", found, len(ids))
	}
	if err := catalog.CheckRequirements(t.Metadata, tc.Requirements); err != nil {
		return nil, undetermined, fmt.Errorf("the commit's snapshots are not in the table, whose state has changed: %w", err)
	}
	return t, notLanded, nil
}

// unknown is the error for a commit of tables whose outcome is unknown.
func (c *Catalog) unknown(ids []catalog.Identifier, cause error) error {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = qualified(id)
	}
	list := strings.Join(names, ", ")
	// The cause's kind (a conflict in the reload, say) must not make the
	// error look like a lost race that may simply be retried.
	reason := strings.ReplaceAll(cause.Error(), "\n", "; ")
	return pgerr.Wrap(fmt.Errorf("catalog %s: commit to %s: %w: %s", c.name, list, catalog.ErrCommitStateUnknown, reason),
		pgerr.StatementCompletionUnknown,
		"catalog %s: the commit to table %s may or may not have been applied: the REST catalog at %s did not say (%s)", c.name, list, c.base, reason).
		WithHint("Check the table's current snapshot before running the statement again.")
}

// CommitTables implements catalog.MultiTableCommitter with the protocol's
// transactions/commit: all tables change or none does. An unknown outcome
// is resolved per table as CommitTable does.
//
// The protocol's answer carries no metadata: the audit log hears of each
// table's snapshot from its updates, without the metadata file.
func (c *Catalog) CommitTables(ctx context.Context, commits []catalog.TableCommit) error {
	if err := c.commitTables(ctx, commits); err != nil {
		return err
	}
	for _, tc := range commits {
		catalog.NoteCommit(ctx, tc.ID, "", tc.Create, tc.Updates)
	}
	return nil
}

func (c *Catalog) commitTables(ctx context.Context, commits []catalog.TableCommit) error {
	ids := make([]catalog.Identifier, len(commits))
	names := make([]string, len(commits))
	for i, tc := range commits {
		ids[i], names[i] = tc.ID, qualified(tc.ID)
	}
	what := "commit to tables " + strings.Join(names, ", ")
	if err := c.supports(http.MethodPost, routeTransactions, what); err != nil {
		return err
	}
	// A table created in the transaction is sent as the commit that
	// publishes it: it asserts the table does not exist, and its updates
	// build the metadata.
	commits = slices.Clone(commits)
	var created []string
	for i, tc := range commits {
		if tc.Create == nil {
			continue
		}
		if !c.isStaged(tc.ID) {
			return fmt.Errorf("catalog %s: %s: table %s is not staged: %w", c.name, what, qualified(tc.ID), catalog.ErrNotFound)
		}
		commits[i] = catalog.TableCommit{ID: tc.ID, Requirements: []catalog.Requirement{catalog.AssertCreate{}}, Updates: createUpdates(tc.Create)}
		created = append(created, qualified(tc.ID))
	}
	published := func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, key := range created {
			delete(c.staged, key)
		}
	}
	body := restmsg.CommitTransactionRequest{}
	for _, tc := range commits {
		req, err := restmsg.NewCommitTableRequest(&tc.ID, tc.Requirements, tc.Updates)
		if err != nil {
			return fmt.Errorf("catalog %s: %s: table %s: %w", c.name, what, qualified(tc.ID), err)
		}
		body.TableChanges = append(body.TableChanges, *req)
	}
	r := &request{method: http.MethodPost, path: "transactions/commit", body: body, class: retryCommit, what: what, optional: true}
	forgetAll := func() {
		for _, id := range ids {
			c.forget(id)
		}
	}
	for resent := false; ; resent = true {
		_, err := c.do(ctx, r)
		if err == nil {
			forgetAll()
			published()
			return nil
		}
		var uo *unknownOutcome
		if !errors.As(err, &uo) {
			if errors.Is(err, catalog.ErrCommitConflict) {
				forgetAll()
			}
			return err
		}
		c.log.Warn("REST catalog: the outcome of a multi-table commit is unknown; reloading the tables", "catalog", c.name, "tables", names, "err", err)
		counts := map[outcome]int{}
		var whys []error
		for _, tc := range commits {
			_, state, why := c.resolve(ctx, tc)
			counts[state]++
			if why != nil {
				whys = append(whys, fmt.Errorf("%s: %w", qualified(tc.ID), why))
			}
		}
		switch {
		case counts[landed] == len(commits):
			forgetAll()
			published()
			return nil
		case counts[notLanded] == len(commits) && !resent:
			continue
		}
		published() // the tables may exist now: their staging ends
		return c.unknown(ids, errors.Join(append([]error{uo.err}, whys...)...))
	}
}
