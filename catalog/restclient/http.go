package restclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/internal/pgerr"
)

// retryClass says which failures of a request may be retried.
type retryClass int

const (
	// retryIdempotent: GET and HEAD, which change nothing: 429 and any
	// 5xx are retried, as are broken connections.
	retryIdempotent retryClass = iota
	// retryUnapplied: requests that must not run twice (creates, drops,
	// renames): retried only when the server surely did not act on them
	// (429, 503, a connection that could not be made).
	retryUnapplied
	// retryCommit: commits. 429 and a connection that could not be made
	// are retried; other 5xx and a connection broken after the request
	// was sent leave the outcome unknown, which the caller resolves.
	retryCommit
)

// request is one call of the protocol.
type request struct {
	method string
	// path is the route after /v1/{prefix}/ (escaped), or after /v1/
	// with noPrefix.
	path     string
	noPrefix bool
	query    url.Values
	body     any
	header   http.Header
	class    retryClass
	// what is the action, for messages ("load table db.t").
	what string
	// notFound describes the missing object of a 404 whose body names
	// none (for HEAD).
	notFound string
	// optional: the route is one a server may lack; a 404 or 405 that
	// names no missing object means it does (0A000).
	optional bool
}

// response is a server's answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// unknownOutcome is a commit whose outcome is unknown: the server failed
// (5xx) or the connection broke after the request was sent.
type unknownOutcome struct {
	err error
}

func (e *unknownOutcome) Error() string { return e.err.Error() }
func (e *unknownOutcome) Unwrap() error { return e.err }

// url is the request's address.
func (c *Catalog) url(r *request) string {
	u := c.base + "/v1/"
	if !r.noPrefix && c.prefix != "" {
		u += c.prefix + "/"
	}
	u += r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	return u
}

// do sends r, retrying as its class allows, and returns a 2xx or 304
// response; other statuses are errors of the catalog's kinds.
func (c *Catalog) do(ctx context.Context, r *request) (*response, error) {
	var body []byte
	if r.body != nil {
		var err error
		if body, err = json.Marshal(r.body); err != nil {
			return nil, fmt.Errorf("catalog %s: %s: encode request: %w", c.name, r.what, err)
		}
	}
	refreshed := false
	for attempt := 1; ; attempt++ {
		resp, sendErr := c.send(ctx, r, body)
		if sendErr != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			var pe *pgerr.Error
			if errors.As(sendErr, &pe) {
				return nil, sendErr // authentication failed: no request was sent
			}
			neverSent := isDialError(sendErr)
			if (r.class == retryIdempotent || neverSent) && attempt < c.attempts {
				if err := c.backoff(ctx, attempt, nil); err != nil {
					return nil, err
				}
				continue
			}
			err := c.unreachable(r, sendErr)
			if r.class == retryCommit && !neverSent {
				return nil, &unknownOutcome{err: err}
			}
			return nil, err
		}
		switch {
		case resp.status >= 200 && resp.status < 300, resp.status == http.StatusNotModified:
			return resp, nil
		case resp.status == http.StatusUnauthorized && !refreshed && c.auth.canRefresh():
			// The token may have expired early or been revoked: get a new
			// one, once, without counting an attempt.
			refreshed = true
			if err := c.auth.refresh(ctx); err != nil {
				return nil, err
			}
			attempt--
			continue
		}
		if c.retriable(r.class, resp.status) && attempt < c.attempts {
			if err := c.backoff(ctx, attempt, resp); err != nil {
				return nil, err
			}
			continue
		}
		err := c.statusError(r, resp)
		if r.class == retryCommit && unknownStatus(resp.status) {
			return nil, &unknownOutcome{err: err}
		}
		return nil, err
	}
}

// send sends one attempt.
func (c *Catalog) send(ctx context.Context, r *request, body []byte) (*response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, c.url(r), rd)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %s: %w", c.name, r.what, err)
	}
	for k, vs := range c.headers {
		req.Header[k] = vs
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if err := c.auth.apply(ctx, req, body); err != nil {
		return nil, err
	}
	hr, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer hr.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(hr.Body, 256<<20))
	if err != nil {
		return nil, err
	}
	return &response{status: hr.StatusCode, header: hr.Header, body: raw}, nil
}

// isDialError reports whether err is a connection that could not be made
// (so the request was never sent).
func isDialError(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial"
}

// retriable reports whether a status may be retried for the class.
func (c *Catalog) retriable(class retryClass, status int) bool {
	switch class {
	case retryIdempotent:
		return status == http.StatusTooManyRequests || status >= 500
	case retryUnapplied:
		return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
	default:
		return status == http.StatusTooManyRequests
	}
}

