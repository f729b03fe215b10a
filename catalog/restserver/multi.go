package restserver

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

// Named is a catalog served under its name.
type Named struct {
	// Name is the catalog's prefix in the routes (/v1/<name>/...) and the
	// warehouse clients ask for (GET /v1/config?warehouse=<name>).
	Name    string
	Catalog catalog.MutableCatalog
	// Credentials are the storage properties (s3.endpoint, s3.region,
	// s3.access-key-id, ...) given with a loaded or created table to a
	// client that asks for vended credentials, when
	// Options.VendCredentials is set. Empty: nothing to vend (a local
	// warehouse).
	Credentials map[string]string
}

// reservedNames are the first segments of the protocol's prefix-less
// routes: a catalog of such a name would make /v1/<name>/... ambiguous.
var reservedNames = []string{"config", "namespaces", "tables", "views", "transactions", "oauth"}

// multi serves several catalogs on one handler: each under its prefix,
// and the first also prefix-less.
type multi struct {
	def    *server // the first catalog: prefix-less routes and config without warehouse
	byName map[string]*server
	names  []string
}

// NewMulti returns the handler serving the REST catalog protocol over
// several catalogs. GET /v1/config?warehouse=<name> answers the override
// prefix=<name>, and the catalog's routes are /v1/<name>/...; without a
// warehouse the first catalog answers, and also serves the prefix-less
// routes, as New does. An unknown warehouse is 400 (the protocol's
// configuration route has no 404). Authentication (opts.Tokens,
// opts.Authorize) runs once, before routing; the token endpoint is
// /v1/oauth/tokens for every catalog.
func NewMulti(cats []Named, opts Options) (http.Handler, error) {
	if len(cats) == 0 {
		return nil, fmt.Errorf("REST catalog: no catalog to serve")
	}
	m := &multi{byName: make(map[string]*server, len(cats))}
	for _, c := range cats {
		switch {
		case c.Name == "" || strings.Contains(c.Name, "/"):
			return nil, fmt.Errorf("REST catalog: catalog name %q cannot be a route prefix", c.Name)
		case slices.Contains(reservedNames, c.Name):
			return nil, fmt.Errorf("REST catalog: catalog name %q is a route of the protocol (%s) and cannot be a prefix; rename the catalog",
				c.Name, strings.Join(reservedNames, ", "))
		case m.byName[c.Name] != nil:
			return nil, fmt.Errorf("REST catalog: catalog %q is given twice", c.Name)
		}
		s := newServer(c.Catalog, opts)
		s.creds = c.Credentials
		m.byName[c.Name] = s
		m.names = append(m.names, c.Name)
		if m.def == nil {
			m.def = s
		}
	}
	return m, nil
}

func (m *multi) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if m.def.opts.Tokens != nil && r.URL.Path == TokenPath {
		m.def.opts.Tokens.serveToken(w, r)
		return
	}
	if !m.def.authorized(w, r) {
		return
	}
	if r.URL.Path == "/v1/config" && r.Method == http.MethodGet {
		m.config(w, r)
		return
	}
	if s, r2, ok := m.prefixed(r); ok {
		s.route(w, r2)
		return
	}
	m.def.route(w, r)
}

// config answers GET /v1/config: the default catalog's without a
// warehouse, the named catalog's with its prefix otherwise.
func (m *multi) config(w http.ResponseWriter, r *http.Request) {
	wh := r.URL.Query().Get("warehouse")
	if wh == "" {
		if err := m.def.getConfig(w, r); err != nil {
			m.def.fail(w, r, err)
		}
		return
	}
	s := m.byName[wh]
	if s == nil {
		m.def.writeError(w, r, http.StatusBadRequest, restmsg.BadRequest,
			fmt.Sprintf("no warehouse %q is served here: the warehouse is the name of a catalog, one of %s", wh, strings.Join(m.names, ", ")))
		return
	}
	if err := s.writeJSON(w, r, restmsg.CatalogConfig{
		Defaults:  map[string]string{},
		Overrides: map[string]string{"prefix": wh},
		Endpoints: slices.Clone(s.routes),
	}); err != nil {
		s.fail(w, r, err)
	}
}

// prefixed finds the catalog a /v1/<name>/... path names and returns the
// request rewritten to the prefix-less route.
func (m *multi) prefixed(r *http.Request) (*server, *http.Request, bool) {
	esc := r.URL.EscapedPath()
	rest, ok := strings.CutPrefix(esc, "/v1/")
	if !ok {
		return nil, nil, false
	}
	seg, tail, ok := strings.Cut(rest, "/")
	if !ok {
		return nil, nil, false
	}
	name, err := url.PathUnescape(seg)
	if err != nil {
		return nil, nil, false
	}
	s := m.byName[name]
	if s == nil {
		return nil, nil, false
	}
	newEsc := "/v1/" + tail
	path, err := url.PathUnescape(newEsc)
	if err != nil {
		return nil, nil, false
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = path, newEsc
	if newEsc == path {
		r2.URL.RawPath = ""
	}
	return s, r2, true
}
