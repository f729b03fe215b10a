package restserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/catalog/restmsg"
)

// passwordAuth is an Authenticator with user ann (password "secret one").
func passwordAuth(t *testing.T) *auth.Authenticator {
	t.Helper()
	v, err := auth.NewVerifier("secret one")
	if err != nil {
		t.Fatal(err)
	}
	a, err := auth.New([]auth.User{{Name: "ann", SCRAM: v}}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func newTokens(t *testing.T, pw Passwords) *Tokens {
	t.Helper()
	tk, err := NewTokens(pw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// tokenRequest posts a token request: form fields, and basic ("user:pw")
// credentials when set.
func tokenRequest(t *testing.T, srv *httptest.Server, form url.Values, basic string) response {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL+"/v1/oauth/tokens", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if u, p, ok := strings.Cut(basic, ":"); ok {
		req.SetBasicAuth(u, p)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r response
	r.status, r.header = resp.StatusCode, resp.Header
	if r.body, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTokenEndpoint(t *testing.T) {
	srv := serveMulti(t, []Named{{Name: "lake", Catalog: filesystem(t, "lake")}}, Options{Tokens: newTokens(t, passwordAuth(t))})
	creds := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	tests := []struct {
		name   string
		form   url.Values
		basic  string
		status int
		oauth  string // the OAuth error code; "" for a token
	}{
		{"form credentials", creds("grant_type", "client_credentials", "client_id", "ann", "client_secret", "secret one", "scope", "catalog"), "", 200, ""},
		{"basic credentials", creds("grant_type", "client_credentials"), "ann:secret one", 200, ""},
		{"wrong password", creds("grant_type", "client_credentials", "client_id", "ann", "client_secret", "secret two"), "", 401, "invalid_client"},
		{"wrong basic password", creds("grant_type", "client_credentials"), "ann:nope", 401, "invalid_client"},
		{"unknown user", creds("grant_type", "client_credentials", "client_id", "bob", "client_secret", "secret one"), "", 401, "invalid_client"},
		{"no credentials", creds("grant_type", "client_credentials"), "", 401, "invalid_client"},
		{"no grant type", creds("client_id", "ann", "client_secret", "secret one"), "", 400, "invalid_request"},
		{"token exchange without a subject token", creds("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange", "client_id", "ann", "client_secret", "secret one"), "", 400, "invalid_request"},
		{"password grant", creds("grant_type", "password", "username", "ann", "password", "secret one"), "", 400, "unsupported_grant_type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tokenRequest(t, srv, tc.form, tc.basic)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			if tc.oauth != "" {
				var e restmsg.OAuthError
				if err := json.Unmarshal(r.body, &e); err != nil || e.Error != tc.oauth || e.ErrorDescription == "" {
					t.Fatalf("error body %s (%v), want OAuth error %s with a description", r.body, err, tc.oauth)
				}
				if strings.Contains(string(r.body), "secret") {
					t.Fatalf("the error repeats the secret: %s", r.body)
				}
				return
			}
			tok := decodeBody[restmsg.OAuthTokenResponse](t, r)
			if tok.AccessToken == "" || !strings.EqualFold(tok.TokenType, "bearer") || tok.ExpiresIn != int64(TokenLifetime/time.Second) ||
				tok.IssuedTokenType != "urn:ietf:params:oauth:token-type:access_token" {
				t.Fatalf("token response %+v", tok)
			}
			if r.header.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", r.header.Get("Cache-Control"))
			}
			if got := call(t, srv, "GET", "/v1/namespaces", nil, "Authorization", "Bearer "+tok.AccessToken); got.status != 200 {
				t.Fatalf("the issued token is refused: %d %s", got.status, got.body)
			}
		})
	}
	// Refresh: a valid token exchanged for a new one of the same user.
	tk := newTokens(t, passwordAuth(t))
	srv2 := serveMulti(t, []Named{{Name: "lake", Catalog: filesystem(t, "lake")}}, Options{Tokens: tk})
	good := tk.issue("ann")
	expired := newTokens(t, passwordAuth(t))
	expired.key = tk.key
	expired.now = func() time.Time { return time.Now().Add(-2 * TokenLifetime) }
	const exchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	const accessType = "urn:ietf:params:oauth:token-type:access_token"
	for _, tc := range []struct {
		name    string
		subject string
		status  int
		oauth   string
	}{
		{"refresh a valid token", good, 200, ""},
		{"refresh an expired token", expired.issue("ann"), 400, "invalid_grant"},
		{"refresh a forged token", good + "x", 400, "invalid_grant"},
		{"no subject token", "", 400, "invalid_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form := url.Values{"grant_type": {exchange}, "subject_token_type": {accessType}}
			if tc.subject != "" {
				form.Set("subject_token", tc.subject)
			}
			r := tokenRequest(t, srv2, form, "")
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			if tc.oauth != "" {
				if e := decodeBody[restmsg.OAuthError](t, r); e.Error != tc.oauth {
					t.Fatalf("error %+v, want %s", e, tc.oauth)
				}
				return
			}
			tok := decodeBody[restmsg.OAuthTokenResponse](t, r)
			user, err := tk.check(tok.AccessToken)
			if err != nil || user != "ann" {
				t.Fatalf("refreshed token: user %q, %v", user, err)
			}
		})
	}

	if r := call(t, srv, "GET", "/v1/oauth/tokens", nil); r.status != 405 {
		t.Errorf("GET on the token endpoint: %d, want 405", r.status)
	}
}

func TestBearerRequired(t *testing.T) {
	pw := passwordAuth(t)
	tk := newTokens(t, pw)
	srv := serveMulti(t, []Named{{Name: "lake", Catalog: filesystem(t, "lake")}}, Options{Tokens: tk})
	good := tk.issue("ann")
	other := newTokens(t, pw) // another process: another key
	expired := newTokens(t, pw)
	expired.key = tk.key
	expired.now = func() time.Time { return time.Now().Add(-2 * TokenLifetime) }
	forged := []byte(good)
	forged[len(forged)-2] ^= 1
	// The same signature over another user's name.
	bobTok := tk.issue("bob")
	bob := bobTok[:strings.LastIndexByte(bobTok, '.')] + good[strings.LastIndexByte(good, '.'):]
	tests := []struct {
		name, header string
		want         int
	}{
		{"valid token", "Bearer " + good, 200},
		{"lower-case scheme", "bearer " + good, 200},
		{"no Authorization header", "", 401},
		{"basic credentials instead of a token", "Basic YW5uOnNlY3JldCBvbmU=", 401},
		{"empty bearer", "Bearer ", 401},
		{"forged signature", "Bearer " + string(forged), 401},
		{"signature moved to another user", "Bearer " + bob, 401},
		{"token of another process", "Bearer " + other.issue("ann"), 401},
		{"expired token", "Bearer " + expired.issue("ann"), 401},
		{"garbage", "Bearer not-a-token", 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/v1/config", "/v1/namespaces", "/v1/lake/namespaces", "/v1/config?warehouse=lake"} {
				var r response
				if tc.header == "" {
					r = call(t, srv, "GET", path, nil)
				} else {
					r = call(t, srv, "GET", path, nil, "Authorization", tc.header)
				}
				if tc.want == 200 {
					if r.status != 200 {
						t.Fatalf("GET %s: %d %s", path, r.status, r.body)
					}
					continue
				}
				checkError(t, r, 401, restmsg.NotAuthorized)
			}
		})
	}
	// A refused write changes nothing.
	checkError(t, call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`, "Authorization", "Bearer "+string(forged)), 401, restmsg.NotAuthorized)
	if r := call(t, srv, "HEAD", "/v1/namespaces/db", nil, "Authorization", "Bearer "+good); r.status != 404 {
		t.Fatalf("a refused create made the namespace: %d", r.status)
	}
}

// Without passwords, loopback clients need no token and others are
// refused, on the catalog routes and the token endpoint.
func TestTrustLoopbackOnly(t *testing.T) {
	trust, err := auth.New(nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewMulti([]Named{{Name: "lake", Catalog: filesystem(t, "lake")}}, Options{Tokens: newTokens(t, trust)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h) // on 127.0.0.1
	t.Cleanup(srv.Close)
	if r := call(t, srv, "GET", "/v1/namespaces", nil); r.status != 200 {
		t.Fatalf("loopback client without a token: %d %s", r.status, r.body)
	}
	if r := tokenRequest(t, srv, url.Values{"grant_type": {"client_credentials"}, "client_id": {"icegate"}}, ""); r.status != 200 {
		t.Fatalf("token for a loopback client: %d %s", r.status, r.body)
	}
	// A remote address cannot be had from a test's own connections: the
	// handler is given requests whose RemoteAddr says where they came from.
	tests := []struct {
		remote string
		want   int
	}{
		{"127.0.0.1:5000", 200},
		{"[::1]:5000", 200},
		{"[::ffff:127.0.0.1]:5000", 200},
		{"192.0.2.7:5000", 401},
		{"[2001:db8::1]:5000", 401},
		{"10.0.0.1:5000", 401},
	}
	for _, tc := range tests {
		t.Run(tc.remote, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/v1/namespaces", nil)
			req.RemoteAddr = tc.remote
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("catalog route: %d, want %d: %s", rec.Code, tc.want, rec.Body)
			}
			req = httptest.NewRequest("POST", "/v1/oauth/tokens", strings.NewReader("grant_type=client_credentials&client_id=icegate"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.RemoteAddr = tc.remote
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("token endpoint: %d, want %d: %s", rec.Code, tc.want, rec.Body)
			}
		})
	}
}
