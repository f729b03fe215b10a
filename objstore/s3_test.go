package objstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/s3test"
)

// newStore returns an S3 store of srv's bucket reached at endpoint (the
// server itself, or a proxy in front of it), with short backoffs.
func newStore(t *testing.T, srv *s3test.Server, endpoint string, mod func(*S3Config)) *S3 {
	t.Helper()
	cfg, err := S3ConfigFromProperties(srv.Props())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Endpoint = endpoint
	cfg.MaxBackoff = 50 * time.Millisecond
	if mod != nil {
		mod(&cfg)
	}
	s, err := NewS3(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// wantPG checks err's SQLSTATE and that its message holds each of parts.
func wantPG(t *testing.T, err error, code string, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want %s", code)
	}
	if c := pgerr.Code(err); c != code {
		t.Errorf("code %s, want %s (error: %v)", c, code, err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}

func TestS3PutHeadReadRange(t *testing.T) {
	srv := s3test.Start(t)
	s := newStore(t, srv, srv.Endpoint, nil)
	ctx := t.Context()
	data := randomBytes(100, 1)
	uri := "s3a://" + srv.Bucket + "/t/data.bin"
	if err := s.Put(ctx, uri, data, false); err != nil {
		t.Fatal(err)
	}
	info, err := s.Head(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	if info.URI != srv.URI("t/data.bin") || info.Size != 100 || info.ETag == "" || strings.Contains(info.ETag, `"`) || info.ModTime.IsZero() {
		t.Errorf("Head = %+v", info)
	}
	tests := []struct {
		off, n int
		want   int
		eof    bool
	}{
		{off: 0, n: 100, want: 100},
		{off: 0, n: 10, want: 10},
		{off: 37, n: 20, want: 20},
		{off: 99, n: 1, want: 1},
		{off: 90, n: 20, want: 10, eof: true},
		{off: 0, n: 150, want: 100, eof: true},
		{off: 100, n: 5, want: 0, eof: true},
		{off: 1000, n: 5, want: 0, eof: true},
		{off: 50, n: 0, want: 0},
	}
	for _, tc := range tests {
		for _, etag := range []string{"", info.ETag} {
			t.Run(fmt.Sprintf("%d+%d etag=%v", tc.off, tc.n, etag != ""), func(t *testing.T) {
				p := make([]byte, tc.n)
				n, err := s.ReadRange(ctx, uri, etag, p, int64(tc.off))
				if n != tc.want {
					t.Errorf("n = %d, want %d", n, tc.want)
				}
				if tc.eof && err != io.EOF || !tc.eof && err != nil {
					t.Errorf("err = %v, want EOF %v", err, tc.eof)
				}
				if end := min(tc.off+tc.want, len(data)); tc.want > 0 && !bytes.Equal(p[:n], data[tc.off:end]) {
					t.Errorf("bytes differ")
				}
			})
		}
	}

	// The object changes: a read pinned to the old ETag fails.
	if err := s.Put(ctx, uri, randomBytes(100, 2), false); err != nil {
		t.Fatal(err)
	}
	_, err = s.ReadRange(ctx, uri, info.ETag, make([]byte, 10), 0)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("read with a stale ETag: %v, want ErrChanged", err)
	}
	wantPG(t, err, pgerr.SerializationFailure, srv.URI("t/data.bin"))

	// Missing objects.
	missing := srv.URI("t/missing")
	_, err = s.Head(ctx, missing)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Head of a missing object: %v", err)
	}
	wantPG(t, err, pgerr.UndefinedFile, `could not open object "`+missing+`": no such object`)
	_, err = s.ReadRange(ctx, missing, "", make([]byte, 4), 0)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("ReadRange of a missing object: %v", err)
	}
	wantPG(t, err, pgerr.UndefinedFile, missing)

	// URIs that name no object.
	for _, bad := range []string{"gs://b/k", "s3://" + srv.Bucket + "/", "s3://" + srv.Bucket + "/../x"} {
		if _, err := s.Head(ctx, bad); err == nil {
			t.Errorf("Head(%q) succeeded", bad)
		}
	}
}

func TestS3PutIfAbsentRace(t *testing.T) {
	srv := s3test.Start(t)
	s := newStore(t, srv, srv.Endpoint, nil)
	ctx := t.Context()
	const writers = 6
	for round := range 5 {
		uri := srv.URI(fmt.Sprintf("race/%d", round))
		errs := make([]error, writers)
		var wg sync.WaitGroup
		for i := range writers {
			wg.Go(func() {
				errs[i] = s.Put(ctx, uri, []byte(fmt.Sprintf("writer %d", i)), true)
			})
		}
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil:
				if winner >= 0 {
					t.Fatalf("round %d: writers %d and %d both won", round, winner, i)
				}
				winner = i
			case errors.Is(err, ErrExists):
				wantPG(t, err, pgerr.DuplicateObject, uri, "already exists")
			default:
				t.Fatalf("round %d writer %d: %v", round, i, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no writer won: %v", round, errs)
		}
		p := make([]byte, 64)
		n, _ := s.ReadRange(ctx, uri, "", p, 0)
		if got, want := string(p[:n]), fmt.Sprintf("writer %d", winner); got != want {
			t.Errorf("round %d: object holds %q, want the winner's %q", round, got, want)
		}
	}
	// An unconditional Put overwrites.
	uri := srv.URI("race/0")
	if err := s.Put(ctx, uri, []byte("over"), false); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, uri, []byte("again"), true); !errors.Is(err, ErrExists) {
		t.Fatalf("conditional Put over an existing object: %v", err)
	}
}

