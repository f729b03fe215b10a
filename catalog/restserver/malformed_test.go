package restserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog/restmsg"
)

// TestMalformedBodies sends every route that reads a body each kind of
// broken body: each is 400 BadRequestException and changes nothing.
func TestMalformedBodies(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			srv := serve(t, be.open(t), Options{})
			call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`)
			call(t, srv, "POST", "/v1/namespaces/db/tables", createTableBody("t"))
			state := func() string {
				t.Helper()
				var b strings.Builder
				for _, p := range []string{"/v1/namespaces", "/v1/namespaces/db/tables", "/v1/namespaces/db/views", "/v1/namespaces/db/tables/t"} {
					r := call(t, srv, "GET", p, nil)
					b.WriteString(r.header.Get("ETag"))
					b.Write(r.body)
				}
				return b.String()
			}
			before := state()
			routes := []string{
				"/v1/namespaces",
				"/v1/namespaces/db/properties",
				"/v1/namespaces/db/tables",
				"/v1/namespaces/db/tables/t",
				"/v1/namespaces/db/tables/t/metrics",
				"/v1/namespaces/db/register",
				"/v1/tables/rename",
				"/v1/namespaces/db/views",
				"/v1/namespaces/db/views/v",
			}
			bodies := []string{"", "   ", "null", "[1]", `"x"`, "{", `{"name":`, `{"a":1} {"b":2}`, `{"a":1} x`, "\x00"}
			for _, route := range routes {
				for _, body := range bodies {
					r := call(t, srv, "POST", route, body)
					if r.status != http.StatusBadRequest {
						t.Fatalf("POST %s %q: %d %s", route, body, r.status, r.body)
					}
					checkError(t, r, http.StatusBadRequest, restmsg.BadRequest)
				}
			}
			if after := state(); after != before {
				t.Fatalf("malformed requests changed the catalog:\n%s\n%s", before, after)
			}
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	srv := serve(t, backends[0].open(t), Options{MaxBodyBytes: 64})
	body := `{"namespace":["` + strings.Repeat("x", 100) + `"]}`
	checkError(t, call(t, srv, "POST", "/v1/namespaces", body), http.StatusRequestEntityTooLarge, restmsg.BadRequest)
	if r := call(t, srv, "GET", "/v1/namespaces", nil); strings.Contains(string(r.body), "xxx") {
		t.Fatalf("a refused body created a namespace: %s", r.body)
	}
}
