package restserver

import (
	"net/http"
	"slices"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

// commitTransaction commits changes to several tables atomically (POST
// /v1/transactions/commit): every change is decoded and checked before the
// catalog is asked, which then applies all of them or none. Tables cannot
// be created in a transaction (an assert-create is refused): the catalog
// publishes a staged table by itself.
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
		if slices.ContainsFunc(reqs, func(q catalog.Requirement) bool { _, ok := q.(catalog.AssertCreate); return ok }) {
			return notImplemented("create table %s in a multi-table transaction: commit its creation by itself", qualified(id))
		}
		updates, err := change.CatalogUpdates()
		if err != nil {
			return invalidBody(err)
		}
		commits = append(commits, catalog.TableCommit{ID: id, Requirements: reqs, Updates: updates})
	}
	if err := mc.CommitTables(r.Context(), commits); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