func TestS3CheckConditionalWrites(t *testing.T) {
	srv := s3test.Start(t)
	s := newStore(t, srv, srv.Endpoint, nil)
	ctx := t.Context()
	if err := s.CheckConditionalWrites(ctx, srv.URI("warehouse")); err != nil {
		t.Fatal(err)
	}
	// The probe is gone.
	var left []string
	if err := s.List(ctx, srv.URI(""), func(i Info) error { left = append(left, i.URI); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("objects left behind: %v", left)
	}
}

func TestS3CheckConditionalWritesRefusesIgnoringStores(t *testing.T) {
	srv := s3test.Start(t)
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	s := newStore(t, srv, proxy.URL, nil)
	ctx := t.Context()

	proxy.IgnoreConditionalWrites(true)
	err := s.CheckConditionalWrites(ctx, srv.URI("warehouse/"))
	if !errors.Is(err, ErrNoConditionalWrites) {
		t.Fatalf("store ignoring If-None-Match: %v, want ErrNoConditionalWrites", err)
	}
	wantPG(t, err, pgerr.FeatureNotSupported, proxy.URL, "conditional writes")
	proxy.IgnoreConditionalWrites(false)

	// A store that refuses the header outright.
	proxy.FailNextWith(1, http.StatusNotImplemented, "NotImplemented", "A header you provided implies functionality that is not implemented.")
	err = s.CheckConditionalWrites(ctx, srv.URI("warehouse/"))
	if !errors.Is(err, ErrNoConditionalWrites) {
		t.Fatalf("store refusing If-None-Match: %v, want ErrNoConditionalWrites", err)
	}
	wantPG(t, err, pgerr.FeatureNotSupported, proxy.URL)
	if pe := pgerr.As(err); pe == nil || !strings.Contains(pe.Detail, "501 NotImplemented") {
		t.Errorf("detail does not give the store's answer: %+v", pe)
	}

	n := 0
	if err := s.List(ctx, srv.URI(""), func(Info) error { n++; return nil }); err != nil || n != 0 {
		t.Errorf("%d objects left behind (%v)", n, err)
	}
}

// readAll reads a whole object through ReadRange.
func readAll(t *testing.T, s *S3, uri string) []byte {
	t.Helper()
	info, err := s.Head(t.Context(), uri)
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, info.Size)
	n, err := s.ReadRange(t.Context(), uri, info.ETag, p, 0)
	if err != nil || n != len(p) {
		t.Fatalf("ReadRange(%s) = %d, %v; want %d bytes", uri, n, err, len(p))
	}
	return p
}

