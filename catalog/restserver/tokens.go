package restserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog/restmsg"
)

// TokenLifetime is how long an access token of the token endpoint is valid.
const TokenLifetime = time.Hour

// TokenPath is the protocol's OAuth2 token endpoint. It has no prefix: one
// token serves every catalog of the listener.
const TokenPath = "/v1/oauth/tokens"

// maxTokenBody bounds a token request's form body.
const maxTokenBody = 64 << 10

// Passwords checks logins for the token endpoint; *auth.Authenticator is
// one.
type Passwords interface {
	// CheckPassword reports whether password is user's.
	CheckPassword(user, password string) bool
	// Trust reports that no password is configured: then clients on
	// loopback addresses need none, as on the PostgreSQL port, and every
	// other client is refused.
	Trust() bool
}

// Tokens issues and checks the bearer tokens of the REST catalog. A token
// names its user and expiry and is signed (HMAC-SHA-256) with a key drawn
// at random when the Tokens is made: tokens are valid only on the gateway
// process that issued them, and none survives a restart; clients fetch a
// new one with their credential, as they do when one expires.
type Tokens struct {
	pw  Passwords
	log *slog.Logger
	key []byte
	ttl time.Duration
	now func() time.Time
}

// NewTokens returns the token issuer and checker over pw; failed logins
// are logged to logger (nil: slog.Default()) as on the PostgreSQL port.
func NewTokens(pw Passwords, logger *slog.Logger) (*Tokens, error) {
	if logger == nil {
		logger = slog.Default()
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("generate the token signing key: %w", err)
	}
	return &Tokens{pw: pw, log: logger, key: key, ttl: TokenLifetime, now: time.Now}, nil
}

const tokenVersion = "ig1"

// OAuth2 names of the token exchange grant (RFC 8693) and of access tokens.
const (
	tokenExchange   = "urn:ietf:params:oauth:grant-type:token-exchange"
	accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
)

// issue returns a token for user valid for the lifetime.
func (t *Tokens) issue(user string) string {
	exp := t.now().Add(t.ttl).Unix()
	body := tokenVersion + "." + base64.RawURLEncoding.EncodeToString([]byte(user)) + "." + strconv.FormatInt(exp, 10)
	return body + "." + base64.RawURLEncoding.EncodeToString(t.sign(body))
}

func (t *Tokens) sign(body string) []byte {
	mac := hmac.New(sha256.New, t.key)
	mac.Write([]byte(body))
	return mac.Sum(nil)
}

var errBadToken = errors.New("the bearer token is not one this gateway issued (tokens do not survive a restart; fetch a new one)")

// check returns the user a token names, or why it is not valid.
func (t *Tokens) check(token string) (string, error) {
	i := strings.LastIndexByte(token, '.')
	if i < 0 {
		return "", errBadToken
	}
	body, sig := token[:i], token[i+1:]
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, t.sign(body)) {
		return "", errBadToken
	}
	parts := strings.Split(body, ".")
	if len(parts) != 3 || parts[0] != tokenVersion {
		return "", errBadToken
	}
	user, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return "", errBadToken
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return "", errBadToken
	}
	if !t.now().Before(time.Unix(exp, 0)) {
		return "", fmt.Errorf("the bearer token of user %q expired at %s; fetch a new one", user, time.Unix(exp, 0).UTC().Format(time.RFC3339))
	}
	return string(user), nil
}

// authorize says whether r may use the catalog routes: it carries a valid
// bearer token, or no password is configured and r comes from a loopback
// address.
func (t *Tokens) authorize(r *http.Request) error {
	h := r.Header.Get("Authorization")
	if h == "" {
		if t.pw.Trust() {
			if loopback(r.RemoteAddr) {
				return nil
			}
			return errors.New("no password is configured, so only clients on loopback addresses are served")
		}
		return fmt.Errorf("a bearer token is required: fetch one with POST %s (client_id and client_secret are an icegate user and its password)", TokenPath)
	}
	scheme, token, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return errors.New("the Authorization header must be a bearer token")
	}
	_, err := t.check(strings.TrimSpace(token))
	return err
}

// loopback reports whether a request's remote address is a loopback one.
func loopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// serveToken answers the token endpoint: the client credentials grant,
// with the icegate user and its password as client_id and client_secret,
// in the form body or as HTTP Basic credentials; and the token exchange
// grant with one of our valid tokens as subject_token, which refreshes it.
// Errors are the OAuth2 error form: 400 for a malformed or unsupported
// request or a bad subject token (invalid_grant), 401 invalid_client for a
// wrong login.
func (t *Tokens) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "the token endpoint takes POST")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxTokenBody)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "malformed form body: "+err.Error())
		return
	}
	if t.pw.Trust() && !loopback(r.RemoteAddr) {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "no password is configured, so only clients on loopback addresses are served")
		return
	}
	var user string
	switch gt := r.PostForm.Get("grant_type"); gt {
	case "client_credentials":
		var ok bool
		if user, ok = t.login(w, r); !ok {
			return
		}
	case tokenExchange:
		// A refresh: a valid token of ours for a new one of the same
		// user. An expired token cannot be refreshed; the client logs in
		// again with its credential.
		subject := r.PostForm.Get("subject_token")
		if subject == "" {
			oauthError(w, http.StatusBadRequest, "invalid_request", "subject_token is missing")
			return
		}
		if st := r.PostForm.Get("subject_token_type"); st != "" && st != accessTokenType {
			oauthError(w, http.StatusBadRequest, "invalid_request", fmt.Sprintf("subject_token_type %q is not supported: want %s", st, accessTokenType))
			return
		}
		var err error
		if user, err = t.check(subject); err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_grant", err.Error())
			return
		}
	case "":
		oauthError(w, http.StatusBadRequest, "invalid_request", "grant_type is missing")
		return
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type",
			fmt.Sprintf("grant_type %q is not supported: use client_credentials with an icegate user and its password", gt))
		return
	}
	body, err := json.Marshal(restmsg.OAuthTokenResponse{
		AccessToken:     t.issue(user),
		TokenType:       "bearer",
		ExpiresIn:       int64(t.ttl / time.Second),
		IssuedTokenType: accessTokenType,
	})
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "invalid_request", "encode the token response")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// login checks the client credentials of a token request: the icegate
// user and its password as client_id and client_secret, in the form body
// or as HTTP Basic credentials. On a failure it answers 401
// invalid_client.
func (t *Tokens) login(w http.ResponseWriter, r *http.Request) (string, bool) {
	user, password, basic := r.BasicAuth()
	if !basic {
		user, password = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	// Without passwords (trust), loopback clients are trusted as on the
	// PostgreSQL port, whatever they present; serveToken refused the
	// others.
	if t.pw.Trust() || (user != "" && t.pw.CheckPassword(user, password)) {
		return user, true
	}
	t.log.Info("REST catalog: authentication failed", "user", user, "remote", r.RemoteAddr)
	if basic {
		w.Header().Set("WWW-Authenticate", `Basic realm="icegate"`)
	}
	oauthError(w, http.StatusUnauthorized, "invalid_client", fmt.Sprintf("authentication failed for user %q", user))
	return "", false
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	body, _ := json.Marshal(restmsg.OAuthError{Error: code, ErrorDescription: desc})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}
