// Package restclient is a catalog that speaks the Iceberg REST catalog
// protocol to a server: namespaces, tables and views live in the server's
// catalog, which writes every metadata file; the client reads a table's
// files and writes its data and manifests at the table's location (an
// object store with the server's configuration and vended credentials, or
// a local directory).
//
// Open reads the server's configuration (GET /v1/config): its defaults
// under the client's properties, its overrides above them, the URL prefix
// and the endpoints it serves. Requests carry a static bearer token, an
// OAuth2 client-credentials token (refreshed before it expires and once on
// a 401) or an AWS SigV4 signature. Idempotent requests are retried on 429
// and 5xx with exponential backoff; a commit whose outcome is unknown is
// never resent blindly (commit.go).
package restclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/internal/pgerr"
)

// Property names (Iceberg's spelling).
const (
	PropURI              = "uri"
	PropWarehouse        = "warehouse"
	PropPrefix           = "prefix"
	PropCredential       = "credential"
	PropToken            = "token"
	PropScope            = "scope"
	PropOAuth2ServerURI  = "oauth2-server-uri"
	PropHeaderPrefix     = "header."
	PropSigV4Enabled     = "rest.sigv4-enabled"
	PropSigningRegion    = "rest.signing-region"
	PropSigningName      = "rest.signing-name"
	PropAccessDelegation = "rest.access-delegation"
	PropRetryMaxAttempts = "rest.retry.max-attempts"
	PropPageSize         = "rest-page-size"

	defaultScope            = "catalog"
	defaultSigningName      = "execute-api"
	defaultMaxAttempts      = 5
	defaultPageSize         = "1000"
	accessDelegationHeader  = "X-Iceberg-Access-Delegation"
	defaultAccessDelegation = "vended-credentials"
)

// Options are the client's settings that are not catalog properties.
type Options struct {
	// Logger receives the client's log lines (nil: slog.Default()).
	Logger *slog.Logger
	// HTTPClient sends the requests (nil: a client with a 60 s timeout).
	HTTPClient *http.Client
	// RetryBaseDelay is the first retry's delay before jitter (0: 100 ms);
	// each retry doubles it, up to MaxRetryDelay (0: 10 s).
	RetryBaseDelay time.Duration
	MaxRetryDelay  time.Duration
	// Now is the clock that token expiry is measured with (nil: time.Now).
	Now func() time.Time
}

// Catalog is a REST catalog client. It is safe for concurrent use.
type Catalog struct {
	// The commits of each table take turns in this process, so that
	// sessions of one gateway do not race each other through the
	// server's 409s (catalog.CommitChange takes the turns).
	catalog.TableLocks

	name      string
	base      string // the server's URI, no trailing slash
	prefix    string // the path segment(s) after /v1/, "" for none
	props     map[string]string
	endpoints map[string]bool // nil: the server did not say, try every route
	opts      Options
	log       *slog.Logger
	http      *http.Client
	headers   http.Header // header.* properties and access delegation
	auth      *auth
	attempts  int
	pageSize  string // asked of listings

	mu     sync.Mutex
	tables map[string]*loaded      // last LoadTableResult per table, for ETags
	staged map[string]*stagedTable // tables staged and not yet published
	files  *fileStores
	// localCache keeps the parsed files of tables in local directories
	// (object stores have their own: catalog.ObjectFiles).
	localCache *catalog.FileCache
}

var (
	_ catalog.MutableCatalog      = (*Catalog)(nil)
	_ catalog.TableStager         = (*Catalog)(nil)
	_ catalog.MultiTableCommitter = (*Catalog)(nil)
)