// pendingUploads lists the multipart uploads in progress in the bucket.
func pendingUploads(t *testing.T, srv *s3test.Server) []string {
	t.Helper()
	out, err := srv.Client().ListMultipartUploads(t.Context(), &s3.ListMultipartUploadsInput{Bucket: &srv.Bucket})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, u := range out.Uploads {
		keys = append(keys, aws.ToString(u.Key))
	}
	return keys
}

func TestS3StreamedWrite(t *testing.T) {
	srv := s3test.Start(t)
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	s := newStore(t, srv, proxy.URL, func(c *S3Config) { c.PartSize = MinPartSize; c.Concurrency = 2 })
	ctx := t.Context()
	tests := []struct {
		name  string
		size  int
		parts int // 0: one PutObject
	}{
		{name: "empty", size: 0},
		{name: "small", size: 1000},
		{name: "exactly one part", size: MinPartSize},
		{name: "three parts", size: 2*MinPartSize + 12345, parts: 3},
		{name: "five parts", size: 5 * MinPartSize, parts: 5},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			proxy.Reset()
			data := randomBytes(tc.size, uint64(i))
			uri := srv.URI("stream/" + strings.ReplaceAll(tc.name, " ", "-"))
			w, err := s.Create(ctx, uri)
			if err != nil {
				t.Fatal(err)
			}
			// Writes of odd sizes, straddling part boundaries.
			for rest := data; len(rest) > 0; {
				k := min(len(rest), 1+rand.IntN(3<<20))
				n, err := w.Write(rest[:k])
				if err != nil || n != k {
					t.Fatalf("Write = %d, %v", n, err)
				}
				rest = rest[k:]
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			if err := w.Abort(); err != nil {
				t.Errorf("Abort after Close: %v", err)
			}
			puts, posts := proxy.Requests(http.MethodPut), proxy.Requests(http.MethodPost)
			if tc.parts == 0 && (puts != 1 || posts != 0) {
				t.Errorf("%d PUT and %d POST requests; want one PutObject", puts, posts)
			}
			if tc.parts > 0 && (puts != tc.parts || posts != 2) {
				t.Errorf("%d PUT and %d POST requests; want %d parts, create and complete", puts, posts, tc.parts)
			}
			if peak := proxy.Peak(http.MethodPut); peak > 2 {
				t.Errorf("%d parts uploaded at once, want at most Concurrency (2)", peak)
			} else if tc.parts > 0 {
				t.Logf("%d parts uploaded at once at most", peak)
			}
			if got := readAll(t, s, uri); !bytes.Equal(got, data) {
				t.Errorf("object differs from what was written (%d bytes, want %d)", len(got), len(data))
			}
		})
	}
	if p := pendingUploads(t, srv); len(p) != 0 {
		t.Errorf("uploads left pending: %v", p)
	}
}

