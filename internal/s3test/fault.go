package s3test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"
)

// FaultProxy is a reverse proxy in front of an S3-compatible server that
// injects the faults a store must survive: throttling (503 SlowDown) and
// other error answers, connections reset before the response, and
// connections cut in the middle of a response body. Use URL as the store's
// endpoint.
type FaultProxy struct {
	URL string

	mu       sync.Mutex
	fail     int // requests still to refuse with failWith
	failWith fault
	drop     int // requests still to answer by resetting the connection
	cut      int // GET responses still to cut mid-body
	requests map[string]int
	inFlight map[string]int // requests of a method being served
	peak     map[string]int // the most of a method served at once
	faults   int
	// matching requests still to refuse with 503 SlowDown, those match
	// selects.
	matching int
	match    func(*http.Request) bool
	// ignoreIfNoneMatch turns the server's refusals of conditional PUTs
	// into successes, as a store that ignores If-None-Match would answer.
	ignoreIfNoneMatch bool
	// holdParts delays each part upload whose body has arrived before the
	// server sees it, and serves it even when the client has gone, as a
	// store does with a part it has received.
	holdParts time.Duration
	held      int // parts received and not yet answered by the server
	// abortsOverParts counts multipart aborts that arrived while a part of
	// the same store was still being served.
	abortsOverParts int
}

