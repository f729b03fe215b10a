package restserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

func (s *server) getConfig(w http.ResponseWriter, r *http.Request) error {
	return s.writeJSON(w, r, restmsg.CatalogConfig{
		Defaults:  map[string]string{},
		Overrides: map[string]string{},
		Endpoints: slices.Clone(s.routes),
	})
}

// pathNamespace is the {namespace} of the route: levels joined by the unit
// separator (%1F in the URL).
func pathNamespace(r *http.Request) ([]string, error) {
	ns, err := restmsg.SplitNamespace(r.PathValue("namespace"))
	if err != nil {
		return nil, badRequest("invalid namespace in the path: %v", err)
	}
	return ns, nil
}

// namespaces lists every namespace of the catalog.
func (s *server) namespaces(r *http.Request) ([][]string, error) {
	all, err := s.cat.ListNamespaces(r.Context())
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", err)
	}
	return all, nil
}

// requireNamespace fails with NoSuchNamespace unless ns exists.
func (s *server) requireNamespace(r *http.Request, ns []string) error {
	all, err := s.namespaces(r)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(all, func(n []string) bool { return slices.Equal(n, ns) }) {
		return as(restmsg.NoSuchNamespace, fmt.Errorf("namespace %s does not exist: %w", strings.Join(ns, "."), catalog.ErrNotFound))
	}
	return nil
}

// page cuts one page out of keys (sorted, distinct): the page token is
// the last key of the previous page, so a page stays right when entries
// are added or removed between requests. No pageSize: everything.
func page(r *http.Request, keys []string) (out []string, next *string, err error) {
	q := r.URL.Query()
	token := q.Get("pageToken")
	if token == "" {
		token = q.Get("page-token")
	}
	start := 0
	if token != "" {
		after, err := base64.RawURLEncoding.DecodeString(token)
		if err != nil {
			return nil, nil, badRequest("invalid pageToken %q", token)
		}
		start, _ = slices.BinarySearch(keys, string(after))
		if start < len(keys) && keys[start] == string(after) {
			start++
		}
	}
	size := len(keys)
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, nil, badRequest("invalid pageSize %q: want a positive integer", v)
		}
		size = n
	}
	end := min(start+size, len(keys))
	out = keys[start:end]
	if end < len(keys) && len(out) > 0 {
		t := base64.RawURLEncoding.EncodeToString([]byte(out[len(out)-1]))
		next = &t
	}
	return out, next, nil
}