func TestS3WriterAbortLeavesNothing(t *testing.T) {
	srv := s3test.Start(t)
	s := newStore(t, srv, srv.Endpoint, func(c *S3Config) { c.PartSize = MinPartSize; c.Concurrency = 2 })
	data := randomBytes(2*MinPartSize+100, 7)

	ends := []struct {
		name string
		end  func(t *testing.T, w Writer, cancel context.CancelFunc, uri string) error // the error Close then gives, if any
	}{
		{"Abort", func(t *testing.T, w Writer, _ context.CancelFunc, _ string) error {
			if err := w.Abort(); err != nil {
				t.Fatal(err)
			}
			return w.Close()
		}},
		{"context canceled", func(t *testing.T, w Writer, cancel context.CancelFunc, _ string) error {
			cancel()
			return w.Close()
		}},
		{"Delete", func(t *testing.T, w Writer, _ context.CancelFunc, uri string) error {
			if err := s.Delete(t.Context(), uri); err != nil {
				t.Fatal(err)
			}
			return w.Close()
		}},
	}
	for _, tc := range ends {
		t.Run(tc.name, func(t *testing.T) {
			uri := srv.URI("abort/" + strings.ReplaceAll(tc.name, " ", "-"))
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			w, err := s.Create(ctx, uri)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(data); err != nil {
				t.Fatal(err)
			}
			if p := pendingUploads(t, srv); len(p) != 1 {
				t.Fatalf("pending uploads while writing: %v, want one", p)
			}
			if err := tc.end(t, w, cancel, uri); err == nil {
				t.Errorf("Close after the write ended succeeded")
			}
			if _, err := w.Write([]byte("x")); err == nil {
				t.Errorf("Write after the write ended succeeded")
			}
			// The abort on a context's end runs on its own goroutine.
			deadline := time.Now().Add(5 * time.Second)
			for len(pendingUploads(t, srv)) > 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if p := pendingUploads(t, srv); len(p) != 0 {
				t.Errorf("uploads left pending: %v", p)
			}
			if _, err := s.Head(t.Context(), uri); !errors.Is(err, ErrNotFound) {
				t.Errorf("Head after the abort: %v, want ErrNotFound", err)
			}
		})
	}

	// A small write aborted leaves no object either.
	uri := srv.URI("abort/small")
	w, err := s.Create(t.Context(), uri)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("short")); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Head(t.Context(), uri); !errors.Is(err, ErrNotFound) {
		t.Errorf("Head after the abort: %v, want ErrNotFound", err)
	}
}

// TestS3WriterAbortWaitsForParts checks that an abandoned write sends
// AbortMultipartUpload only once every part it sent has been answered. A
// part the store has received is stored even when the client stops waiting
// for it; aborting before then lets it land after the abort and bring the
// upload back, where it would stay until a lifecycle rule removed it.
func TestS3WriterAbortWaitsForParts(t *testing.T) {
	srv := s3test.Start(t)
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	s := newStore(t, srv, proxy.URL, func(c *S3Config) { c.PartSize = MinPartSize; c.Concurrency = 2 })
	data := randomBytes(2*MinPartSize+100, 8)

	ends := []struct {
		name string
		end  func(t *testing.T, w Writer, cancel context.CancelFunc, uri string)
	}{
		{"Abort", func(t *testing.T, w Writer, _ context.CancelFunc, _ string) {
			if err := w.Abort(); err != nil {
				t.Fatal(err)
			}
		}},
		{"context canceled", func(t *testing.T, w Writer, cancel context.CancelFunc, _ string) {
			cancel()
			_ = w.Close()
		}},
		{"Delete", func(t *testing.T, w Writer, _ context.CancelFunc, uri string) {
			if err := s.Delete(t.Context(), uri); err != nil {
				t.Fatal(err)
			}
			_ = w.Close()
		}},
	}
	for _, tc := range ends {
		t.Run(tc.name, func(t *testing.T) {
			proxy.Reset()
			proxy.HoldParts(300 * time.Millisecond)
			uri := srv.URI("abort-held/" + strings.ReplaceAll(tc.name, " ", "-"))
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			w, err := s.Create(ctx, uri)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(data); err != nil {
				t.Fatal(err)
			}
			// Both parts have reached the store and are being stored.
			deadline := time.Now().Add(10 * time.Second)
			for proxy.HeldParts() < 2 && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if n := proxy.HeldParts(); n != 2 {
				t.Fatalf("%d parts held by the store, want 2", n)
			}
			tc.end(t, w, cancel, uri)
			deadline = time.Now().Add(10 * time.Second)
			for (proxy.HeldParts() > 0 || len(pendingUploads(t, srv)) > 0) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if n := proxy.AbortsOverParts(); n != 0 {
				t.Errorf("%d aborts sent while parts were still being stored", n)
			}
			if p := pendingUploads(t, srv); len(p) != 0 {
				t.Errorf("uploads left pending: %v", p)
			}
		})
	}
}