// NewFaultProxy starts a proxy to target (an http:// URL); it stops when
// the test ends.
func NewFaultProxy(t testing.TB, target string) *FaultProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatalf("fault proxy target %q: %v", target, err)
	}
	p := &FaultProxy{requests: map[string]int{}, inFlight: map[string]int{}, peak: map[string]int{}}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			// Keep the Host the client signed.
			r.Out.Host = r.In.Host
		},
		FlushInterval: -1,
		ModifyResponse: func(resp *http.Response) error {
			p.mu.Lock()
			ignore := p.ignoreIfNoneMatch
			p.mu.Unlock()
			if ignore && resp.Request.Method == http.MethodPut && resp.Request.Header.Get("If-None-Match") != "" &&
				resp.StatusCode == http.StatusPreconditionFailed {
				resp.Body.Close()
				resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
				resp.Body, resp.ContentLength = http.NoBody, 0
				resp.Header = http.Header{"Etag": {`"ignored"`}, "Content-Length": {"0"}}
				return nil
			}
			if resp.Request.Method != http.MethodGet || resp.StatusCode/100 != 2 || resp.ContentLength < 2 {
				return nil
			}
			p.mu.Lock()
			cut := p.cut > 0
			if cut {
				p.cut--
				p.faults++
			}
			p.mu.Unlock()
			if cut {
				resp.Body = &cutBody{r: resp.Body, left: resp.ContentLength / 2}
			}
			return nil
		},
		// A cut body is an error of the proxy's copy; it is intended.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.requests[r.Method]++
		p.inFlight[r.Method]++
		p.peak[r.Method] = max(p.peak[r.Method], p.inFlight[r.Method])
		defer func() {
			p.mu.Lock()
			p.inFlight[r.Method]--
			p.mu.Unlock()
		}()
		fail, drop := p.fail > 0, !(p.fail > 0) && p.drop > 0
		f := p.failWith
		switch {
		case fail:
			p.fail--
			p.faults++
		case drop:
			p.drop--
			p.faults++
		case p.matching > 0 && p.match(r):
			fail, f = true, slowDown
			p.matching--
			p.faults++
		}
		p.mu.Unlock()
		if fail {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(f.status)
			_, _ = io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+
				`<Error><Code>`+f.code+`</Code><Message>`+f.message+`</Message>`+
				`<Resource>`+r.URL.Path+`</Resource><RequestId>fault</RequestId></Error>`)
			return
		}
		if drop {
			resetConn(w)
			return
		}
		if r.Method == http.MethodDelete && r.URL.Query().Has("uploadId") {
			p.mu.Lock()
			if p.held > 0 {
				p.abortsOverParts++
			}
			p.mu.Unlock()
		}
		if p.holdPart(w, r, rp) {
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

type fault struct {
	status        int
	code, message string
}

// slowDown is S3's answer to a client it throttles.
var slowDown = fault{status: http.StatusServiceUnavailable, code: "SlowDown", message: "Please reduce your request rate."}

// FailNext makes the next n requests fail with 503 SlowDown.
func (p *FaultProxy) FailNext(n int) {
	p.FailNextWith(n, slowDown.status, slowDown.code, slowDown.message)
}

// FailNextWith makes the next n requests fail with status and an S3 error
// body of code and message.
func (p *FaultProxy) FailNextWith(n, status int, code, message string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fail = n
	p.failWith = fault{status: status, code: code, message: message}
}

// FailMatching makes the next n requests that match selects fail with
// 503 SlowDown (a storm on one kind of request: the PUTs of metadata
// files, say), letting the others through.
func (p *FaultProxy) FailMatching(n int, match func(*http.Request) bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.matching, p.match = n, match
}

// DropNext makes the next n requests fail by resetting their connection
// before any response.
func (p *FaultProxy) DropNext(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drop = n
}

// resetConn closes the request's connection with a TCP reset.
func resetConn(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// CutNext makes the next n successful GET responses break off half-way
// through their body (the connection is closed).
func (p *FaultProxy) CutNext(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = n
}

// IgnoreConditionalWrites makes the proxy answer 200 OK where the server
// refused a PUT with If-None-Match: the client then sees a store that does
// not honour the header.
func (p *FaultProxy) IgnoreConditionalWrites(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ignoreIfNoneMatch = on
}

// HoldParts makes the proxy keep each part upload for d once its body has
// arrived, then pass it to the server whether or not the client is still
// waiting: the store finishes a part it has received even if the client
// gave up on it. Zero turns holding off.
func (p *FaultProxy) HoldParts(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holdParts = d
}

// HeldParts returns how many part uploads have arrived and are not yet
// answered by the server.
func (p *FaultProxy) HeldParts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// AbortsOverParts returns how many AbortMultipartUpload requests arrived
// while a part upload was still being served: after such an abort the part
// can still land and bring the upload back.
func (p *FaultProxy) AbortsOverParts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.abortsOverParts
}

// holdPart serves r if it is a part upload to hold, and says whether it did.
func (p *FaultProxy) holdPart(w http.ResponseWriter, r *http.Request, rp *httputil.ReverseProxy) bool {
	p.mu.Lock()
	d := p.holdParts
	p.mu.Unlock()
	if d == 0 || r.Method != http.MethodPut || !r.URL.Query().Has("partNumber") {
		return false
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		// The client gave up before the part arrived: the store drops it.
		return true
	}
	p.mu.Lock()
	p.held++
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.held--
		p.mu.Unlock()
	}()
	time.Sleep(d)
	out := r.Clone(context.WithoutCancel(r.Context()))
	out.Body = io.NopCloser(bytes.NewReader(body))
	rp.ServeHTTP(w, out)
	return true
}

// Requests returns how many requests of method reached the proxy.
func (p *FaultProxy) Requests(method string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests[method]
}

// Peak returns the most requests of method the proxy served at once.
func (p *FaultProxy) Peak(method string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak[method]
}

// Faults returns how many faults the proxy has injected.
func (p *FaultProxy) Faults() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.faults
}

// Reset clears the counters and pending faults.
func (p *FaultProxy) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fail, p.drop, p.cut, p.faults, p.matching = 0, 0, 0, 0, 0
	p.holdParts, p.abortsOverParts = 0, 0
	p.requests = map[string]int{}
	p.peak = map[string]int{}
}

// errCut is what the proxy's copy of a cut body fails with; the proxy then
// aborts the connection.
var errCut = errors.New("s3test: connection cut by the fault proxy")

type cutBody struct {
	r    io.ReadCloser
	left int64
}

func (c *cutBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errCut
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cutBody) Close() error { return c.r.Close() }