// Open connects to the REST catalog at props["uri"] and reads its
// configuration.
func Open(ctx context.Context, name string, props map[string]string, opts Options) (*Catalog, error) {
	uri := strings.TrimSuffix(strings.TrimSpace(props[PropURI]), "/")
	if uri == "" {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "catalog %s: property %q is missing: the REST catalog's URL", name, PropURI)
	}
	if u, err := url.Parse(uri); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "catalog %s: property %q: %q is not an http:// or https:// URL", name, PropURI, uri)
	}
	c := &Catalog{name: name, base: uri, opts: opts, log: opts.Logger, http: opts.HTTPClient,
		tables: map[string]*loaded{}, staged: map[string]*stagedTable{}}
	if c.log == nil {
		c.log = slog.Default()
	}
	if c.http == nil {
		c.http = &http.Client{Timeout: 60 * time.Second}
	}
	if c.opts.Now == nil {
		c.opts.Now = time.Now
	}
	if err := c.configure(props); err != nil {
		return nil, err
	}
	var err error
	if c.auth, err = newAuth(ctx, c, props); err != nil {
		return nil, err
	}
	cfg, err := c.fetchConfig(ctx, props[PropWarehouse])
	if err != nil {
		return nil, err
	}
	merged := maps.Clone(cfg.Defaults)
	if merged == nil {
		merged = map[string]string{}
	}
	maps.Copy(merged, props)
	maps.Copy(merged, cfg.Overrides)
	merged[PropURI] = props[PropURI] // the address stays the one connected to
	if err := c.configure(merged); err != nil {
		return nil, err
	}
	if len(cfg.Endpoints) > 0 {
		c.endpoints = map[string]bool{}
		for _, e := range cfg.Endpoints {
			c.endpoints[strings.Join(strings.Fields(e), " ")] = true
		}
	}
	c.files = newFileStores(c.name)
	c.localCache = catalog.NewFileCache()
	return c, nil
}

// configure reads the properties that shape requests.
func (c *Catalog) configure(props map[string]string) error {
	c.props = props
	c.prefix = strings.Trim(props[PropPrefix], "/")
	c.attempts = defaultMaxAttempts
	if v, ok := props[PropRetryMaxAttempts]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 100 {
			return pgerr.New(pgerr.InvalidParameterValue, "catalog %s: invalid value for property %q: %q", c.name, PropRetryMaxAttempts, v).
				WithDetail("The value must be an integer from 1 to 100.")
		}
		c.attempts = n
	}
	c.pageSize = defaultPageSize
	if v, ok := props[PropPageSize]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return pgerr.New(pgerr.InvalidParameterValue, "catalog %s: invalid value for property %q: %q", c.name, PropPageSize, v).
				WithDetail("The value must be a positive integer.")
		}
		c.pageSize = strconv.Itoa(n)
	}
	c.headers = http.Header{}
	for k, v := range props {
		if h, ok := strings.CutPrefix(k, PropHeaderPrefix); ok && h != "" {
			c.headers.Set(h, v)
		}
	}
	// Access delegation is asked for only when configured: a server that
	// cannot vend credentials may refuse requests that ask for them.
	switch v := strings.TrimSpace(props[PropAccessDelegation]); strings.ToLower(v) {
	case "", "false", "none":
	case "true":
		c.headers.Set(accessDelegationHeader, defaultAccessDelegation)
	default:
		c.headers.Set(accessDelegationHeader, v)
	}
	return nil
}

// fetchConfig asks the server for its configuration.
func (c *Catalog) fetchConfig(ctx context.Context, warehouse string) (*restmsg.CatalogConfig, error) {
	q := url.Values{}
	if warehouse != "" {
		q.Set("warehouse", warehouse)
	}
	resp, err := c.do(ctx, &request{method: http.MethodGet, path: "config", query: q, noPrefix: true, what: "read the catalog configuration"})
	if err != nil {
		return nil, err
	}
	var cfg restmsg.CatalogConfig
	if err := json.Unmarshal(resp.body, &cfg); err != nil {
		return nil, pgerr.Wrap(err, pgerr.ProtocolViolation, "catalog %s: the REST catalog at %s answered an invalid configuration: %v", c.name, c.base, err)
	}
	return &cfg, nil
}

// Name implements catalog.Catalog.
func (c *Catalog) Name() string { return c.name }

// Properties are the catalog's properties: the server's defaults, the
// client's, the server's overrides.
func (c *Catalog) Properties() map[string]string { return maps.Clone(c.props) }

// URI is the server's address.
func (c *Catalog) URI() string { return c.base }

// Close releases what the catalog holds.
func (c *Catalog) Close(ctx context.Context) error {
	c.http.CloseIdleConnections()
	return nil
}

// supports reports whether the server serves route ("POST
// /v1/{prefix}/namespaces"); an error 0A000 when it does not.
func (c *Catalog) supports(method, route, what string) error {
	if c.endpoints == nil || c.endpoints[method+" "+route] {
		return nil
	}
	return pgerr.Wrap(fmt.Errorf("catalog %s: %s: the server does not serve %s %s: %w", c.name, what, method, route, catalog.ErrUnsupported),
		pgerr.FeatureNotSupported, "catalog %s: cannot %s: the REST catalog at %s does not offer it (%s %s)", c.name, what, c.base, method, route)
}

// qualified is a table's dotted name for messages.
func qualified(id catalog.Identifier) string {
	return strings.Join(append(append([]string(nil), id.Namespace...), id.Name), ".")
}
