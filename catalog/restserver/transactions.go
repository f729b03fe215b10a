package restserver

import (
	"errors"
	"net/http"
	"slices"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

// commitTransaction commits changes to several tables atomically (POST
// /v1/transactions/commit): every change is decoded and checked before the
// catalog is asked, which then applies all of them or none, tables
// created by the transaction (assert-create) included.
func (s *server) commitTransaction(w http.ResponseWriter, r *http.Request) error {
	mc, ok := s.cat.(catalog.MultiTableCommitter)
	if !ok {
		return notImplemented("multi-table transactions are not implemented by this catalog: it commits one table at a time")
	}
	var req restmsg.CommitTransactionRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if len(req.TableChanges) == 0 {
		return badRequest("invalid request: table-changes is empty")
	}
	commits := make([]catalog.TableCommit, 0, len(req.TableChanges))
	for i := range req.TableChanges {
		change := &req.TableChanges[i]
		if change.Identifier == nil {
			return badRequest("invalid request: table-changes[%d] has no identifier", i)
		}
		id := change.Identifier.Identifier()
		if len(id.Namespace) == 0 || id.Name == "" {
			return badRequest("invalid request: table-changes[%d]: identifier needs a namespace and a name", i)
		}
		if slices.ContainsFunc(commits, func(c catalog.TableCommit) bool {
			return c.ID.Name == id.Name && slices.Equal(c.ID.Namespace, id.Namespace)
		}) {
			return badRequest("invalid request: table %s is changed twice in one transaction", qualified(id))
		}
		reqs, err := change.CatalogRequirements()
		if err != nil {
			return invalidBody(err)
		}
		updates, err := change.CatalogUpdates()
		if err != nil {
			return invalidBody(err)
		}
		commits = append(commits, catalog.TableCommit{ID: id, Requirements: reqs, Updates: updates})
	}
	// Tables created by the transaction (assert-create) are staged and
	// built first; they are made in the same commit as the others'
	// changes, and discarded when it fails.
	var staged []catalog.Identifier
	var stager catalog.TableStager
	defer func() {
		for _, id := range staged {
			s.discardStaged(r, stager, id)
		}
	}()
	for i, c := range commits {
		if !slices.ContainsFunc(c.Requirements, func(q catalog.Requirement) bool { _, ok := q.(catalog.AssertCreate); return ok }) {
			continue
		}
		st, meta, err := s.stageByCommit(r, c.ID, c.Requirements, c.Updates)
		if err != nil {
			return err
		}
		stager = st
		staged = append(staged, c.ID)
		commits[i] = catalog.TableCommit{ID: c.ID, Create: meta}
	}
	if err := mc.CommitTables(r.Context(), commits); err != nil {
		if errors.Is(err, catalog.ErrCommitStateUnknown) {
			staged = nil // the tables may exist now
		}
		return err
	}
	staged = nil
	w.WriteHeader(http.StatusNoContent)
	return nil
}
