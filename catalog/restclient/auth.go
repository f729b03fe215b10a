package restclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/internal/pgerr"
)

// auth authenticates requests: a static bearer token, or an OAuth2
// client-credentials token, and/or a SigV4 signature.
type auth struct {
	c      *Catalog
	static string // the "token" property
	oauth  *oauth
	sigv4  *sigv4
}

func newAuth(ctx context.Context, c *Catalog, props map[string]string) (*auth, error) {
	a := &auth{c: c, static: props[PropToken]}
	if cred := props[PropCredential]; cred != "" {
		id, secret, ok := strings.Cut(cred, ":")
		if !ok {
			id, secret = "", cred
		}
		endpoint := props[PropOAuth2ServerURI]
		if endpoint == "" {
			endpoint = c.base + "/v1/oauth/tokens"
		}
		scope := props[PropScope]
		if scope == "" {
			scope = defaultScope
		}
		a.oauth = &oauth{c: c, endpoint: endpoint, clientID: id, secret: secret, scope: scope}
	}
	if on, _ := strconv.ParseBool(props[PropSigV4Enabled]); on {
		s, err := newSigV4(ctx, c.name, props)
		if err != nil {
			return nil, err
		}
		a.sigv4 = s
	}
	return a, nil
}

// canRefresh reports whether a 401 can be answered by getting a new token.
func (a *auth) canRefresh() bool { return a.oauth != nil }

// refresh gets a new OAuth2 token now.
func (a *auth) refresh(ctx context.Context) error {
	_, err := a.oauth.get(ctx, true)
	return err
}

// apply sets the request's Authorization header (and signs it).
func (a *auth) apply(ctx context.Context, req *http.Request, body []byte) error {
	token := a.static
	if a.oauth != nil {
		t, err := a.oauth.get(ctx, false)
		if err != nil {
			return err
		}
		token = t
	}
	if a.sigv4 != nil {
		if token != "" {
			// The signature takes the Authorization header; a token goes
			// alongside, as Iceberg's signing clients send it.
			req.Header.Set("Original-Authorization", "Bearer "+token)
		}
		return a.sigv4.sign(ctx, req, body, a.c.opts.Now())
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return nil
}

// oauth holds an OAuth2 client-credentials token and gets a new one before
// it expires.
type oauth struct {
	c                 *Catalog
	endpoint          string
	clientID, secret  string
	scope             string
	mu                sync.Mutex
	token             string
	expires, refreshA time.Time // zero: does not expire
}

// get returns the current token, asking the endpoint for a new one when
// there is none, when it is due for refresh, or with force.
func (o *oauth) get(ctx context.Context, force bool) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.c.opts.Now()
	if !force && o.token != "" && (o.refreshA.IsZero() || now.Before(o.refreshA)) {
		return o.token, nil
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_secret": {o.secret}, "scope": {o.scope}}
	if o.clientID != "" {
		form.Set("client_id", o.clientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("catalog %s: OAuth2 token endpoint %s: %w", o.c.name, o.endpoint, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := o.c.http.Do(req)
	if err != nil {
		return "", pgerr.Wrap(err, pgerr.IOError, "catalog %s: cannot get a token: the OAuth2 token endpoint %s did not answer: %v",
			o.c.name, o.endpoint, describeNetErr(err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", pgerr.Wrap(err, pgerr.IOError, "catalog %s: cannot get a token from %s: %v", o.c.name, o.endpoint, err)
	}
	if resp.StatusCode != http.StatusOK {
		var oe restmsg.OAuthError
		why := http.StatusText(resp.StatusCode)
		if json.Unmarshal(raw, &oe) == nil && oe.Error != "" {
			why = oe.Error
			if oe.ErrorDescription != "" {
				why += ": " + oe.ErrorDescription
			}
		}
		code := pgerr.IOError
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusBadRequest {
			code = pgerr.InsufficientPrivilege
		}
		return "", pgerr.New(code, "catalog %s: the OAuth2 token endpoint %s refused the credential (%d): %s",
			o.c.name, o.endpoint, resp.StatusCode, why)
	}
	var tr restmsg.OAuthTokenResponse
	if err := json.Unmarshal(raw, &tr); err != nil || tr.AccessToken == "" {
		return "", pgerr.New(pgerr.ProtocolViolation, "catalog %s: the OAuth2 token endpoint %s answered no access token", o.c.name, o.endpoint)
	}
	o.token = tr.AccessToken
	o.expires, o.refreshA = time.Time{}, time.Time{}
	if tr.ExpiresIn > 0 {
		life := time.Duration(tr.ExpiresIn) * time.Second
		o.expires = now.Add(life)
		// Refresh when a tenth of its life (at most 5 minutes) is left.
		o.refreshA = o.expires.Add(-min(life/10, 5*time.Minute))
	}
	o.c.log.Debug("REST catalog: got an OAuth2 token", "catalog", o.c.name, "expires_in", tr.ExpiresIn)
	return o.token, nil
}

// sigv4 signs requests with AWS Signature Version 4.
type sigv4 struct {
	signer  *v4.Signer
	creds   aws.CredentialsProvider
	region  string
	service string
}

func newSigV4(ctx context.Context, name string, props map[string]string) (*sigv4, error) {
	s := &sigv4{signer: v4.NewSigner(), region: props[PropSigningRegion], service: props[PropSigningName]}
	if s.service == "" {
		s.service = defaultSigningName
	}
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := props[k]; v != "" {
				return v
			}
		}
		return ""
	}
	if s.region == "" {
		s.region = first("client.region", "s3.region")
	}
	id := first("rest.access-key-id", "s3.access-key-id")
	secret := first("rest.secret-access-key", "s3.secret-access-key")
	token := first("rest.session-token", "s3.session-token")
	if id != "" {
		s.creds = credentials.NewStaticCredentialsProvider(id, secret, token)
	} else {
		cfg, err := awsconfig.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.InvalidParameterValue, "catalog %s: SigV4 signing: cannot load AWS credentials: %v", name, err)
		}
		s.creds = cfg.Credentials
		if s.region == "" {
			s.region = cfg.Region
		}
	}
	if s.region == "" {
		s.region = "us-east-1"
	}
	return s, nil
}

func (s *sigv4) sign(ctx context.Context, req *http.Request, body []byte, now time.Time) error {
	if s.creds == nil {
		return pgerr.New(pgerr.InsufficientPrivilege, "SigV4 signing: no AWS credentials")
	}
	creds, err := s.creds.Retrieve(ctx)
	if err != nil {
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege, "SigV4 signing: cannot get AWS credentials: %v", err)
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	req.Header.Set("X-Amz-Content-Sha256", hash)
	return s.signer.SignHTTP(ctx, creds, req, hash, s.service, s.region, now)
}
