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

// A multi-table commit through a prefix reaches that catalog: the SQL one
// commits it, the filesystem one answers 501.
func TestMultiTransactions(t *testing.T) {
	srv := serveMulti(t, []Named{{Name: "files", Catalog: backends[0].open(t)}, {Name: "db", Catalog: backends[1].open(t)}}, Options{})
	for _, prefix := range []string{"/v1/files", "/v1/db"} {
		if r := call(t, srv, "POST", prefix+"/namespaces", `{"namespace":["db"]}`); r.status != 200 {
			t.Fatalf("create namespace: %d %s", r.status, r.body)
		}
		for _, name := range []string{"a", "b"} {
			if r := call(t, srv, "POST", prefix+"/namespaces/db/tables", createTableBody(name)); r.status != 200 {
				t.Fatalf("create table: %d %s", r.status, r.body)
			}
		}
	}
	commit := func(prefix string) response {
		a, _ := loadTable(t, srv, prefix+"/namespaces/db/tables/a")
		b, _ := loadTable(t, srv, prefix+"/namespaces/db/tables/b")
		return call(t, srv, "POST", prefix+"/transactions/commit", transaction(t,
			named(appendRequest(t, a.Metadata.TableMetadata, 10), "a"), named(appendRequest(t, b.Metadata.TableMetadata, 20), "b")))
	}
	checkError(t, commit("/v1/files"), 501, restmsg.UnsupportedOperation)
	if r := commit("/v1/db"); r.status != 204 {
		t.Fatalf("transaction on the SQL catalog: %d %s", r.status, r.body)
	}
	for _, name := range []string{"a", "b"} {
		res, _ := loadTable(t, srv, "/v1/db/namespaces/db/tables/"+name)
		if res.Metadata.CurrentSnapshotID == nil {
			t.Errorf("table %s has no snapshot after the transaction", name)
		}
		res, _ = loadTable(t, srv, "/v1/files/namespaces/db/tables/"+name)
		if res.Metadata.CurrentSnapshotID != nil {
			t.Errorf("the refused transaction changed the filesystem catalog's table %s", name)
		}
	}
	// The configuration of each lists transactions/commit as its catalog can.
	for wh, want := range map[string]bool{"files": false, "db": true} {
		c := decodeBody[restmsg.CatalogConfig](t, call(t, srv, "GET", "/v1/config?warehouse="+wh, nil))
		if got := slices.Contains(c.Endpoints, "POST /v1/{prefix}/transactions/commit"); got != want {
			t.Errorf("warehouse %s lists transactions/commit: %v, want %v", wh, got, want)
		}
	}
}
