package restserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/catalog/sqldb"
)

// backends are the real catalogs the server is tested over.
var backends = []struct {
	name string
	// dots: namespace levels may hold dots (the SQL catalog joins levels
	// with dots in its rows and refuses them).
	dots bool
	// props: the catalog keeps namespace properties a client can read and
	// change.
	props bool
	open  func(t *testing.T) catalog.MutableCatalog
}{
	{"filesystem", true, false, func(t *testing.T) catalog.MutableCatalog {
		c, err := catalog.NewFilesystem("wh", t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}},
	{"sqlite", false, true, func(t *testing.T) catalog.MutableCatalog {
		dir := t.TempDir()
		ctx := context.Background()
		db, dialect, err := sqldb.Open(ctx, "jdbc:sqlite:"+filepath.Join(dir, "catalog.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		c, err := catalog.NewSQL(ctx, "wh", db, dialect, filepath.Join(dir, "warehouse"), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}},
}

func serve(t *testing.T, c catalog.MutableCatalog, opts Options) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(New(c, opts))
	t.Cleanup(srv.Close)
	return srv
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// call sends a request; body is a string (sent as is), nil, or a value
// sent as JSON.
func call(t *testing.T, srv *httptest.Server, method, path string, body any, header ...string) response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: raw}
}

// errorModel reads an error response, failing unless it is the ErrorModel
// of the given status and type.
func checkError(t *testing.T, r response, status int, kind string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	var e restmsg.ErrorResponse
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("error body %q is not an ErrorModel: %v", r.body, err)
	}
	if e.Error.Code != status || e.Error.Type != kind || e.Error.Message == "" {
		t.Fatalf("error %+v, want code %d type %s and a message", e.Error, status, kind)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("error Content-Type %q", ct)
	}
}

func decodeBody[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	return v
}

const schemaJSON = `{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"data","required":false,"type":"string"}]}`

func createTableBody(name string) string {
	return `{"name":"` + name + `","schema":` + schemaJSON + `}`
}

func viewBody(t testing.TB, name string) CreateViewBody {
	t.Helper()
	schema := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "one", Type: &catalog.PrimitiveType{ID: catalog.TInt}}}}
	req, err := restmsg.NewCreateViewRequest(name, "", catalog.ViewSpec{Schema: schema, SQL: "SELECT 1 AS one"}, time.Now().UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// CreateViewBody is the request creating a view.
type CreateViewBody = restmsg.CreateViewRequest

// step is one request of the conformance walk and what must come back:
// a status, and for errors the exception type.
type step struct {
	name, method, path string
	body               any
	status             int
	kind               string                 // error type; "" for a success
	check              func(r response) error // more checks of a success
}

func TestConformance(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			cat := be.open(t)
			_, multi := cat.(catalog.MultiTableCommitter)
			srv := serve(t, cat, Options{})
			level := "a.b"
			if !be.dots {
				level = "ab"
			}
			nestedNS := []string{"db", level}
			nestedJSON, _ := json.Marshal(nestedNS)
			nested := "/v1/namespaces/" + restmsg.EncodeNamespace(nestedNS)
			tables := nested + "/tables"
			var metaLoc string
			steps := []step{
				{name: "config", method: "GET", path: "/v1/config", status: 200, check: func(r response) error {
					c := decodeBody[restmsg.CatalogConfig](t, r)
					for _, e := range []string{"GET /v1/{prefix}/namespaces", "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}"} {
						if !slices.Contains(c.Endpoints, e) {
							return errors.New("endpoints lack " + e)
						}
					}
					if slices.Contains(c.Endpoints, "POST /v1/{prefix}/transactions/commit") != multi {
						return errorf("endpoints list transactions/commit: %v; the catalog commits several tables at once: %v", !multi, multi)
					}
					return nil
				}},
				{name: "create namespace", method: "POST", path: "/v1/namespaces", body: `{"namespace":["db"]}`, status: 200},
				{name: "create namespace again", method: "POST", path: "/v1/namespaces", body: `{"namespace":["db"]}`, status: 409, kind: restmsg.AlreadyExists},
				{name: "create nested with a dot", method: "POST", path: "/v1/namespaces", body: `{"namespace":` + string(nestedJSON) + `}`, status: 200},
				{name: "create under a missing parent", method: "POST", path: "/v1/namespaces", body: `{"namespace":["nope","x"]}`, status: 404, kind: restmsg.NoSuchNamespace},
				{name: "create namespace malformed", method: "POST", path: "/v1/namespaces", body: `{"namespace":`, status: 400, kind: restmsg.BadRequest},
				{name: "create namespace empty body", method: "POST", path: "/v1/namespaces", body: ``, status: 400, kind: restmsg.BadRequest},
				{name: "create namespace no levels", method: "POST", path: "/v1/namespaces", body: `{"namespace":[]}`, status: 400, kind: restmsg.BadRequest},
				{name: "create namespace wrong type", method: "POST", path: "/v1/namespaces", body: `{"namespace":"db"}`, status: 400, kind: restmsg.BadRequest},
				{name: "list top level", method: "GET", path: "/v1/namespaces", status: 200, check: func(r response) error {
					if got := decodeBody[restmsg.ListNamespacesResponse](t, r).Namespaces; !slices.EqualFunc(got, [][]string{{"db"}}, slices.Equal) {
						return errorf("namespaces %q", got)
					}
					return nil
				}},
				{name: "list children", method: "GET", path: "/v1/namespaces?parent=db", status: 200, check: func(r response) error {
					if got := decodeBody[restmsg.ListNamespacesResponse](t, r).Namespaces; !slices.EqualFunc(got, [][]string{nestedNS}, slices.Equal) {
						return errorf("namespaces %q", got)
					}
					return nil
				}},
				{name: "list children of missing", method: "GET", path: "/v1/namespaces?parent=zz", status: 404, kind: restmsg.NoSuchNamespace},
				{name: "list bad page size", method: "GET", path: "/v1/namespaces?pageSize=x", status: 400, kind: restmsg.BadRequest},
				{name: "load nested", method: "GET", path: nested, status: 200, check: func(r response) error {
					if got := decodeBody[restmsg.GetNamespaceResponse](t, r).Namespace; !slices.Equal(got, nestedNS) {
						return errorf("namespace %q", got)
					}
					return nil
				}},
				{name: "load missing namespace", method: "GET", path: "/v1/namespaces/zz", status: 404, kind: restmsg.NoSuchNamespace},
				{name: "load dotted name is one level", method: "GET", path: "/v1/namespaces/db.a.b", status: 404, kind: restmsg.NoSuchNamespace},
				{name: "namespace exists", method: "HEAD", path: nested, status: 204},
				{name: "namespace missing", method: "HEAD", path: "/v1/namespaces/zz", status: 404},
				{name: "set and remove one property", method: "POST", path: "/v1/namespaces/db/properties", body: `{"updates":{"k":"v"},"removals":["k"]}`, status: 400, kind: restmsg.BadRequest},
				{name: "properties of missing", method: "POST", path: "/v1/namespaces/zz/properties", body: `{"updates":{"k":"v"}}`, status: 404, kind: restmsg.NoSuchNamespace},

				{name: "create table", method: "POST", path: tables, body: createTableBody("t1"), status: 200, check: func(r response) error {
					res := decodeBody[restmsg.LoadTableResult](t, r)
					if res.MetadataLocation == "" || res.Metadata.TableMetadata == nil || len(res.Metadata.Schemas) != 1 {
						return errorf("create answered %s", r.body)
					}
					return nil
				}},
				{name: "create table again", method: "POST", path: tables, body: createTableBody("t1"), status: 409, kind: restmsg.AlreadyExists},
				{name: "create table in missing namespace", method: "POST", path: "/v1/namespaces/zz/tables", body: createTableBody("t1"), status: 404, kind: restmsg.NoSuchNamespace},
				{name: "create table without schema", method: "POST", path: tables, body: `{"name":"t9"}`, status: 400, kind: restmsg.BadRequest},
				{name: "create table bad schema", method: "POST", path: tables, body: `{"name":"t9","schema":{"type":"struct","fields":[{"id":1}]}}`, status: 400, kind: restmsg.BadRequest},
				{name: "create table trailing garbage", method: "POST", path: tables, body: createTableBody("t9") + `{}`, status: 400, kind: restmsg.BadRequest},
				{name: "list tables", method: "GET", path: tables, status: 200, check: func(r response) error {
					ids := decodeBody[restmsg.ListTablesResponse](t, r).Identifiers
					if len(ids) != 1 || ids[0].Name != "t1" || !slices.Equal(ids[0].Namespace, nestedNS) {
						return errorf("tables %+v", ids)
					}
					return nil
				}},
				{name: "list tables of missing", method: "GET", path: "/v1/namespaces/zz/tables", status: 404, kind: restmsg.NoSuchNamespace},
				{name: "load table", method: "GET", path: tables + "/t1", status: 200, check: func(r response) error {
					res := decodeBody[restmsg.LoadTableResult](t, r)
					metaLoc = res.MetadataLocation
					if r.header.Get("ETag") == "" || metaLoc == "" {
						return errorf("load answered ETag %q, %s", r.header.Get("ETag"), r.body)
					}
					return nil
				}},
				{name: "load missing table", method: "GET", path: tables + "/nope", status: 404, kind: restmsg.NoSuchTable},
				{name: "table exists", method: "HEAD", path: tables + "/t1", status: 204},
				{name: "table missing", method: "HEAD", path: tables + "/nope", status: 404},
				{name: "drop non-empty namespace", method: "DELETE", path: nested, status: 409, kind: restmsg.NamespaceNotEmpty},
				{name: "commit malformed", method: "POST", path: tables + "/t1", body: `{"updates":[{"action":`, status: 400, kind: restmsg.BadRequest},
				{name: "commit unknown action", method: "POST", path: tables + "/t1",
					body: `{"requirements":[],"updates":[{"action":"set-properties","updates":{"a":"b"}},{"action":"frobnicate"}]}`, status: 400, kind: restmsg.BadRequest},
				{name: "commit to missing table", method: "POST", path: tables + "/nope",
					body: `{"requirements":[],"updates":[{"action":"set-properties","updates":{"a":"b"}}]}`, status: 404, kind: restmsg.NoSuchTable},
				{name: "commit failed requirement", method: "POST", path: tables + "/t1",
					body: `{"requirements":[{"type":"assert-table-uuid","uuid":"00000000-0000-0000-0000-000000000000"}],"updates":[]}`, status: 409, kind: restmsg.CommitFailed},
				{name: "nothing was applied", method: "GET", path: tables + "/t1", status: 200, check: func(r response) error {
					res := decodeBody[restmsg.LoadTableResult](t, r)
					if res.MetadataLocation != metaLoc || res.Metadata.Properties["a"] != "" {
						return errorf("a refused commit changed the table: %s", r.body)
					}
					return nil
				}},
				{name: "commit properties", method: "POST", path: tables + "/t1",
					body: `{"requirements":[],"updates":[{"action":"set-properties","updates":{"a":"b"}}]}`, status: 200, check: func(r response) error {
						res := decodeBody[restmsg.CommitTableResponse](t, r)
						if res.MetadataLocation == metaLoc || res.Metadata.Properties["a"] != "b" {
							return errorf("commit answered %s", r.body)
						}
						return nil
					}},
				{name: "rename", method: "POST", path: "/v1/tables/rename",
					body: `{"source":{"namespace":` + string(nestedJSON) + `,"name":"t1"},"destination":{"namespace":["db"],"name":"t2"}}`, status: 204},
				{name: "renamed away", method: "GET", path: tables + "/t1", status: 404, kind: restmsg.NoSuchTable},
				{name: "renamed to", method: "GET", path: "/v1/namespaces/db/tables/t2", status: 200, check: func(r response) error {
					metaLoc = decodeBody[restmsg.LoadTableResult](t, r).MetadataLocation
					return nil
				}},
				{name: "rename missing", method: "POST", path: "/v1/tables/rename",
					body: `{"source":{"namespace":["db"],"name":"nope"},"destination":{"namespace":["db"],"name":"t3"}}`, status: 404, kind: restmsg.NoSuchTable},
				{name: "rename into missing namespace", method: "POST", path: "/v1/tables/rename",
					body: `{"source":{"namespace":["db"],"name":"t2"},"destination":{"namespace":["zz"],"name":"t3"}}`, status: 404, kind: restmsg.NoSuchNamespace},
				{name: "rename without destination", method: "POST", path: "/v1/tables/rename",
					body: `{"source":{"namespace":["db"],"name":"t2"}}`, status: 400, kind: restmsg.BadRequest},
				{name: "drop bad purge flag", method: "DELETE", path: "/v1/namespaces/db/tables/t2?purgeRequested=maybe", status: 400, kind: restmsg.BadRequest},
				{name: "register", method: "POST", path: nested + "/register", body: func() any {
					return &lazyBody{f: func() any { return restmsg.RegisterTableRequest{Name: "t3", MetadataLocation: metaLoc} }}
				}(), status: 200, check: func(r response) error {
					if res := decodeBody[restmsg.LoadTableResult](t, r); res.Metadata.Properties["a"] != "b" {
						return errorf("registered table lacks its properties: %s", r.body)
					}
					return nil
				}},
				{name: "register again", method: "POST", path: nested + "/register",
					body: &lazyBody{f: func() any { return restmsg.RegisterTableRequest{Name: "t3", MetadataLocation: metaLoc} }}, status: 409, kind: restmsg.AlreadyExists},
				{name: "register without location", method: "POST", path: nested + "/register", body: `{"name":"t4"}`, status: 400, kind: restmsg.BadRequest},
				{name: "register overwrite", method: "POST", path: nested + "/register",
					body: &lazyBody{f: func() any {
						return restmsg.RegisterTableRequest{Name: "t3", MetadataLocation: metaLoc, Overwrite: true}
					}}, status: 501, kind: restmsg.UnsupportedOperation},
				{name: "drop table keeping files", method: "DELETE", path: "/v1/namespaces/db/tables/t2", status: 204},
				{name: "drop missing table", method: "DELETE", path: "/v1/namespaces/db/tables/t2", status: 404, kind: restmsg.NoSuchTable},
				{name: "register a missing file", method: "POST", path: nested + "/register",
					body: &lazyBody{f: func() any {
						return restmsg.RegisterTableRequest{Name: "t4", MetadataLocation: metaLoc + ".missing.json"}
					}}, status: 400, kind: restmsg.BadRequest},
				{name: "metrics", method: "POST", path: tables + "/t3/metrics", body: `{"report-type":"scan-report"}`, status: 204},
				{name: "drop and purge", method: "DELETE", path: tables + "/t3?purgeRequested=true", status: 204},

				{name: "create view", method: "POST", path: nested + "/views", body: viewBody(t, "v1"), status: 200, check: func(r response) error {
					res := decodeBody[restmsg.LoadViewResult](t, r)
					if res.MetadataLocation == "" || res.Metadata.ViewMetadata == nil {
						return errorf("create view answered %s", r.body)
					}
					return nil
				}},
				{name: "create view again", method: "POST", path: nested + "/views", body: viewBody(t, "v1"), status: 409, kind: restmsg.AlreadyExists},
				{name: "create view without version", method: "POST", path: nested + "/views", body: `{"name":"v2","schema":` + schemaJSON + `}`, status: 400, kind: restmsg.BadRequest},
				{name: "create view in missing namespace", method: "POST", path: "/v1/namespaces/zz/views", body: viewBody(t, "v1"), status: 404, kind: restmsg.NoSuchNamespace},
				{name: "list views", method: "GET", path: nested + "/views", status: 200, check: func(r response) error {
					ids := decodeBody[restmsg.ListTablesResponse](t, r).Identifiers
					if len(ids) != 1 || ids[0].Name != "v1" {
						return errorf("views %+v", ids)
					}
					return nil
				}},
				{name: "load view", method: "GET", path: nested + "/views/v1", status: 200},
				{name: "load missing view", method: "GET", path: nested + "/views/nope", status: 404, kind: restmsg.NoSuchView},
				{name: "view exists", method: "HEAD", path: nested + "/views/v1", status: 204},
				{name: "commit view without changes", method: "POST", path: nested + "/views/v1", body: `{"requirements":[],"updates":[]}`, status: 200},
				{name: "commit view malformed", method: "POST", path: nested + "/views/v1", body: `{"updates":[{"action":`, status: 400, kind: restmsg.BadRequest},
				{name: "commit missing view", method: "POST", path: nested + "/views/nope", body: `{"requirements":[],"updates":[]}`, status: 404, kind: restmsg.NoSuchView},
				{name: "rename view", method: "POST", path: "/v1/views/rename", body: `{}`, status: 501, kind: restmsg.UnsupportedOperation},
				{name: "drop view", method: "DELETE", path: nested + "/views/v1", status: 204},
				{name: "drop missing view", method: "DELETE", path: nested + "/views/v1", status: 404, kind: restmsg.NoSuchView},

				transactionStep(multi),
				{name: "unknown route", method: "GET", path: "/v1/nope", status: 404, kind: restmsg.BadRequest},
				{name: "outside /v1", method: "GET", path: "/", status: 404, kind: restmsg.BadRequest},
				{name: "method not allowed", method: "PUT", path: "/v1/namespaces", body: `{}`, status: 405, kind: restmsg.BadRequest},
				{name: "method not allowed on table", method: "PATCH", path: tables + "/t1", status: 405, kind: restmsg.BadRequest},
				{name: "drop namespace", method: "DELETE", path: nested, status: 204},
				{name: "drop missing namespace", method: "DELETE", path: nested, status: 404, kind: restmsg.NoSuchNamespace},
			}
			if be.props {
				steps = append(steps, propertySteps(t)...)
			} else {
				steps = append(steps,
					step{name: "create with properties", method: "POST", path: "/v1/namespaces", body: `{"namespace":["p"],"properties":{"k":"v"}}`,
						status: 406, kind: restmsg.UnsupportedOperation},
					step{name: "set properties", method: "POST", path: "/v1/namespaces/db/properties", body: `{"updates":{"k":"v"}}`,
						status: 406, kind: restmsg.UnsupportedOperation})
			}
			if !be.dots {
				steps = append(steps, step{name: "a level with a dot", method: "POST", path: "/v1/namespaces",
					body: `{"namespace":["db","a.b"]}`, status: 400, kind: restmsg.BadRequest})
			}
			for _, s := range steps {
				body := s.body
				if lb, ok := body.(*lazyBody); ok {
					body = lb.f()
				}
				r := call(t, srv, s.method, s.path, body)
				if s.kind != "" {
					func() {
						defer func() {
							if t.Failed() {
								t.Logf("step %q", s.name)
							}
						}()
						checkError(t, r, s.status, s.kind)
					}()
					continue
				}
				if r.status != s.status {
					t.Fatalf("%s: %s %s: status %d, want %d; body %s", s.name, s.method, s.path, r.status, s.status, r.body)
				}
				if s.method == "HEAD" && len(r.body) != 0 {
					t.Fatalf("%s: HEAD answered a body", s.name)
				}
				if s.check != nil {
					if err := s.check(r); err != nil {
						t.Fatalf("%s: %v", s.name, err)
					}
				}
			}
			if r := call(t, srv, "PUT", "/v1/namespaces", `{}`); !strings.Contains(r.header.Get("Allow"), "GET") {
				t.Errorf("405 without an Allow header naming GET: %v", r.header)
			}
		})
	}
}