// unknownStatus: statuses after which a commit may or may not have been
// applied.
func unknownStatus(status int) bool {
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// backoff waits before retry attempt+1: exponential with full jitter, or
// what the response's Retry-After says (bounded by the maximum delay).
func (c *Catalog) backoff(ctx context.Context, attempt int, resp *response) error {
	base, maxDelay := c.opts.RetryBaseDelay, c.opts.MaxRetryDelay
	if base <= 0 {
		base = 100 * time.Millisecond
	}
	if maxDelay <= 0 {
		maxDelay = 10 * time.Second
	}
	d := min(base<<min(attempt-1, 20), maxDelay)
	d = d/2 + rand.N(d/2+1)
	if resp != nil {
		if ra, ok := retryAfter(resp.header.Get("Retry-After"), c.opts.Now()); ok {
			d = min(ra, maxDelay)
		}
	}
	c.log.Debug("REST catalog request failed; retrying", "catalog", c.name, "attempt", attempt, "wait", d)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// unreachable is the error for a server that could not be reached.
func (c *Catalog) unreachable(r *request, err error) error {
	return pgerr.Wrap(fmt.Errorf("catalog %s: %s: %w", c.name, r.what, err), pgerr.IOError,
		"catalog %s: cannot %s: the REST catalog at %s did not answer: %v", c.name, r.what, c.base, describeNetErr(err))
}

// describeNetErr is a transport error without the request's URL, which
// url.Error repeats.
func describeNetErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// statusError is the error for a response that is not a success: the
// ErrorModel's kind, or for statuses of their own an error with a
// SQLSTATE.
func (c *Catalog) statusError(r *request, resp *response) error {
	var er restmsg.ErrorResponse
	if err := json.Unmarshal(resp.body, &er); err != nil || er.Error.Code == 0 && er.Error.Type == "" && er.Error.Message == "" {
		msg := strings.TrimSpace(string(resp.body))
		if len(msg) > 200 {
			msg = msg[:200] + "..."
		}
		if msg == "" {
			msg = http.StatusText(resp.status)
		}
		if resp.status == http.StatusNotFound && r.notFound != "" {
			msg = r.notFound
		}
		er.Error = restmsg.ErrorModel{Code: resp.status, Message: msg}
	}
	if er.Error.Code == 0 {
		er.Error.Code = resp.status
	}
	kindErr := er.Err()
	what := fmt.Sprintf("catalog %s: %s", c.name, r.what)
	noRoute := r.optional && (resp.status == http.StatusMethodNotAllowed ||
		resp.status == http.StatusNotFound && !strings.HasPrefix(er.Error.Type, "NoSuch"))
	switch {
	case noRoute:
		return pgerr.Wrap(fmt.Errorf("%s: %w: %w", what, kindErr, catalog.ErrUnsupported), pgerr.FeatureNotSupported,
			"catalog %s: cannot %s: the REST catalog at %s does not offer it (%d): %s", c.name, r.what, c.base, resp.status, er.Error.Message)
	case resp.status == http.StatusUnauthorized, resp.status == http.StatusForbidden:
		return pgerr.Wrap(fmt.Errorf("%s: %w", what, kindErr), pgerr.InsufficientPrivilege,
			"catalog %s: cannot %s: the REST catalog refused it (%d): %s", c.name, r.what, resp.status, er.Error.Message)
	case resp.status == http.StatusNotImplemented, errors.Is(kindErr, catalog.ErrUnsupported):
		return pgerr.Wrap(fmt.Errorf("%s: %w: %w", what, kindErr, catalog.ErrUnsupported), pgerr.FeatureNotSupported,
			"catalog %s: cannot %s: the REST catalog does not support it: %s", c.name, r.what, er.Error.Message)
	case resp.status >= 500, resp.status == http.StatusTooManyRequests:
		return pgerr.Wrap(fmt.Errorf("%s: %w", what, kindErr), pgerr.IOError,
			"catalog %s: cannot %s: the REST catalog at %s failed (%d): %s", c.name, r.what, c.base, resp.status, er.Error.Message)
	}
	return fmt.Errorf("%s: %w", what, kindErr)
}

// decodeBody reads a JSON response body into v.
func (c *Catalog) decodeBody(r *request, resp *response, v any) error {
	if err := json.Unmarshal(resp.body, v); err != nil {
		return pgerr.Wrap(err, pgerr.ProtocolViolation, "catalog %s: %s: the REST catalog answered an invalid body: %v", c.name, r.what, err)
	}
	return nil
}

// nsPath is the escaped path of a namespace: namespaces/<ns>.
func nsPath(ns []string) string { return "namespaces/" + restmsg.EncodeNamespace(ns) }

// tablePath is namespaces/<ns>/tables/<name>.
func tablePath(id catalog.Identifier) string {
	return nsPath(id.Namespace) + "/tables/" + url.PathEscape(id.Name)
}

// viewPath is namespaces/<ns>/views/<name>.
func viewPath(id catalog.Identifier) string {
	return nsPath(id.Namespace) + "/views/" + url.PathEscape(id.Name)
}