func (s *server) listNamespaces(w http.ResponseWriter, r *http.Request) error {
	var parent []string
	if p := r.URL.Query().Get("parent"); p != "" {
		ns, err := restmsg.SplitNamespace(p)
		if err != nil {
			return badRequest("invalid parent namespace: %v", err)
		}
		parent = ns
	}
	all, err := s.namespaces(r)
	if err != nil {
		return err
	}
	if parent != nil && !slices.ContainsFunc(all, func(n []string) bool { return slices.Equal(n, parent) }) {
		return as(restmsg.NoSuchNamespace, fmt.Errorf("parent namespace %s does not exist: %w", strings.Join(parent, "."), catalog.ErrNotFound))
	}
	var keys []string
	for _, n := range all {
		if len(n) == len(parent)+1 && slices.Equal(n[:len(parent)], parent) {
			keys = append(keys, restmsg.JoinNamespace(n))
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	pg, next, err := page(r, keys)
	if err != nil {
		return err
	}
	resp := restmsg.ListNamespacesResponse{Namespaces: [][]string{}, NextPageToken: next}
	for _, k := range pg {
		resp.Namespaces = append(resp.Namespaces, strings.Split(k, restmsg.NamespaceSeparator))
	}
	return s.writeJSON(w, r, resp)
}

func (s *server) createNamespace(w http.ResponseWriter, r *http.Request) error {
	var req restmsg.CreateNamespaceRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if len(req.Namespace) == 0 {
		return badRequest(`invalid request: field "namespace" is missing or empty`)
	}
	for i, l := range req.Namespace {
		if l == "" {
			return badRequest("invalid request: level %d of the namespace is empty", i+1)
		}
		if strings.Contains(l, restmsg.NamespaceSeparator) {
			return badRequest("invalid request: level %d of the namespace holds the unit separator", i+1)
		}
	}
	if err := s.cat.CreateNamespace(r.Context(), req.Namespace, req.Properties); err != nil {
		return as(restmsg.NoSuchNamespace, err)
	}
	return s.writeJSON(w, r, restmsg.CreateNamespaceResponse{Namespace: req.Namespace, Properties: req.Properties})
}

// NamespaceProperties is a catalog that keeps namespace properties a
// client can read and change (catalog.SQL). With other catalogs a
// namespace has no properties and updating them is 406.
type NamespaceProperties interface {
	NamespaceProperties(ctx context.Context, ns []string) (map[string]string, error)
	// UpdateNamespaceProperties removes and sets properties atomically;
	// removed are the removals the namespace had, missing the others.
	UpdateNamespaceProperties(ctx context.Context, ns []string, removals []string, updates map[string]string) (removed, missing []string, err error)
}

var _ NamespaceProperties = (*catalog.SQL)(nil)

// loadNamespace answers the namespace and, when the catalog keeps them,
// its properties.
func (s *server) loadNamespace(w http.ResponseWriter, r *http.Request) error {
	ns, err := pathNamespace(r)
	if err != nil {
		return err
	}
	if err := s.requireNamespace(r, ns); err != nil {
		return err
	}
	props := map[string]string{}
	if np, ok := s.cat.(NamespaceProperties); ok {
		if props, err = np.NamespaceProperties(r.Context(), ns); err != nil {
			return as(restmsg.NoSuchNamespace, err)
		}
	}
	return s.writeJSON(w, r, restmsg.GetNamespaceResponse{Namespace: ns, Properties: props})
}

func (s *server) namespaceExists(w http.ResponseWriter, r *http.Request) error {
	ns, err := pathNamespace(r)
	if err != nil {
		return err
	}
	if err := s.requireNamespace(r, ns); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *server) dropNamespace(w http.ResponseWriter, r *http.Request) error {
	ns, err := pathNamespace(r)
	if err != nil {
		return err
	}
	if err := s.cat.DropNamespace(r.Context(), ns); err != nil {
		return as(restmsg.NoSuchNamespace, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// updateNamespaceProperties changes the properties of a namespace when
// the catalog keeps them; otherwise a valid request is 406, as the
// protocol answers a server without namespace properties.
func (s *server) updateNamespaceProperties(w http.ResponseWriter, r *http.Request) error {
	ns, err := pathNamespace(r)
	if err != nil {
		return err
	}
	var req restmsg.UpdateNamespacePropertiesRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := req.Check(); err != nil {
		return invalidBody(err)
	}
	if err := s.requireNamespace(r, ns); err != nil {
		return err
	}
	if np, ok := s.cat.(NamespaceProperties); ok {
		removed, missing, err := np.UpdateNamespaceProperties(r.Context(), ns, req.Removals, req.Updates)
		if err != nil {
			return as(restmsg.NoSuchNamespace, err)
		}
		resp := restmsg.UpdateNamespacePropertiesResponse{
			Updated: slices.Sorted(maps.Keys(req.Updates)), Removed: removed, Missing: missing}
		if resp.Updated == nil {
			resp.Updated = []string{}
		}
		if resp.Removed == nil {
			resp.Removed = []string{}
		}
		return s.writeJSON(w, r, resp)
	}
	return &requestError{status: http.StatusNotAcceptable, kind: restmsg.UnsupportedOperation,
		msg: fmt.Sprintf("namespace %s: this catalog does not keep namespace properties, so they cannot be updated", strings.Join(ns, "."))}
}