func TestS3ListAndDelete(t *testing.T) {
	srv := s3test.Start(t)
	s := newStore(t, srv, srv.Endpoint, func(c *S3Config) { c.ListPageSize = 7 })
	ctx := t.Context()
	var want []string
	for i := range 30 {
		key := fmt.Sprintf("list/a/%03d", i)
		want = append(want, srv.URI(key))
		if err := s.Put(ctx, srv.URI(key), []byte(key), false); err != nil {
			t.Fatal(err)
		}
	}
	for _, other := range []string{"list/b/000", "list/a.txt", "lis"} {
		if err := s.Put(ctx, srv.URI(other), []byte("x"), false); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	err := s.List(ctx, "s3n://"+srv.Bucket+"/list/a/", func(i Info) error {
		if i.Size != int64(len("list/a/000")) || i.ETag == "" {
			t.Errorf("List info %+v", i)
		}
		got = append(got, i.URI)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("List = %v\nwant %v", got, want)
	}

	// fn's error stops the listing.
	stop := errors.New("stop")
	count := 0
	if err := s.List(ctx, srv.URI("list/"), func(Info) error { count++; return stop }); err != stop || count != 1 {
		t.Errorf("List with a failing fn = %v after %d calls", err, count)
	}

	// Delete, also of a missing object.
	if err := s.Delete(ctx, srv.URI("list/a/005")); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, srv.URI("list/a/005")); err != nil {
		t.Fatalf("Delete of a missing object: %v", err)
	}
	if _, err := s.Head(ctx, srv.URI("list/a/005")); !errors.Is(err, ErrNotFound) {
		t.Errorf("Head after Delete: %v", err)
	}
	n := 0
	if err := s.List(ctx, srv.URI("list/a/"), func(Info) error { n++; return nil }); err != nil || n != 29 {
		t.Errorf("List after Delete: %d objects, %v; want 29", n, err)
	}
}

func TestS3WrongCredentials(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	for _, tc := range []struct{ name, access, secret string }{
		{"unknown key", "nosuchkey", srv.SecretKey},
		{"wrong secret", srv.AccessKey, "not-the-secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, srv, srv.Endpoint, func(c *S3Config) { c.AccessKeyID, c.SecretAccessKey = tc.access, tc.secret })
			uri := srv.URI("k")
			err := s.Put(ctx, uri, []byte("x"), false)
			wantPG(t, err, pgerr.InsufficientPrivilege, uri, `bucket "`+srv.Bucket+`"`, "refused the credentials")
			if pe := pgerr.As(err); pe == nil || pe.Hint == "" || pe.Detail == "" {
				t.Errorf("want a detail and a hint: %+v", pe)
			}
			_, err = s.ReadRange(ctx, uri, "", make([]byte, 1), 0)
			wantPG(t, err, pgerr.InsufficientPrivilege, srv.Bucket)
			err = s.List(ctx, srv.URI(""), func(Info) error { return nil })
			wantPG(t, err, pgerr.InsufficientPrivilege, srv.Bucket)
		})
	}
}

func TestS3MissingBucket(t *testing.T) {
	srv := s3test.Start(t)
	s := newStore(t, srv, srv.Endpoint, nil)
	ctx := t.Context()
	uri := "s3://no-such-bucket/k"
	_, err := s.ReadRange(ctx, uri, "", make([]byte, 1), 0)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("ReadRange: %v", err)
	}
	wantPG(t, err, pgerr.UndefinedFile, uri, `bucket "no-such-bucket" does not exist`)
	err = s.List(ctx, "s3://no-such-bucket/p/", func(Info) error { return nil })
	wantPG(t, err, pgerr.UndefinedFile, `bucket "no-such-bucket" does not exist`)
	err = s.Put(ctx, uri, []byte("x"), false)
	wantPG(t, err, pgerr.UndefinedFile, `bucket "no-such-bucket" does not exist`)
	_, err = s.Head(ctx, uri)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Head: %v", err)
	}
	wantPG(t, err, pgerr.UndefinedFile, uri, `bucket "no-such-bucket" does not exist`)
}

