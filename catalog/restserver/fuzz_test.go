package restserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/catalog/sqldb"
)

// fuzzRoutes are the routes that take a body.
var fuzzRoutes = []string{
	"/v1/namespaces",
	"/v1/namespaces/db/properties",
	"/v1/namespaces/db/tables",
	"/v1/namespaces/db/tables/t",
	"/v1/namespaces/db/register",
	"/v1/tables/rename",
	"/v1/namespaces/db/views",
	"/v1/namespaces/db/views/v",
	"/v1/transactions/commit",
	"/v1/namespaces/db/tables/t/metrics",
}

// FuzzRequestBodies sends arbitrary bodies to every route that takes one,
// over a SQL catalog: no request panics, none is answered 500 (a bad body
// is the client's error), every error is the protocol's ErrorModel, and
// the table the requests aim at still loads afterwards.
func FuzzRequestBodies(f *testing.F) {
	dir := f.TempDir()
	ctx := context.Background()
	db, dialect, err := sqldb.Open(ctx, "jdbc:sqlite:"+filepath.Join(dir, "catalog.db"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	cat, err := catalog.NewSQL(ctx, "wh", db, dialect, filepath.Join(dir, "warehouse"), nil)
	if err != nil {
		f.Fatal(err)
	}
	h := New(cat, Options{Logger: quietLogger()})
	do := func(path string, body []byte) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		method := "POST"
		if body == nil {
			method = "GET"
		}
		h.ServeHTTP(rec, httptest.NewRequest(method, path, bytes.NewReader(body)))
		return rec
	}
	for _, setup := range []struct{ path, body string }{
		{"/v1/namespaces", `{"namespace":["db"]}`},
		{"/v1/namespaces/db/tables", createTableBody("t")},
	} {
		if r := do(setup.path, []byte(setup.body)); r.Code != 200 {
			f.Fatalf("%s: %d %s", setup.path, r.Code, r.Body)
		}
	}
	base, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"db"}, Name: "t"})
	if err != nil {
		f.Fatal(err)
	}
	commit, err := json.Marshal(appendRequest(f, base.Metadata, 7))
	if err != nil {
		f.Fatal(err)
	}
	view, _ := json.Marshal(viewBody(f, "v"))
	for _, seed := range []struct {
		route int
		body  string
	}{
		{0, `{"namespace":["db2"],"properties":{"a":"b"}}`},
		{1, `{"removals":["a"],"updates":{"b":"c"}}`},
		{2, createTableBody("u")},
		{2, `{"name":"s","schema":` + schemaJSON + `,"stage-create":true,"partition-spec":{"spec-id":0,"fields":[{"source-id":1,"field-id":1000,"name":"b","transform":"bucket[4]"}]}}`},
		{3, string(commit)},
		{3, `{"requirements":[{"type":"assert-create"}],"updates":[{"action":"upgrade-format-version","format-version":3}]}`},
		{3, `{"requirements":[],"updates":[{"action":"add-schema","schema":` + schemaJSON + `},{"action":"set-current-schema","schema-id":-1},{"action":"remove-properties","removals":["x"]}]}`},
		{4, `{"name":"r","metadata-location":"/etc/passwd"}`},
		{5, `{"source":{"namespace":["db"],"name":"t"},"destination":{"namespace":["db"],"name":"t2"}}`},
		{6, string(view)},
		{7, `{"requirements":[{"type":"assert-view-uuid","uuid":"x"}],"updates":[]}`},
		{8, `{"table-changes":[{"identifier":{"namespace":["db"],"name":"t"},"requirements":[],"updates":[{"action":"set-properties","updates":{"k":"v"}}]}]}`},
		{9, `{"report-type":"scan-report","table-name":"t","snapshot-id":1}`},
	} {
		f.Add(uint8(seed.route), []byte(seed.body))
	}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		path := fuzzRoutes[int(route)%len(fuzzRoutes)]
		r := do(path, body)
		if r.Code >= 500 {
			t.Fatalf("POST %s %q: %d %s", path, body, r.Code, r.Body)
		}
		if r.Code >= 400 {
			var e restmsg.ErrorResponse
			if err := json.Unmarshal(r.Body.Bytes(), &e); err != nil || e.Error.Code != r.Code || e.Error.Type == "" || e.Error.Message == "" {
				t.Fatalf("POST %s %q: %d with a body that is not an ErrorModel: %s", path, body, r.Code, r.Body)
			}
		}
		if r := do("/v1/namespaces/db/tables/t", nil); r.Code != http.StatusOK && r.Code != http.StatusNotFound {
			t.Fatalf("after POST %s %q the table does not load: %d %s", path, body, r.Code, r.Body)
		}
	})
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
