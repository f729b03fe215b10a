package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restserver"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/s3test"
)

// restAddr waits for the REST catalog's listening line and returns its
// address.
func restAddr(t *testing.T, logs *syncBuffer) string {
	t.Helper()
	re := regexp.MustCompile(`msg="REST catalog listening on (\S+)"`)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(logs.String()); m != nil {
			return m[1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no REST catalog listening line:\n%s", logs.String())
	return ""
}

// restCall sends a request to the REST catalog and returns the status and
// body; token, when set, is sent as a bearer token.
func restCall(t *testing.T, client *http.Client, method, u, token, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, raw
}

const restTableBody = `{"name":"t","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":false,"type":"long"},{"id":2,"name":"s","required":false,"type":"string"}]}}`

// TestServeREST serves the REST catalog beside the PostgreSQL port
// without passwords (loopback, no token): a table created over REST is
// written over PostgreSQL and the REST client sees the new snapshot; the
// stop ends both listeners.
func TestServeREST(t *testing.T) {
	addr, logs, stop := serveOn(t, t.TempDir(), t.TempDir(), "--rest-listen", "127.0.0.1:0", "--catalog-name", "lake")
	rest := restAddr(t, logs)
	wantLine(t, logs, "catalogs=lake")
	base := "http://" + rest + "/v1/"
	c := &http.Client{Timeout: 10 * time.Second}
	for _, step := range []struct{ method, path, body string }{
		{"GET", "config?warehouse=lake", ""},
		{"POST", "lake/namespaces", `{"namespace":["r"]}`},
		{"POST", "lake/namespaces/r/tables", restTableBody},
	} {
		if st, body := restCall(t, c, step.method, base+step.path, "", step.body); st != 200 {
			t.Fatalf("%s %s: %d %s", step.method, step.path, st, body)
		}
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+addr+"/lake?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO r.t VALUES (1, 'a'), (2, 'b')"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	st, body := restCall(t, c, "GET", base+"namespaces/r/tables/t", "", "")
	if st != 200 {
		t.Fatalf("load: %d %s", st, body)
	}
	var loaded struct {
		Metadata struct {
			CurrentSnapshotID *int64 `json:"current-snapshot-id"`
			Snapshots         []struct {
				Summary map[string]string `json:"summary"`
			} `json:"snapshots"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(body, &loaded); err != nil {
		t.Fatal(err)
	}
	if loaded.Metadata.CurrentSnapshotID == nil || len(loaded.Metadata.Snapshots) != 1 || loaded.Metadata.Snapshots[0].Summary["added-records"] != "2" {
		t.Fatalf("the REST client does not see the insert: %s", body)
	}
	stop()
	if conn, err := net.DialTimeout("tcp", rest, time.Second); err == nil {
		conn.Close()
		t.Fatalf("the REST port %s still accepts connections after the server stopped", rest)
	}
	wantLine(t, logs, "REST catalog stopped")
}

// TestServeRESTPasswords: with a password configured, the REST routes need
// a bearer token from the token endpoint; with TLS settings, the REST
// catalog is served over TLS too.
func TestServeRESTPasswords(t *testing.T) {
	t.Setenv("ICEGATE_PASSWORD", "pw one")
	certFile, keyFile := writeSelfSigned(t)
	_, logs, _ := serveOn(t, t.TempDir(), t.TempDir(), "--rest-listen", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile)
	rest := restAddr(t, logs)
	pem, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	base := "https://" + rest + "/v1/"

	// A plain request to the TLS port never reaches the catalog.
	if resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + rest + "/v1/config"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Fatal("plain HTTP served on the TLS port")
		}
	}
	if st, body := restCall(t, c, "GET", base+"namespaces", "", ""); st != 401 {
		t.Fatalf("without a token: %d %s, want 401", st, body)
	}
	token := func(user, password string) (int, string) {
		resp, err := c.PostForm(base+"oauth/tokens", url.Values{"grant_type": {"client_credentials"}, "client_id": {user}, "client_secret": {password}})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, tok.AccessToken
	}
	if st, _ := token("icegate", "wrong"); st != 401 {
		t.Fatalf("wrong password: %d, want 401", st)
	}
	st, tok := token("icegate", "pw one")
	if st != 200 || tok == "" {
		t.Fatalf("token: %d %q", st, tok)
	}
	if st, body := restCall(t, c, "GET", base+"namespaces", tok, ""); st != 200 {
		t.Fatalf("with the token: %d %s", st, body)
	}
}

// TestServeRESTRefusesTrustOnWildcard: without passwords, a REST address
// that is not loopback is refused at start, as the PostgreSQL port's is.
func TestServeRESTRefusesTrustOnWildcard(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, _, err := run(ctx, "", "serve", "--warehouse", t.TempDir(), "--listen", "127.0.0.1:0", "--rest-listen", "0.0.0.0:0")
	if err == nil || !strings.Contains(err.Error(), "REST catalog: refusing to listen on \"0.0.0.0:0\" without authentication") {
		t.Fatalf("serve: %v, want the REST address refused", err)
	}
}

// TestVendable: only an object-store catalog's configured s3.* properties
// are offered for vending; icegate's own and the catalog database's
// settings never are.
func TestVendable(t *testing.T) {
	props := map[string]string{
		"warehouse": "s3://b/wh", "uri": "jdbc:sqlite:/x.db", "jdbc.password": "dbsecret",
		"s3.endpoint": "http://127.0.0.1:9000", "s3.access-key-id": "AK", "s3.secret-access-key": "SK",
		"s3.path-style-access": "true", "s3.cache.directory": "/cache",
	}
	cfg := &conf.Config{Catalogs: []conf.Catalog{{Name: "s3lake", Type: conf.CatalogSQL, Properties: props}}}
	fs, err := catalog.NewFilesystem("s3lake", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := vendable(cfg, servedCatalog{cat: fs, kind: conf.CatalogSQL, objects: true})
	want := map[string]string{"s3.endpoint": "http://127.0.0.1:9000", "s3.access-key-id": "AK", "s3.secret-access-key": "SK", "s3.path-style-access": "true"}
	if !maps.Equal(got, want) {
		t.Errorf("vendable = %v, want %v", got, want)
	}
	if got := vendable(cfg, servedCatalog{cat: fs, kind: conf.CatalogSQL}); len(got) != 0 {
		t.Errorf("a local catalog vends %v", got)
	}
	if got := vendable(cfg, servedCatalog{cat: fs, kind: conf.CatalogREST, objects: true}); len(got) != 0 {
		t.Errorf("a catalog of type rest vends %v", got)
	}
}

// TestServeRESTVendsS3Credentials serves a catalog on an S3-compatible
// server: with rest.vend-credentials, a load that asks for vended
// credentials gets the catalog's keys, and a load that does not ask gets
// none; with vending off, no load gets them.
func TestServeRESTVendsS3Credentials(t *testing.T) {
	if _, err := s3test.Binary(); err != nil && os.Getenv("ICEGATE_REQUIRE_S3") == "" {
		t.Skipf("no S3-compatible server: %v", err)
	}
	s3 := s3test.Start(t)
	props := s3.Props()
	for _, vend := range []bool{true, false} {
		t.Run(fmt.Sprint("vend=", vend), func(t *testing.T) {
			dir := t.TempDir()
			body := "catalogs:\n  s3lake:\n    type: hadoop\n"
			for k, v := range props {
				body += fmt.Sprintf("    %s: %q\n", k, v)
			}
			body += fmt.Sprintf("    warehouse: %q\n", s3.URI(fmt.Sprint("vend-", vend)))
			if err := os.WriteFile(filepath.Join(dir, "icegate.yaml"), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("ICEGATE_REST_VEND_CREDENTIALS", fmt.Sprint(vend))
			_, logs, _ := serveOn(t, dir, t.TempDir(), "--config", filepath.Join(dir, "icegate.yaml"), "--rest-listen", "127.0.0.1:0")
			base := "http://" + restAddr(t, logs) + "/v1/s3lake/"
			c := &http.Client{Timeout: 20 * time.Second}
			for _, step := range []struct{ method, path, body string }{
				{"POST", "namespaces", `{"namespace":["v"]}`},
				{"POST", "namespaces/v/tables", restTableBody},
			} {
				if st, body := restCall(t, c, step.method, base+step.path, "", step.body); st != 200 {
					t.Fatalf("%s %s: %d %s", step.method, step.path, st, body)
				}
			}
			load := func(ask bool) []byte {
				req, err := http.NewRequest("GET", base+"namespaces/v/tables/t", nil)
				if err != nil {
					t.Fatal(err)
				}
				if ask {
					req.Header.Set("X-Iceberg-Access-Delegation", "vended-credentials")
				}
				resp, err := c.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				raw, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != 200 {
					t.Fatalf("load: %d %s", resp.StatusCode, raw)
				}
				return raw
			}
			var asked struct {
				Config map[string]string `json:"config"`
			}
			if err := json.Unmarshal(load(true), &asked); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"s3.access-key-id", "s3.secret-access-key", "s3.endpoint"} {
				if got, ok := asked.Config[k]; ok != vend || (vend && got != props[k]) {
					t.Errorf("asked, vend=%v: config[%s] = %q (set %v)", vend, k, got, ok)
				}
			}
			if raw := load(false); strings.Contains(string(raw), props["s3.secret-access-key"]) {
				t.Errorf("a load that did not ask holds the secret key: %s", raw)
			}
		})
	}
}

// TestServeRESTOfRESTCatalog: a catalog of type rest is served over
// icegate's REST port too; what a client does through icegate reaches the
// remote catalog. The remote asks for a login in the second case: icegate's
// REST client logs in at its token endpoint with the catalog's credential.
func TestServeRESTOfRESTCatalog(t *testing.T) {
	for _, login := range []bool{false, true} {
		t.Run(fmt.Sprint("login=", login), func(t *testing.T) { serveRESTOfREST(t, login) })
	}
}

func serveRESTOfREST(t *testing.T, login bool) {
	ctx := context.Background()
	backend, err := catalog.NewFilesystem("remote", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var opts restserver.Options
	extra := ""
	if login {
		v, err := auth.NewVerifier("remote pw")
		if err != nil {
			t.Fatal(err)
		}
		a, err := auth.New([]auth.User{{Name: "svc", SCRAM: v}}, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if opts.Tokens, err = restserver.NewTokens(a, nil); err != nil {
			t.Fatal(err)
		}
		extra = "    credential: \"svc:remote pw\"\n"
	}
	h, err := restserver.NewMulti([]restserver.Named{{Name: "remote", Catalog: backend}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	remote := httptest.NewServer(h)
	defer remote.Close()
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "icegate.yaml")
	if err := os.WriteFile(cfgFile, []byte(fmt.Sprintf("catalogs:\n  far:\n    type: rest\n    uri: %q\n%s", remote.URL, extra)), 0o600); err != nil {
		t.Fatal(err)
	}
	addr, logs, _ := serveOn(t, dir, t.TempDir(), "--config", cfgFile, "--rest-listen", "127.0.0.1:0")
	base := "http://" + restAddr(t, logs) + "/v1/far/"
	c := &http.Client{Timeout: 10 * time.Second}
	if st, body := restCall(t, c, "GET", "http://"+restAddr(t, logs)+"/v1/config?warehouse=far", "", ""); st != 200 || !strings.Contains(string(body), `"prefix":"far"`) {
		t.Fatalf("config: %d %s", st, body)
	}
	for _, step := range []struct{ method, path, body string }{
		{"POST", "namespaces", `{"namespace":["r"]}`},
		{"POST", "namespaces/r/tables", restTableBody},
	} {
		if st, body := restCall(t, c, step.method, base+step.path, "", step.body); st != 200 {
			t.Fatalf("%s %s: %d %s", step.method, step.path, st, body)
		}
	}
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+addr+"/far?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "INSERT INTO r.t VALUES (7, 'seven')"); err != nil {
		t.Fatal(err)
	}
	tbl, err := backend.LoadTable(ctx, catalog.Identifier{Namespace: []string{"r"}, Name: "t"})
	if err != nil {
		t.Fatalf("the remote catalog lacks the table created through icegate: %v", err)
	}
	if tbl.Metadata.CurrentSnapshotID == nil {
		t.Fatal("the remote table has no snapshot after the insert")
	}
	st, body := restCall(t, c, "GET", base+"namespaces/r/tables/t", "", "")
	if st != 200 || !strings.Contains(string(body), fmt.Sprintf(`"current-snapshot-id":%d`, *tbl.Metadata.CurrentSnapshotID)) {
		t.Fatalf("load through icegate: %d %s", st, body)
	}
}