func TestS3RetriesThrottling(t *testing.T) {
	srv := s3test.Start(t)
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	s := newStore(t, srv, proxy.URL, func(c *S3Config) { c.PartSize = MinPartSize })
	ctx := t.Context()
	uri := srv.URI("retry/obj")
	data := randomBytes(3000, 3)

	steps := []struct {
		name string
		do   func() error
	}{
		{"Put", func() error { return s.Put(ctx, uri, data, false) }},
		{"Head", func() error { _, err := s.Head(ctx, uri); return err }},
		{"ReadRange", func() error {
			p := make([]byte, 1000)
			n, err := s.ReadRange(ctx, uri, "", p, 500)
			if err == nil && !bytes.Equal(p[:n], data[500:1500]) {
				return errors.New("wrong bytes")
			}
			return err
		}},
		{"List", func() error { return s.List(ctx, srv.URI("retry/"), func(Info) error { return nil }) }},
		{"multipart", func() error {
			w, err := s.Create(ctx, srv.URI("retry/big"))
			if err != nil {
				return err
			}
			if _, err := w.Write(randomBytes(MinPartSize+10, 4)); err != nil {
				return err
			}
			return w.Close()
		}},
		{"Delete", func() error { return s.Delete(ctx, uri) }},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			proxy.Reset()
			proxy.FailNext(5)
			if err := st.do(); err != nil {
				t.Fatalf("after 5 throttled requests: %v", err)
			}
			if f := proxy.Faults(); f != 5 {
				t.Errorf("%d faults injected, want 5", f)
			}
		})
	}
}

// TestS3RetriesTransientFaults checks that the retryer rides out each kind
// of transient failure a store produces.
func TestS3RetriesTransientFaults(t *testing.T) {
	srv := s3test.Start(t)
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	s := newStore(t, srv, proxy.URL, nil)
	ctx := t.Context()
	faults := []struct {
		name   string
		inject func(n int)
		// byCode: only the error body's code marks the fault as
		// transient, and a HEAD answer has no body.
		byCode bool
	}{
		{"503 SlowDown", proxy.FailNext, false},
		{"500 InternalError", func(n int) { proxy.FailNextWith(n, 500, "InternalError", "We encountered an internal error.") }, false},
		{"503 ServiceUnavailable", func(n int) { proxy.FailNextWith(n, 503, "ServiceUnavailable", "Service is unable to handle request.") }, false},
		{"429 TooManyRequests", func(n int) { proxy.FailNextWith(n, 429, "TooManyRequests", "Too many requests.") }, false},
		{"400 Throttling", func(n int) { proxy.FailNextWith(n, 400, "Throttling", "Rate exceeded.") }, true},
		{"connection reset", proxy.DropNext, false},
	}
	for i, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			uri := srv.URI(fmt.Sprintf("transient/%d", i))
			data := randomBytes(1000, uint64(i))
			proxy.Reset()
			f.inject(3)
			if err := s.Put(ctx, uri, data, true); err != nil {
				t.Fatalf("Put: %v", err)
			}
			want := 6
			if !f.byCode {
				f.inject(3)
				want += 3
			}
			info, err := s.Head(ctx, uri)
			if err != nil || info.Size != 1000 {
				t.Fatalf("Head = %+v, %v", info, err)
			}
			f.inject(3)
			p := make([]byte, 1000)
			if n, err := s.ReadRange(ctx, uri, info.ETag, p, 0); err != nil || !bytes.Equal(p[:n], data) {
				t.Fatalf("ReadRange = %d, %v", n, err)
			}
			if got := proxy.Faults(); got != want {
				t.Errorf("%d faults injected, want %d", got, want)
			}
		})
	}
}

