package restclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/catalog/restserver"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/objstore"
)

// tokenIssuer is a test OAuth2 token endpoint: it issues tok-1, tok-2, ...
// to the client that presents the right secret; the catalog accepts only
// tokens issued and not revoked.
type tokenIssuer struct {
	t         *testing.T
	expiresIn int64
	mu        sync.Mutex
	issued    int
	valid     map[string]bool
}

func (ti *tokenIssuer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		ti.t.Errorf("token request: %v", err)
	}
	f := r.PostForm
	if f.Get("grant_type") != "client_credentials" || f.Get("client_id") != "app" || f.Get("scope") != "catalog" {
		ti.t.Errorf("token request form %v", f)
	}
	if f.Get("client_secret") != "s3cret" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(restmsg.OAuthError{Error: "invalid_client", ErrorDescription: "unknown client"})
		return
	}
	ti.mu.Lock()
	ti.issued++
	tok := fmt.Sprintf("tok-%d", ti.issued)
	ti.valid[tok] = true
	ti.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(restmsg.OAuthTokenResponse{AccessToken: tok, TokenType: "bearer", ExpiresIn: ti.expiresIn,
		IssuedTokenType: "urn:ietf:params:oauth:token-type:access_token"})
}

func (ti *tokenIssuer) authorize(r *http.Request) error {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || !ti.valid[tok] {
		return errors.New("token not valid")
	}
	return nil
}

func (ti *tokenIssuer) count() int {
	ti.mu.Lock()
	defer ti.mu.Unlock()
	return ti.issued
}

// TestOAuth2: a token is got once, refreshed before it expires and once
// on a 401; a refused credential is 42501 and never shown.
func TestOAuth2(t *testing.T) {
	ctx := context.Background()
	ti := &tokenIssuer{t: t, expiresIn: 100, valid: map[string]bool{}}
	srv := serve(t, sqliteBackend(t), restserver.Options{Authorize: ti.authorize}, func(h http.Handler) http.Handler {
		mux := http.NewServeMux()
		mux.Handle("POST /v1/oauth/tokens", ti)
		mux.Handle("/", h)
		// The token endpoint takes no bearer token.
		return mux
	})
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	opts := fastOptions()
	opts.Now = func() time.Time { return time.Unix(0, now.Load()) }
	c := open(t, srv, map[string]string{PropCredential: "app:s3cret"}, opts)
	if _, err := c.ListNamespaces(ctx); err != nil {
		t.Fatal(err)
	}
	if ti.count() != 1 {
		t.Fatalf("%d tokens issued, want 1", ti.count())
	}
	// 95 of the token's 100 seconds gone: it is refreshed first.
	now.Add(int64(95 * time.Second))
	if _, err := c.ListNamespaces(ctx); err != nil {
		t.Fatal(err)
	}
	if ti.count() != 2 {
		t.Fatalf("%d tokens issued, want 2 (a refresh before expiry)", ti.count())
	}
	// The server forgets the token: the 401 gets a new one, once.
	ti.mu.Lock()
	clear(ti.valid)
	ti.mu.Unlock()
	if _, err := c.ListNamespaces(ctx); err != nil {
		t.Fatalf("after a 401: %v", err)
	}
	if ti.count() != 3 {
		t.Fatalf("%d tokens issued, want 3 (a refresh on 401)", ti.count())
	}

	_, err := Open(ctx, "rest", map[string]string{PropURI: srv.URL, PropCredential: "app:wrong-secret"}, fastOptions())
	wantCode(t, err, pgerr.InsufficientPrivilege)
	if strings.Contains(err.Error(), "wrong-secret") {
		t.Fatalf("error %q shows the secret", err)
	}
}

// TestSigV4: with rest.sigv4-enabled every request is signed for the
// signing region and name.
func TestSigV4(t *testing.T) {
	var unsigned atomic.Int64
	srv := serve(t, sqliteBackend(t), restserver.Options{Authorize: func(r *http.Request) error {
		a := r.Header.Get("Authorization")
		if !strings.HasPrefix(a, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(a, "/eu-west-3/glue/aws4_request") ||
			!strings.Contains(a, "Signature=") || r.Header.Get("X-Amz-Date") == "" || r.Header.Get("X-Amz-Content-Sha256") == "" {
			unsigned.Add(1)
			return fmt.Errorf("not signed: %q", a)
		}
		return nil
	}}, nil)
	c := open(t, srv, map[string]string{PropSigV4Enabled: "true", PropSigningRegion: "eu-west-3", PropSigningName: "glue",
		"rest.access-key-id": "AKIDTEST", "rest.secret-access-key": "secret"}, fastOptions())
	if err := c.CreateNamespace(context.Background(), []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	if unsigned.Load() != 0 {
		t.Fatalf("%d requests unsigned", unsigned.Load())
	}
}

// TestHeaders: header.* properties reach the server, and the access
// delegation header when rest.access-delegation asks for it.
func TestHeaders(t *testing.T) {
	cases := []struct {
		delegation string // the property; "-": unset
		want       string // the header
	}{
		{"-", ""},
		{"true", "vended-credentials"},
		{"remote-signing", "remote-signing"},
		{"false", ""},
	}
	for _, tc := range cases {
		t.Run(tc.delegation, func(t *testing.T) {
			var seen sync.Map
			srv := serve(t, sqliteBackend(t), restserver.Options{}, func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					seen.Store(r.Header.Get("X-Tenant")+"|"+r.Header.Get("X-Iceberg-Access-Delegation"), true)
					h.ServeHTTP(w, r)
				})
			})
			props := map[string]string{"header.X-Tenant": "acme"}
			if tc.delegation != "-" {
				props[PropAccessDelegation] = tc.delegation
			}
			c := open(t, srv, props, fastOptions())
			if _, err := c.ListNamespaces(context.Background()); err != nil {
				t.Fatal(err)
			}
			n := 0
			seen.Range(func(k, _ any) bool {
				n++
				if k != "acme|"+tc.want {
					t.Errorf("request with headers %q, want %q", k, "acme|"+tc.want)
				}
				return true
			})
			if n == 0 {
				t.Fatal("no request seen")
			}
		})
	}
}

