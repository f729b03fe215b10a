package restserver

import (
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog/restmsg"
)

func TestVendedCredentials(t *testing.T) {
	creds := map[string]string{
		"s3.endpoint":          "http://127.0.0.1:9000",
		"s3.region":            "eu-west-1",
		"s3.path-style-access": "true",
		"s3.access-key-id":     "AKIDVENDTEST",
		"s3.secret-access-key": "SECRETVENDTEST",
		"s3.session-token":     "SESSIONVENDTEST",
	}
	secrets := []string{"AKIDVENDTEST", "SECRETVENDTEST", "SESSIONVENDTEST"}
	const delegation = "X-Iceberg-Access-Delegation"
	tests := []struct {
		name   string
		vend   bool   // Options.VendCredentials
		header string // the delegation header; "" for none
		want   bool   // the load and create responses carry the credentials
	}{
		{"server vends, client asks", true, "vended-credentials", true},
		{"server vends, client asks among modes", true, "remote-signing, vended-credentials", true},
		{"server vends, client does not ask", true, "", false},
		{"server vends, client asks remote signing", true, "remote-signing", false},
		{"server does not vend, client asks", false, "vended-credentials", false},
		{"neither", false, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveMulti(t, []Named{{Name: "lake", Catalog: filesystem(t, "lake"), Credentials: creds}}, Options{VendCredentials: tc.vend})
			hdr := []string{}
			if tc.header != "" {
				hdr = []string{delegation, tc.header}
			}
			var bodies []response
			do := func(method, path string, body any) response {
				t.Helper()
				r := call(t, srv, method, path, body, hdr...)
				if r.status >= 300 {
					t.Fatalf("%s %s: %d %s", method, path, r.status, r.body)
				}
				bodies = append(bodies, r)
				return r
			}
			do("GET", "/v1/config", nil)
			do("GET", "/v1/config?warehouse=lake", nil)
			do("POST", "/v1/namespaces", `{"namespace":["db"]}`)
			do("GET", "/v1/namespaces/db", nil)
			created := do("POST", "/v1/namespaces/db/tables", createTableBody("t"))
			loaded := do("GET", "/v1/lake/namespaces/db/tables/t", nil)
			do("GET", "/v1/namespaces/db/tables", nil)
			do("POST", "/v1/namespaces/db/tables/t", `{"requirements":[],"updates":[{"action":"set-properties","updates":{"k":"v"}}]}`)
			do("POST", "/v1/namespaces/db/views", viewBody(t, "v"))
			do("GET", "/v1/namespaces/db/views/v", nil)
			for _, r := range []response{created, loaded} {
				cfg := decodeBody[restmsg.LoadTableResult](t, r).Config
				for k, v := range creds {
					if got, ok := cfg[k]; ok != tc.want || (ok && got != v) {
						t.Errorf("config[%s] = %q (set %v), want set %v", k, got, ok, tc.want)
					}
				}
			}
			// No other response, and none at all unless vending is on
			// and asked for, holds a secret.
			for i, r := range bodies {
				if tc.want && (i == 4 || i == 5) {
					continue
				}
				for _, s := range secrets {
					if strings.Contains(string(r.body), s) {
						t.Errorf("response %d holds the credential %s: %s", i, s, r.body)
					}
				}
			}
		})
	}
}