func TestS3ReadResumesAfterCut(t *testing.T) {
	srv := s3test.Start(t)
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	s := newStore(t, srv, proxy.URL, nil)
	ctx := t.Context()
	uri := srv.URI("cut/obj")
	data := randomBytes(1<<20, 5)
	if err := s.Put(ctx, uri, data, false); err != nil {
		t.Fatal(err)
	}
	for _, etag := range []string{"", "pinned"} {
		t.Run("etag="+etag, func(t *testing.T) {
			tag := ""
			if etag != "" {
				info, err := s.Head(ctx, uri)
				if err != nil {
					t.Fatal(err)
				}
				tag = info.ETag
			}
			proxy.Reset()
			proxy.CutNext(2)
			p := make([]byte, len(data)-100)
			n, err := s.ReadRange(ctx, uri, tag, p, 100)
			if err != nil || n != len(p) {
				t.Fatalf("ReadRange = %d, %v", n, err)
			}
			if !bytes.Equal(p, data[100:]) {
				t.Fatal("bytes differ")
			}
			if g := proxy.Requests(http.MethodGet); g != 3 {
				t.Errorf("%d GET requests, want 3 (two cut, one to finish)", g)
			}
		})
	}

	// Cut more often than there are attempts: a clear error.
	s2 := newStore(t, srv, proxy.URL, func(c *S3Config) { c.MaxAttempts = 2 })
	proxy.Reset()
	proxy.CutNext(10)
	_, err := s2.ReadRange(ctx, uri, "", make([]byte, 1000), 0)
	wantPG(t, err, pgerr.IOError, uri, proxy.URL, "2 attempts")
}

func TestS3RetriesExhausted(t *testing.T) {
	srv := s3test.Start(t)
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	s := newStore(t, srv, proxy.URL, func(c *S3Config) { c.MaxAttempts = 3 })
	ctx := t.Context()
	uri := srv.URI("exhausted")
	proxy.FailNext(1000)
	err := s.Put(ctx, uri, []byte("x"), false)
	wantPG(t, err, pgerr.IOError, uri, proxy.URL, "3 attempts", "SlowDown", "reduce your request rate")
	if f := proxy.Faults(); f != 3 {
		t.Errorf("%d requests made, want 3", f)
	}

	// An endpoint nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	s = newStore(t, srv, dead, func(c *S3Config) { c.MaxAttempts = 2 })
	_, err = s.Head(ctx, uri)
	wantPG(t, err, pgerr.IOError, uri, dead, "2 attempts", "connection refused")
}

// isolateAWSEnv keeps the machine's AWS configuration out of a test.
func isolateAWSEnv(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE":             dir + "/config",
		"AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials",
		"AWS_REGION":                  "",
		"AWS_DEFAULT_REGION":          "",
		"AWS_PROFILE":                 "",
		"AWS_ACCESS_KEY_ID":           "",
		"AWS_SECRET_ACCESS_KEY":       "",
		"AWS_SESSION_TOKEN":           "",
		"AWS_EC2_METADATA_DISABLED":   "true",
	} {
		t.Setenv(k, v)
	}
}

