// Package restserver serves the Iceberg REST catalog protocol over a
// catalog.MutableCatalog, so that other engines (Spark, Trino, PyIceberg)
// can use the tables icegate serves. New speaks the prefix-less form of
// the protocol over one catalog: every route is under /v1, and GET
// /v1/config lists them. NewMulti serves several catalogs, each under its
// name as prefix (/v1/<name>/...), chosen by GET /v1/config?warehouse=<name>.
//
// With Options.Tokens, clients log in at POST /v1/oauth/tokens with an
// icegate user and password (the OAuth2 client credentials grant) and
// present the bearer token on every other route; tokens are signed with a
// key of the process and do not survive a restart.
//
// Every failure is answered with the protocol's ErrorModel JSON: the
// catalog's error kinds map to statuses as restmsg.NewErrorResponse says,
// a malformed request is 400 BadRequestException before anything is
// changed, an unknown route 404 and a wrong method 405. Operations the
// catalogs cannot do (view renames, multi-table transactions, namespace
// properties where the catalog keeps none) are answered 406 or 501 with a
// message that says so.
package restserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/internal/pgerr"
)

// Options configure the server.
type Options struct {
	// Logger receives a line per failed request (nil: slog.Default()).
	Logger *slog.Logger
	// Authorize, when set, runs before anything else for every request;
	// an error is answered 401 NotAuthorizedException with its message.
	Authorize func(r *http.Request) error
	// MaxBodyBytes bounds request bodies (0: 16 MiB).
	MaxBodyBytes int64
	// Tokens, when set, serves the token endpoint (POST /v1/oauth/tokens)
	// and requires one of its bearer tokens on every other route, but
	// for loopback clients when no password is configured. Authorize, if
	// also set, runs after it.
	Tokens *Tokens
	// VendCredentials lets a client that asks for vended credentials
	// (header X-Iceberg-Access-Delegation: vended-credentials) receive the
	// storage credentials of the catalog (Named.Credentials) with the
	// tables it loads or creates. Off, no response carries a credential.
	VendCredentials bool
}

const defaultMaxBody = 16 << 20

// server holds the catalog and the routes.
type server struct {
	cat     catalog.MutableCatalog
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	routes  []string // the served endpoints, as GET /v1/config lists them
	maxBody int64
	// creds are the storage properties vended to clients that ask, when
	// opts.VendCredentials is set.
	creds map[string]string
}

// New returns the handler serving the REST catalog protocol over cat,
// prefix-less. NewMulti serves several catalogs.
func New(cat catalog.MutableCatalog, opts Options) http.Handler {
	return newServer(cat, opts)
}

func newServer(cat catalog.MutableCatalog, opts Options) *server {
	s := &server{cat: cat, opts: opts, log: opts.Logger, mux: http.NewServeMux(), maxBody: opts.MaxBodyBytes}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.maxBody <= 0 {
		s.maxBody = defaultMaxBody
	}
	const ns = "/v1/namespaces/{namespace}"
	s.handle("GET /v1/config", s.getConfig)
	s.handle("GET /v1/namespaces", s.listNamespaces)
	s.handle("POST /v1/namespaces", s.createNamespace)
	s.handle("GET "+ns, s.loadNamespace)
	s.handle("HEAD "+ns, s.namespaceExists)
	s.handle("DELETE "+ns, s.dropNamespace)
	s.handle("POST "+ns+"/properties", s.updateNamespaceProperties)
	s.handle("GET "+ns+"/tables", s.listTables)
	s.handle("POST "+ns+"/tables", s.createTable)
	s.handle("GET "+ns+"/tables/{table}", s.loadTable)
	s.handle("HEAD "+ns+"/tables/{table}", s.tableExists)
	s.handle("POST "+ns+"/tables/{table}", s.commitTable)
	s.handle("DELETE "+ns+"/tables/{table}", s.dropTable)
	s.handle("POST "+ns+"/tables/{table}/metrics", s.reportMetrics)
	s.handle("POST "+ns+"/register", s.registerTable)
	s.handle("POST /v1/tables/rename", s.renameTable)
	s.handle("GET "+ns+"/views", s.listViews)
	s.handle("POST "+ns+"/views", s.createView)
	s.handle("GET "+ns+"/views/{view}", s.loadView)
	s.handle("HEAD "+ns+"/views/{view}", s.viewExists)
	s.handle("DELETE "+ns+"/views/{view}", s.dropView)
	s.handle("POST "+ns+"/views/{view}", s.commitView)
	if _, ok := cat.(catalog.MultiTableCommitter); ok {
		s.handle("POST /v1/transactions/commit", s.commitTransaction)
	} else {
		s.unimplemented("POST /v1/transactions/commit",
			"multi-table transactions are not implemented by this catalog: it commits one table at a time")
	}
	// Routes of the protocol that are answered 501: registered so that
	// clients get a clear message rather than 404, and not listed in the
	// configuration's endpoints.
	s.unimplemented("POST /v1/views/rename", "renaming views is not implemented by this server")
	s.unimplemented("POST /v1/oauth/tokens", "this server issues no OAuth tokens")
	return s
}

