package restserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

func TestReplaceView(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			srv := serve(t, be.open(t), Options{})
			call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`)
			if r := call(t, srv, "POST", "/v1/namespaces/db/views", viewBody(t, "v")); r.status != 200 {
				t.Fatalf("create view: %d %s", r.status, r.body)
			}
			const path = "/v1/namespaces/db/views/v"
			load := func() restmsg.LoadViewResult {
				r := call(t, srv, "GET", path, nil)
				if r.status != 200 {
					t.Fatalf("load view: %d %s", r.status, r.body)
				}
				return decodeBody[restmsg.LoadViewResult](t, r)
			}
			base := load()
			uuid := base.Metadata.ViewUUID
			replace := func(uuid string, extra ...string) string {
				schema, _ := json.Marshal(restmsg.Schema{Schema: &catalog.Schema{ID: 5, Fields: []catalog.NestedField{
					{ID: 1, Name: "one", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
					{ID: 2, Name: "two", Type: &catalog.PrimitiveType{ID: catalog.TInt}}}}})
				body := `{"requirements":[{"type":"assert-view-uuid","uuid":"` + uuid + `"}],"updates":[` +
					`{"action":"add-schema","schema":` + string(schema) + `},` +
					`{"action":"add-view-version","view-version":{"version-id":2,"timestamp-ms":1700000000000,"schema-id":-1,` +
					`"summary":{"engine-name":"spark"},"default-namespace":["db"],"representations":[` +
					`{"type":"sql","sql":"SELECT 1 AS one, 2 AS two","dialect":"spark"},{"type":"sql","sql":"SELECT 1 one, 2 two","dialect":"trino"}]}},` +
					`{"action":"set-current-view-version","view-version-id":-1},` +
					`{"action":"set-properties","updates":{"comment":"two columns"}}`
				for _, e := range extra {
					body += "," + e
				}
				return body + `]}`
			}
			checkError(t, call(t, srv, "POST", path, replace("00000000-0000-0000-0000-000000000000")), http.StatusConflict, restmsg.CommitFailed)
			checkError(t, call(t, srv, "POST", path, replace(uuid, `{"action":"remove-properties","removals":["x"]}`)),
				http.StatusNotAcceptable, restmsg.UnsupportedOperation)
			checkError(t, call(t, srv, "POST", path, replace(uuid, `{"action":"frobnicate"}`)), http.StatusBadRequest, restmsg.BadRequest)
			if got := load(); got.MetadataLocation != base.MetadataLocation {
				t.Fatal("a refused view commit changed the view")
			}

			r := call(t, srv, "POST", path, replace(uuid))
			if r.status != 200 {
				t.Fatalf("replace: %d %s", r.status, r.body)
			}
			got := load()
			m := got.Metadata.ViewMetadata
			cur := m.CurrentVersion()
			if got.MetadataLocation == base.MetadataLocation || m.ViewUUID != uuid || len(m.Versions) != 2 || cur == nil {
				t.Fatalf("replaced view: %+v", m)
			}
			if len(cur.Representations) != 2 || cur.Representations[0].SQL != "SELECT 1 AS one, 2 AS two" || cur.Representations[1].Dialect != "trino" {
				t.Fatalf("current version's representations: %+v", cur.Representations)
			}
			if s := m.SchemaByID(cur.SchemaID); s == nil || len(s.Fields) != 2 {
				t.Fatalf("current version's schema: %+v", s)
			}
			if m.Properties["comment"] != "two columns" {
				t.Fatalf("properties %v", m.Properties)
			}

			// Making the first version current again is a rollback.
			r = call(t, srv, "POST", path, `{"requirements":[],"updates":[{"action":"set-current-view-version","view-version-id":1}]}`)
			if r.status != 200 {
				t.Fatalf("rollback: %d %s", r.status, r.body)
			}
			if cur := load().Metadata.CurrentVersion(); cur.Representations[0].SQL != "SELECT 1 AS one" {
				t.Fatalf("after the rollback the view is %+v", cur)
			}
		})
	}
}
