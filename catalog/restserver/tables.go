package restserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

// pathIdent is the {namespace} and the named {table} or {view} of the route.
func pathIdent(r *http.Request, name string) (catalog.Identifier, error) {
	ns, err := pathNamespace(r)
	if err != nil {
		return catalog.Identifier{}, err
	}
	n := r.PathValue(name)
	if n == "" {
		return catalog.Identifier{}, badRequest("invalid %s name in the path: empty", name)
	}
	return catalog.Identifier{Namespace: ns, Name: n}, nil
}

func qualified(id catalog.Identifier) string {
	return strings.Join(append(slices.Clone(id.Namespace), id.Name), ".")
}

// listIdents answers a page of the identifiers of a namespace's tables or
// views.
func (s *server) listIdents(w http.ResponseWriter, r *http.Request,
	list func(r *http.Request, ns []string) ([]catalog.Identifier, error)) error {
	ns, err := pathNamespace(r)
	if err != nil {
		return err
	}
	if err := s.requireNamespace(r, ns); err != nil {
		return err
	}
	ids, err := list(r, ns)
	if err != nil {
		return as(restmsg.NoSuchNamespace, err)
	}
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		names = append(names, id.Name)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	pg, next, err := page(r, names)
	if err != nil {
		return err
	}
	resp := restmsg.ListTablesResponse{Identifiers: []restmsg.TableIdentifier{}, NextPageToken: next}
	for _, n := range pg {
		resp.Identifiers = append(resp.Identifiers, restmsg.NewTableIdentifier(catalog.Identifier{Namespace: ns, Name: n}))
	}
	return s.writeJSON(w, r, resp)
}

func (s *server) listTables(w http.ResponseWriter, r *http.Request) error {
	return s.listIdents(w, r, func(r *http.Request, ns []string) ([]catalog.Identifier, error) {
		return s.cat.ListTables(r.Context(), ns)
	})
}