// handle registers a served route and lists it as an endpoint.
func (s *server) handle(pattern string, h func(w http.ResponseWriter, r *http.Request) error) {
	s.routes = append(s.routes, endpointName(pattern))
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.fail(w, r, err)
		}
	})
}

// endpointName is a route as the configuration lists it ("GET
// /v1/{prefix}/namespaces/{namespace}"); this server has no prefix, but
// clients compare with the protocol's spelling.
func endpointName(pattern string) string {
	method, path, _ := strings.Cut(pattern, " ")
	return method + " " + strings.Replace(path, "/v1/", "/v1/{prefix}/", 1)
}

// unimplemented registers a route of the protocol the server does not
// serve: 501 with msg.
func (s *server) unimplemented(pattern, msg string) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, http.StatusNotImplemented, restmsg.UnsupportedOperation, msg)
	})
}

// ServeHTTP authorizes the request, then routes it.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Tokens != nil && r.URL.Path == TokenPath {
		s.opts.Tokens.serveToken(w, r)
		return
	}
	if !s.authorized(w, r) {
		return
	}
	s.route(w, r)
}

// authorized runs the token check and Authorize; on a failure it answers
// 401 NotAuthorizedException and returns false.
func (s *server) authorized(w http.ResponseWriter, r *http.Request) bool {
	for _, check := range []func(*http.Request) error{s.tokenCheck(), s.opts.Authorize} {
		if check == nil {
			continue
		}
		if err := check(r); err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="icegate"`)
			s.writeError(w, r, http.StatusUnauthorized, restmsg.NotAuthorized, "not authorized: "+err.Error())
			return false
		}
	}
	return true
}

func (s *server) tokenCheck() func(*http.Request) error {
	if s.opts.Tokens == nil {
		return nil
	}
	return s.opts.Tokens.authorize
}

// route serves an authorized request; requests no route takes are
// answered 404 or 405 in the ErrorModel form.
func (s *server) route(w http.ResponseWriter, r *http.Request) {
	h, pattern := s.mux.Handler(r)
	if pattern == "" {
		// The mux answers 404, or 405 with the Allow header; keep its
		// status and headers, write our body.
		cw := &captureWriter{header: w.Header()}
		h.ServeHTTP(cw, r)
		status := cw.status
		if status == 0 {
			status = http.StatusNotFound
		}
		switch status {
		case http.StatusMethodNotAllowed:
			s.writeError(w, r, status, restmsg.BadRequest, fmt.Sprintf("method %s is not allowed for %s", r.Method, r.URL.Path))
		case http.StatusNotFound:
			s.writeError(w, r, status, restmsg.BadRequest, fmt.Sprintf("no route for %s %s", r.Method, r.URL.Path))
		default:
			// A redirect (a path to clean): pass it on as the mux wrote it.
			w.WriteHeader(status)
		}
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, s.maxBody)
	}
	// The mux itself sets the path values the handlers read.
	s.mux.ServeHTTP(w, r)
}

// captureWriter keeps the status the mux's own 404 and 405 handlers write
// and drops their plain-text body.
type captureWriter struct {
	header http.Header
	status int
}

func (c *captureWriter) Header() http.Header { return c.header }
func (c *captureWriter) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}
func (c *captureWriter) Write(b []byte) (int, error) {
	c.WriteHeader(http.StatusOK)
	return len(b), nil
}

// requestError is a request the server refuses before touching the
// catalog: its status and exception type are its own.
type requestError struct {
	status int
	kind   string
	msg    string
}

func (e *requestError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &requestError{status: http.StatusBadRequest, kind: restmsg.BadRequest, msg: fmt.Sprintf(format, args...)}
}

func notImplemented(format string, args ...any) error {
	return &requestError{status: http.StatusNotImplemented, kind: restmsg.UnsupportedOperation, msg: fmt.Sprintf(format, args...)}
}

// notFoundAs marks a catalog error whose ErrNotFound names an object of
// the given exception type (a missing namespace when a table was asked
// for, say).
type notFoundAs struct {
	err  error
	kind string
}

func (e *notFoundAs) Error() string { return e.err.Error() }
func (e *notFoundAs) Unwrap() error { return e.err }

// as says which kind of object a not-found error of err is about.
func as(kind string, err error) error {
	if err == nil {
		return nil
	}
	var nf *notFoundAs
	if errors.As(err, &nf) {
		return err
	}
	return &notFoundAs{err: err, kind: kind}
}

// fail answers err: a request error as it says, a catalog error by its kind.
func (s *server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var re *requestError
	if errors.As(err, &re) {
		s.writeError(w, r, re.status, re.kind, re.msg)
		return
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		s.writeError(w, r, http.StatusRequestEntityTooLarge, restmsg.BadRequest,
			fmt.Sprintf("request body is larger than %d bytes", mbe.Limit))
		return
	}
	if errors.Is(err, context.Canceled) {
		s.log.Debug("REST catalog request canceled", "method", r.Method, "path", r.URL.Path)
		return
	}
	notFound := restmsg.NoSuchTable
	var nf *notFoundAs
	if errors.As(err, &nf) {
		notFound = nf.kind
	}
	resp := restmsg.NewErrorResponse(err, notFound)
	if resp.Error.Code == http.StatusInternalServerError {
		if status, kind, ok := sqlstateStatus(err); ok {
			resp.Error = restmsg.ErrorModel{Message: pgerr.As(err).Message, Type: kind, Code: status}
		}
	}
	if resp.Error.Code >= 500 {
		s.log.Error("REST catalog request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	s.writeJSONStatus(w, r, resp.Error.Code, resp)
}

// sqlstateStatus maps the errors the catalogs give with a SQLSTATE and no
// catalog kind (a bad path in a request, a file that is not there) to the
// client errors they are; other SQLSTATEs stay server failures.
func sqlstateStatus(err error) (int, string, bool) {
	code := pgerr.Code(err)
	switch {
	case code == "":
		return 0, "", false
	case code == pgerr.InsufficientPrivilege:
		return http.StatusForbidden, restmsg.Forbidden, true
	case strings.HasPrefix(code, "0A"):
		return http.StatusNotAcceptable, restmsg.UnsupportedOperation, true
	case strings.HasPrefix(code, "22"), strings.HasPrefix(code, "42"), code == pgerr.UndefinedFile:
		return http.StatusBadRequest, restmsg.BadRequest, true
	}
	return 0, "", false
}

func (s *server) writeError(w http.ResponseWriter, r *http.Request, status int, kind, msg string) {
	s.log.Debug("REST catalog request refused", "method", r.Method, "path", r.URL.Path, "status", status, "type", kind, "message", msg)
	s.writeJSONStatus(w, r, status, restmsg.ErrorResponse{Error: restmsg.ErrorModel{Message: msg, Type: kind, Code: status}})
}

// writeJSON answers 200 with v.
func (s *server) writeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
	return nil
}

func (s *server) writeJSONStatus(w http.ResponseWriter, r *http.Request, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.log.Error("REST catalog: encode error response", "err", err)
		body = []byte(`{"error":{"message":"internal error","type":"ServiceFailureException","code":500}}`)
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// decode reads the request body as one JSON object into v: an empty,
// null, malformed or trailing body is 400 with the reason.
func decode(r *http.Request, v any) error {
	if r.Body == nil {
		return badRequest("request body is missing")
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badRequest("read request body: %v", err)
	}
	trimmed := bytes.TrimSpace(raw)
	switch {
	case len(trimmed) == 0:
		return badRequest("request body is empty")
	case trimmed[0] != '{':
		return badRequest("malformed request body: want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(v); err != nil {
		return badRequest("malformed request body: %v", err)
	}
	if dec.InputOffset() != int64(len(trimmed)) {
		return badRequest("malformed request body: more than one JSON value")
	}
	return nil
}

// invalidBody says why a decoded request is not acceptable (a missing
// field, a bad update): 400 unless the reason is an unsupported action.
func invalidBody(err error) error {
	if errors.Is(err, catalog.ErrUnsupported) {
		return err
	}
	return badRequest("invalid request: %v", err)
}