// TestFileProps: a table's files are read with the catalog's properties,
// overridden by the table's config, overridden by the storage credentials
// of the longest prefix of its location (vended credentials).
func TestFileProps(t *testing.T) {
	catalogProps := map[string]string{objstore.PropEndpoint: "http://minio:9000", objstore.PropAccessKeyID: "catalog-key",
		objstore.PropSecretAccessKey: "catalog-secret", objstore.PropRegion: "us-east-1"}
	cases := []struct {
		name     string
		config   map[string]string
		creds    []restmsg.StorageCredential
		location string
		wantKey  string
		wantReg  string
	}{
		{"catalog only", nil, nil, "s3://b/db/t", "catalog-key", "us-east-1"},
		{"table config", map[string]string{objstore.PropAccessKeyID: "table-key", objstore.PropSecretAccessKey: "x",
			objstore.PropRegion: "eu-west-1"}, nil, "s3://b/db/t", "table-key", "eu-west-1"},
		{"longest prefix wins", map[string]string{objstore.PropAccessKeyID: "table-key", objstore.PropSecretAccessKey: "x"},
			[]restmsg.StorageCredential{
				{Prefix: "s3://b/", Config: map[string]string{objstore.PropAccessKeyID: "bucket-key", objstore.PropSecretAccessKey: "y"}},
				{Prefix: "s3://b/db/t", Config: map[string]string{objstore.PropAccessKeyID: "vended-key", objstore.PropSecretAccessKey: "z",
					objstore.PropSessionToken: "session"}},
				{Prefix: "s3://other/", Config: map[string]string{objstore.PropAccessKeyID: "other-key", objstore.PropSecretAccessKey: "w"}},
			}, "s3://b/db/t", "vended-key", "us-east-1"},
		{"no prefix matches", nil, []restmsg.StorageCredential{{Prefix: "s3://other/", Config: map[string]string{objstore.PropAccessKeyID: "other-key"}}},
			"s3://b/db/t", "catalog-key", "us-east-1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			props := fileProps(catalogProps, tc.config, tc.creds, tc.location)
			cfg, err := objstore.S3ConfigFromProperties(props)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.AccessKeyID != tc.wantKey || cfg.Region != tc.wantReg || cfg.Endpoint != "http://minio:9000" {
				t.Fatalf("config key %q region %q endpoint %q, want %q %q", cfg.AccessKeyID, cfg.Region, cfg.Endpoint, tc.wantKey, tc.wantReg)
			}
			if tc.wantKey == "vended-key" && cfg.SessionToken != "session" {
				t.Fatalf("session token %q", cfg.SessionToken)
			}
		})
	}
	if catalogProps[objstore.PropAccessKeyID] != "catalog-key" {
		t.Fatal("the catalog's properties were changed")
	}
}

// TestConfig: the server's defaults yield to the client's properties,
// which yield to its overrides; the prefix it sets is in every path; the
// warehouse is asked for.
func TestConfig(t *testing.T) {
	var unprefixed, asked atomic.Int64
	srv := serve(t, sqliteBackend(t), restserver.Options{}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/config" {
				if r.URL.Query().Get("warehouse") == "lake" {
					asked.Add(1)
				}
				w.Header().Set("Content-Type", "application/json")
				json.NewEncoder(w).Encode(restmsg.CatalogConfig{
					Defaults:  map[string]string{"a": "default", "b": "default"},
					Overrides: map[string]string{"b": "override", PropPrefix: "tenant/one"},
				})
				return
			}
			rest, ok := strings.CutPrefix(r.URL.Path, "/v1/tenant/one/")
			if !ok {
				unprefixed.Add(1)
				http.NotFound(w, r)
				return
			}
			r.URL.Path = "/v1/" + rest
			r.URL.RawPath = ""
			h.ServeHTTP(w, r)
		})
	})
	c := open(t, srv, map[string]string{PropWarehouse: "lake", "a": "client", "b": "client"}, fastOptions())
	props := c.Properties()
	if props["a"] != "client" || props["b"] != "override" || asked.Load() != 1 {
		t.Fatalf("properties a=%q b=%q (warehouse asked %d times)", props["a"], props["b"], asked.Load())
	}
	ctx := context.Background()
	if err := c.CreateNamespace(ctx, []string{"db", "inner"}, nil); err == nil {
		t.Fatal("created a namespace under a missing parent")
	}
	if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable2(ctx, t, []string{"db"}, "t"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.LoadTable(ctx, tableID); err != nil {
		t.Fatal(err)
	}
	if unprefixed.Load() != 0 {
		t.Fatalf("%d requests without the prefix", unprefixed.Load())
	}
}