// etag is the entity tag of a table's state: its metadata file names it.
func etag(metadataLocation string) string {
	sum := sha256.Sum256([]byte(metadataLocation))
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// matchesETag reports whether an If-None-Match header names tag.
func matchesETag(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		t = strings.TrimPrefix(t, "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}

// writeTable answers a loaded (or created, or staged) table.
func (s *server) writeTable(w http.ResponseWriter, r *http.Request, t *catalog.Table) error {
	return s.writeTableTagged(w, r, t, etag(t.MetadataLocation))
}

// writeTableTagged answers a table with the entity tag tag.
func (s *server) writeTableTagged(w http.ResponseWriter, r *http.Request, t *catalog.Table, tag string) error {
	if t.MetadataLocation != "" {
		w.Header().Set("ETag", tag)
	}
	return s.writeJSON(w, r, restmsg.LoadTableResult{
		MetadataLocation: t.MetadataLocation,
		Metadata:         restmsg.TableMetadata{TableMetadata: t.Metadata},
		Config:           s.vended(r),
	})
}

// accessDelegation is the header a client asks for vended credentials with.
const accessDelegation = "X-Iceberg-Access-Delegation"

// vended is the table configuration of a load or create response: the
// catalog's storage credentials when the server vends them and the client
// asked (X-Iceberg-Access-Delegation lists vended-credentials), else
// nothing. No other response carries a credential.
func (s *server) vended(r *http.Request) map[string]string {
	out := map[string]string{}
	if !s.opts.VendCredentials || len(s.creds) == 0 {
		return out
	}
	asked := false
	for _, h := range r.Header.Values(accessDelegation) {
		for _, mode := range strings.Split(h, ",") {
			if strings.EqualFold(strings.TrimSpace(mode), "vended-credentials") {
				asked = true
			}
		}
	}
	if asked {
		maps.Copy(out, s.creds)
	}
	return out
}

func (s *server) loadTable(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIdent(r, "table")
	if err != nil {
		return err
	}
	mode := r.URL.Query().Get("snapshots")
	if mode != "" && mode != "all" && mode != "refs" {
		return badRequest("invalid snapshots mode %q: it is all or refs", mode)
	}
	t, err := s.cat.LoadTable(r.Context(), id)
	if err != nil {
		return err
	}
	tag := etag(t.MetadataLocation)
	if mode == "refs" {
		// The two modes answer different bodies: different tags.
		tag = etag(t.MetadataLocation + "?snapshots=refs")
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" && matchesETag(inm, tag) {
		w.Header().Set("ETag", tag)
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	if mode == "refs" {
		t = onlyReferencedSnapshots(t)
	}
	return s.writeTableTagged(w, r, t, tag)
}

// onlyReferencedSnapshots is t with only the snapshots a branch or tag
// points at (snapshots=refs): a client that needs the others loads the
// table again with snapshots=all.
func onlyReferencedSnapshots(t *catalog.Table) *catalog.Table {
	heads := map[int64]bool{}
	for _, ref := range t.Metadata.Refs {
		heads[ref.SnapshotID] = true
	}
	m := *t.Metadata
	m.Snapshots = nil
	for _, snap := range t.Metadata.Snapshots {
		if heads[snap.SnapshotID] {
			m.Snapshots = append(m.Snapshots, snap)
		}
	}
	out := *t
	out.Metadata = &m
	return &out
}

func (s *server) tableExists(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIdent(r, "table")
	if err != nil {
		return err
	}
	if _, err := s.cat.LoadTable(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// createTable creates a table, or with stage-create answers the metadata
// the table would have without creating it: the name is not reserved, and
// a later commit with assert-create creates the table from its updates
// (createByCommit).
func (s *server) createTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := pathNamespace(r)
	if err != nil {
		return err
	}
	var req restmsg.CreateTableRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	spec, err := req.TableSpec()
	if err != nil {
		return invalidBody(err)
	}
	if err := s.requireNamespace(r, ns); err != nil {
		return err
	}
	id := catalog.Identifier{Namespace: ns, Name: req.Name}
	if !req.StageCreate {
		t, err := s.cat.CreateTable(r.Context(), id, spec)
		if err != nil {
			return err
		}
		return s.writeTable(w, r, t)
	}
	stager, ok := s.cat.(catalog.TableStager)
	if !ok {
		return notImplemented("create table %s: this catalog cannot stage tables (stage-create)", qualified(id))
	}
	if _, err := s.cat.LoadTable(r.Context(), id); err == nil {
		return fmt.Errorf("create table %s: %w", qualified(id), catalog.ErrAlreadyExists)
	}
	// Staging and discarding at once gives the metadata (location, uuid,
	// fresh ids) the catalog would give the table, and checks the name is
	// free now; the commit that creates it checks again.
	t, err := stager.StageTable(r.Context(), id, spec)
	if err != nil {
		return err
	}
	if err := stager.DiscardTable(r.Context(), id); err != nil {
		return fmt.Errorf("create table %s: discard the staged table: %w", qualified(id), err)
	}
	t.MetadataLocation = ""
	return s.writeTable(w, r, t)
}

func (s *server) commitTable(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIdent(r, "table")
	if err != nil {
		return err
	}
	var req restmsg.CommitTableRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if req.Identifier != nil {
		if got := req.Identifier.Identifier(); !slices.Equal(got.Namespace, id.Namespace) || got.Name != id.Name {
			return badRequest("invalid request: identifier %s does not name the table of the path, %s", qualified(got), qualified(id))
		}
	}
	reqs, err := req.CatalogRequirements()
	if err != nil {
		return invalidBody(err)
	}
	updates, err := req.CatalogUpdates()
	if err != nil {
		return invalidBody(err)
	}
	var t *catalog.Table
	if slices.ContainsFunc(reqs, func(q catalog.Requirement) bool { _, ok := q.(catalog.AssertCreate); return ok }) {
		t, err = s.createByCommit(r, id, reqs, updates)
	} else {
		t, err = s.cat.CommitTable(r.Context(), id, reqs, updates)
	}
	if err != nil {
		return err
	}
	w.Header().Set("ETag", etag(t.MetadataLocation))
	return s.writeJSON(w, r, restmsg.CommitTableResponse{
		MetadataLocation: t.MetadataLocation,
		Metadata:         restmsg.TableMetadata{TableMetadata: t.Metadata},
	})
}

// createByCommit creates a table from a commit that asserts it does not
// exist (the end of a staged create): the updates build its first
// metadata, which is published under the name in one step.
func (s *server) createByCommit(r *http.Request, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*catalog.Table, error) {
	stager, meta, err := s.stageByCommit(r, id, reqs, updates)
	if err != nil {
		return nil, err
	}
	t, err := stager.PublishTable(r.Context(), id, meta)
	if err != nil {
		s.discardStaged(r, stager, id)
		return nil, fmt.Errorf("create table %s: %w", qualified(id), err)
	}
	return t, nil
}

// discardStaged discards a table stageByCommit staged whose creation
// failed.
func (s *server) discardStaged(r *http.Request, stager catalog.TableStager, id catalog.Identifier) {
	if err := stager.DiscardTable(context.WithoutCancel(r.Context()), id); err != nil {
		s.log.Warn("REST catalog: discard a table whose create failed", "table", qualified(id), "err", err)
	}
}

// stageByCommit stages table id for a commit that asserts it does not
// exist and builds its first metadata from the commit's updates. The
// caller publishes the table or discards it (discardStaged).
func (s *server) stageByCommit(r *http.Request, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (catalog.TableStager, *catalog.TableMetadata, error) {
	name := qualified(id)
	stager, ok := s.cat.(catalog.TableStager)
	if !ok {
		return nil, nil, notImplemented("create table %s by a commit (assert-create): this catalog cannot stage tables", name)
	}
	for _, q := range reqs {
		if err := q.Validate(nil); err != nil {
			return nil, nil, fmt.Errorf("create table %s: %w", name, err)
		}
	}
	if _, err := s.cat.LoadTable(r.Context(), id); err == nil {
		return nil, nil, fmt.Errorf("create table %s: assert-create: table already exists: %w", name, catalog.ErrCommitConflict)
	}
	if err := s.requireNamespace(r, id.Namespace); err != nil {
		return nil, nil, err
	}
	fv := catalog.DefaultFormatVersion
	var spec catalog.TableSpec
	hasUUID := false
	for _, u := range updates {
		switch u := u.(type) {
		case catalog.UpgradeFormatVersion:
			fv = u.FormatVersion
		case catalog.AddSchema:
			if spec.Schema == nil {
				spec.Schema = u.Schema
			}
		case catalog.SetLocation:
			spec.Location = u.Location
		case catalog.AssignUUID:
			hasUUID = true
		}
	}
	if spec.Schema == nil {
		return nil, nil, badRequest("create table %s by a commit: the updates add no schema", name)
	}
	b, err := catalog.NewMetadataBuilder(fv)
	if err != nil {
		return nil, nil, fmt.Errorf("create table %s: %w", name, err)
	}
	// Validate the updates before the name is reserved.
	probe := []catalog.Update{catalog.SetLocation{Location: "file:/probe"}}
	if !hasUUID {
		probe = append(probe, catalog.AssignUUID{UUID: "00000000-0000-0000-0000-000000000000"})
	}
	if err := b.Apply(append(probe, updates...)...); err != nil {
		return nil, nil, fmt.Errorf("create table %s: %w", name, err)
	}
	if _, err := b.Build(); err != nil {
		return nil, nil, fmt.Errorf("create table %s: %w", name, err)
	}
	staged, err := stager.StageTable(r.Context(), id, spec)
	if err != nil {
		return nil, nil, err
	}
	build := func() (*catalog.TableMetadata, error) {
		b, err := catalog.NewMetadataBuilder(fv)
		if err != nil {
			return nil, err
		}
		first := []catalog.Update{catalog.SetLocation{Location: staged.Metadata.Location}}
		if !hasUUID {
			first = append(first, catalog.AssignUUID{UUID: staged.Metadata.TableUUID})
		}
		if err := b.Apply(append(first, updates...)...); err != nil {
			return nil, err
		}
		return b.Build()
	}
	meta, err := build()
	if err != nil {
		s.discardStaged(r, stager, id)
		return nil, nil, fmt.Errorf("create table %s: %w", name, err)
	}
	return stager, meta, nil
}

func (s *server) dropTable(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIdent(r, "table")
	if err != nil {
		return err
	}
	purge := false
	if v := r.URL.Query().Get("purgeRequested"); v != "" {
		purge, err = strconv.ParseBool(v)
		if err != nil {
			return badRequest("invalid purgeRequested %q: want true or false", v)
		}
	}
	if err := s.cat.DropTable(r.Context(), id, purge); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// checkIdent refuses a request identifier without a name or namespace.
func checkIdent(field string, t restmsg.TableIdentifier) error {
	if t.Name == "" {
		return badRequest("invalid request: %s has no name", field)
	}
	if len(t.Namespace) == 0 || slices.Contains(t.Namespace, "") {
		return badRequest("invalid request: %s has no namespace or an empty level", field)
	}
	return nil
}

func (s *server) renameTable(w http.ResponseWriter, r *http.Request) error {
	var req restmsg.RenameTableRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := checkIdent("source", req.Source); err != nil {
		return err
	}
	if err := checkIdent("destination", req.Destination); err != nil {
		return err
	}
	from, to := req.Source.Identifier(), req.Destination.Identifier()
	if _, err := s.cat.LoadTable(r.Context(), from); err != nil {
		return err
	}
	if err := s.requireNamespace(r, to.Namespace); err != nil {
		return err
	}
	if err := s.cat.RenameTable(r.Context(), from, to); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *server) registerTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := pathNamespace(r)
	if err != nil {
		return err
	}
	var req restmsg.RegisterTableRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	switch {
	case req.Name == "":
		return badRequest(`invalid request: field "name" is missing`)
	case req.MetadataLocation == "":
		return badRequest(`invalid request: field "metadata-location" is missing`)
	case req.Overwrite:
		return notImplemented("register table %s with overwrite: not implemented by this server; drop the table first", req.Name)
	}
	if err := s.requireNamespace(r, ns); err != nil {
		return err
	}
	t, err := s.cat.RegisterTable(r.Context(), catalog.Identifier{Namespace: ns, Name: req.Name}, req.MetadataLocation)
	if err != nil {
		return err
	}
	return s.writeTable(w, r, t)
}

// reportMetrics accepts a client's scan or commit report; the server
// keeps none.
func (s *server) reportMetrics(w http.ResponseWriter, r *http.Request) error {
	if _, err := pathIdent(r, "table"); err != nil {
		return err
	}
	var report json.RawMessage
	if err := decode(r, &report); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