// lazyBody is a request body made when its step runs (from what earlier
// steps learned).
type lazyBody struct{ f func() any }

// transactionStep is an empty multi-table commit: 400 where the catalog
// commits several tables at once, 501 elsewhere.
func transactionStep(multi bool) step {
	st := step{name: "transaction", method: "POST", path: "/v1/transactions/commit", body: `{"table-changes":[]}`, status: 501, kind: restmsg.UnsupportedOperation}
	if multi {
		st.status, st.kind = 400, restmsg.BadRequest
	}
	return st
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// propertySteps create, read, change and remove namespace properties.
func propertySteps(t *testing.T) []step {
	props := func(want map[string]string) func(r response) error {
		return func(r response) error {
			got := decodeBody[restmsg.GetNamespaceResponse](t, r).Properties
			if !maps.Equal(got, want) {
				return errorf("properties %v, want %v", got, want)
			}
			return nil
		}
	}
	return []step{
		{name: "create with properties", method: "POST", path: "/v1/namespaces", body: `{"namespace":["p"],"properties":{"a":"1","b":"2"}}`, status: 200},
		{name: "read properties", method: "GET", path: "/v1/namespaces/p", status: 200, check: props(map[string]string{"a": "1", "b": "2"})},
		{name: "change properties", method: "POST", path: "/v1/namespaces/p/properties",
			body: `{"updates":{"a":"10","c":"3"},"removals":["b","zz"]}`, status: 200, check: func(r response) error {
				got := decodeBody[restmsg.UpdateNamespacePropertiesResponse](t, r)
				if !slices.Equal(got.Updated, []string{"a", "c"}) || !slices.Equal(got.Removed, []string{"b"}) || !slices.Equal(got.Missing, []string{"zz"}) {
					return errorf("update answered %+v", got)
				}
				return nil
			}},
		{name: "read changed properties", method: "GET", path: "/v1/namespaces/p", status: 200, check: props(map[string]string{"a": "10", "c": "3"})},
		{name: "remove every property", method: "POST", path: "/v1/namespaces/p/properties", body: `{"removals":["a","c"]}`, status: 200},
		{name: "the namespace stays", method: "GET", path: "/v1/namespaces/p", status: 200, check: props(map[string]string{})},
		{name: "drop it", method: "DELETE", path: "/v1/namespaces/p", status: 204},
	}
}