func TestS3Region(t *testing.T) {
	isolateAWSEnv(t)
	region := func(cfg S3Config) string {
		s, err := NewS3(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s.client.Options().Region
	}
	if r := region(S3Config{}); r != "us-east-1" {
		t.Errorf("region with none configured: %q, want us-east-1", r)
	}
	t.Setenv("AWS_REGION", "eu-west-3")
	if r := region(S3Config{}); r != "eu-west-3" {
		t.Errorf("region from the environment: %q", r)
	}
	if r := region(S3Config{Region: "ap-south-1"}); r != "ap-south-1" {
		t.Errorf("configured region: %q", r)
	}
}

func TestS3CredentialChain(t *testing.T) {
	srv := s3test.Start(t)
	isolateAWSEnv(t)
	ctx := t.Context()
	cfg := S3Config{Endpoint: srv.Endpoint, PathStyle: true}

	// From the environment.
	t.Setenv("AWS_ACCESS_KEY_ID", srv.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", srv.SecretKey)
	s, err := NewS3(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, srv.URI("chain/env"), []byte("x"), false); err != nil {
		t.Fatalf("credentials from the environment: %v", err)
	}

	// From the shared credentials file, for a named profile.
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	file := os.Getenv("AWS_SHARED_CREDENTIALS_FILE")
	body := fmt.Sprintf("[icegate]\naws_access_key_id = %s\naws_secret_access_key = %s\n", srv.AccessKey, srv.SecretKey)
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_PROFILE", "icegate")
	s, err = NewS3(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, srv.URI("chain/file"), []byte("x"), false); err != nil {
		t.Fatalf("credentials from the shared file: %v", err)
	}

	// Static credentials win over the chain.
	s, err = NewS3(ctx, S3Config{Endpoint: srv.Endpoint, PathStyle: true, AccessKeyID: "other", SecretAccessKey: "wrong"})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Put(ctx, srv.URI("chain/static"), []byte("x"), false)
	wantPG(t, err, pgerr.InsufficientPrivilege, "refused the credentials")
}

// TestS3ListDir: the delimiter listing gives the folders and the objects
// of one level, as the listing of everything folded does.
func TestS3ListDir(t *testing.T) {
	srv := s3test.Start(t)
	s := newStore(t, srv, srv.Endpoint, nil)
	ctx := t.Context()
	base := srv.URI("ld/")
	for _, k := range []string{"a/x", "a/y/z", "b/", "c", "d/e"} {
		data := []byte(k)
		if strings.HasSuffix(k, "/") {
			data = nil // a folder's marker object is empty
		}
		if err := s.Put(ctx, base+k, data, false); err != nil {
			t.Fatal(err)
		}
	}
	dirs, objects, err := s.ListDir(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range objects {
		names = append(names, o.URI)
	}
	wantDirs := []string{base + "a/", base + "b/", base + "d/"}
	if !slices.Equal(dirs, wantDirs) || !slices.Equal(names, []string{base + "c"}) {
		t.Fatalf("ListDir = %v, %v; want %v, [%s]", dirs, names, wantDirs, base+"c")
	}
	// The fold over a full listing (stores without delimiters) agrees.
	fdirs, fobjects, err := ListDir(ctx, plainStore{s}, base)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fdirs, wantDirs) || len(fobjects) != 1 || fobjects[0].URI != base+"c" {
		t.Fatalf("folded ListDir = %v, %v", fdirs, fobjects)
	}
}

// plainStore hides a store's delimiter listing.
type plainStore struct{ Store }

// TestS3AbortUploads: the multipart uploads a dead writer left under a
// prefix are aborted; those begun after the time given, and those under
// other prefixes, are kept.
func TestS3AbortUploads(t *testing.T) {
	srv := s3test.Start(t)
	client := srv.Client()
	ctx := t.Context()
	start := func(key string) {
		if _, err := client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &srv.Bucket, Key: aws.String(key)}); err != nil {
			t.Fatal(err)
		}
	}
	start("t1/data/dead.parquet")
	start("t2/data/other.parquet")
	s := newStore(t, srv, srv.Endpoint, nil)
	if n, err := s.AbortUploads(ctx, srv.URI("t1/"), time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("AbortUploads of uploads older than an hour = %d, %v; want 0 (they are new)", n, err)
	}
	if n, err := s.AbortUploads(ctx, srv.URI("t1/"), time.Now().Add(time.Minute)); err != nil || n != 1 {
		t.Fatalf("AbortUploads = %d, %v; want 1", n, err)
	}
	if got := pendingUploads(t, srv); len(got) != 1 || got[0] != "t2/data/other.parquet" {
		t.Fatalf("pending uploads after the abort: %v", got)
	}
}
