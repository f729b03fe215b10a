package restserver

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

func serveMulti(t *testing.T, cats []Named, opts Options) *httptest.Server {
	t.Helper()
	h, err := NewMulti(cats, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func filesystem(t *testing.T, name string) catalog.MutableCatalog {
	t.Helper()
	c, err := catalog.NewFilesystem(name, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func namespacesOf(t *testing.T, srv *httptest.Server, path string) [][]string {
	t.Helper()
	r := call(t, srv, "GET", path, nil)
	if r.status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	return decodeBody[restmsg.ListNamespacesResponse](t, r).Namespaces
}

func TestMultiConfig(t *testing.T) {
	srv := serveMulti(t, []Named{{Name: "lake", Catalog: filesystem(t, "lake")}, {Name: "sea side", Catalog: filesystem(t, "sea side")}}, Options{})
	tests := []struct {
		name, query string
		status      int
		prefix      string // the prefix override; "" for none
	}{
		{"no warehouse: the first catalog, prefix-less", "", 200, ""},
		{"the first catalog by name", "?warehouse=lake", 200, "lake"},
		{"another catalog", "?warehouse=sea+side", 200, "sea side"},
		{"unknown warehouse", "?warehouse=ocean", 400, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, srv, "GET", "/v1/config"+tc.query, nil)
			if tc.status != 200 {
				checkError(t, r, tc.status, restmsg.BadRequest)
				if !strings.Contains(string(r.body), "lake, sea side") {
					t.Errorf("the error does not name the served catalogs: %s", r.body)
				}
				return
			}
			if r.status != 200 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			c := decodeBody[restmsg.CatalogConfig](t, r)
			if got, ok := c.Overrides["prefix"]; got != tc.prefix || ok != (tc.prefix != "") {
				t.Errorf("prefix override %q (set %v), want %q", got, ok, tc.prefix)
			}
			if !slices.Contains(c.Endpoints, "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}") {
				t.Errorf("endpoints %q lack load table", c.Endpoints)
			}
		})
	}
}

func TestMultiRouting(t *testing.T) {
	srv := serveMulti(t, []Named{{Name: "lake", Catalog: filesystem(t, "lake")}, {Name: "sea side", Catalog: filesystem(t, "sea side")}}, Options{})
	sea := "/v1/sea%20side"
	for _, step := range []struct{ path, body string }{
		{"/v1/namespaces", `{"namespace":["fish"]}`},
		{"/v1/lake/namespaces", `{"namespace":["birds"]}`},
		{sea + "/namespaces", `{"namespace":["whales"]}`},
		{sea + "/namespaces", `{"namespace":["whales","blue"]}`},
		{sea + "/namespaces/" + restmsg.EncodeNamespace([]string{"whales", "blue"}) + "/tables", createTableBody("sightings")},
	} {
		if r := call(t, srv, "POST", step.path, step.body); r.status != 200 {
			t.Fatalf("POST %s: %d %s", step.path, r.status, r.body)
		}
	}
	lake := [][]string{{"birds"}, {"fish"}}
	for _, p := range []string{"/v1/namespaces", "/v1/lake/namespaces"} {
		if got := namespacesOf(t, srv, p); !slices.EqualFunc(got, lake, slices.Equal) {
			t.Errorf("GET %s: %q, want %q", p, got, lake)
		}
	}
	if got := namespacesOf(t, srv, sea+"/namespaces"); !slices.EqualFunc(got, [][]string{{"whales"}}, slices.Equal) {
		t.Errorf("GET %s/namespaces: %q, want whales alone", sea, got)
	}
	nested := "/namespaces/" + restmsg.EncodeNamespace([]string{"whales", "blue"}) + "/tables/sightings"
	if r := call(t, srv, "GET", sea+nested, nil); r.status != 200 {
		t.Fatalf("load through the prefix: %d %s", r.status, r.body)
	}
	// The table is the second catalog's only.
	checkError(t, call(t, srv, "GET", "/v1"+nested, nil), 404, restmsg.NoSuchTable)
	checkError(t, call(t, srv, "GET", "/v1/lake"+nested, nil), 404, restmsg.NoSuchTable)
	// An unknown prefix is no route.
	checkError(t, call(t, srv, "GET", "/v1/ocean/namespaces", nil), 404, restmsg.BadRequest)
}

func TestNewMultiRefuses(t *testing.T) {
	c := filesystem(t, "x")
	tests := []struct {
		name string
		cats []Named
	}{
		{"no catalog", nil},
		{"a route's name", []Named{{Name: "namespaces", Catalog: c}}},
		{"the token route's name", []Named{{Name: "oauth", Catalog: c}}},
		{"a slash", []Named{{Name: "a/b", Catalog: c}}},
		{"empty name", []Named{{Name: "", Catalog: c}}},
		{"twice", []Named{{Name: "a", Catalog: c}, {Name: "a", Catalog: c}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewMulti(tc.cats, Options{}); err == nil {
				t.Fatal("NewMulti accepted the catalogs")
			}
		})
	}
}
