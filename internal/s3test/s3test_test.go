package s3test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

func TestServerAndFaultProxy(t *testing.T) {
	srv := Start(t)
	ctx := t.Context()
	body := bytes.Repeat([]byte("0123456789"), 1000)
	key := "dir/obj"
	if _, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: &srv.Bucket, Key: &key, Body: bytes.NewReader(body)}); err != nil {
		t.Fatal(err)
	}
	if p := srv.Props(); p["s3.endpoint"] != srv.Endpoint || p["s3.path-style-access"] != "true" || p["s3.access-key-id"] != srv.AccessKey {
		t.Errorf("Props = %v", p)
	}

	proxy := NewFaultProxy(t, srv.Endpoint)
	once := newClient(proxy.URL, srv.AccessKey, srv.SecretKey)
	noRetry := func(o *s3.Options) { o.RetryMaxAttempts = 1 }

	// Through the proxy, untouched.
	get := func() (*s3.GetObjectOutput, error) {
		return once.GetObject(ctx, &s3.GetObjectInput{Bucket: &srv.Bucket, Key: &key}, noRetry)
	}
	out, err := get()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(out.Body)
	out.Body.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("GET through the proxy: %d bytes, %v", len(got), err)
	}

	// Throttled.
	proxy.FailNext(1)
	_, err = get()
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "SlowDown" {
		t.Fatalf("throttled GET: %v, want SlowDown", err)
	}
	if _, err := get(); err != nil {
		t.Fatalf("GET after the throttled one: %v", err)
	}

	// Cut mid-body.
	proxy.CutNext(1)
	out, err = get()
	if err != nil {
		t.Fatal(err)
	}
	got, err = io.ReadAll(out.Body)
	out.Body.Close()
	if err == nil || len(got) >= len(body) {
		t.Fatalf("cut GET read %d bytes, err %v; want a broken body", len(got), err)
	}
	if !bytes.Equal(got, body[:len(got)]) {
		t.Errorf("the bytes before the cut differ")
	}

	// HEAD is neither cut nor miscounted.
	proxy.CutNext(1)
	if _, err := once.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &srv.Bucket, Key: aws.String(key)}, noRetry); err != nil {
		t.Fatal(err)
	}
	if g, h, f := proxy.Requests(http.MethodGet), proxy.Requests(http.MethodHead), proxy.Faults(); g != 4 || h != 1 || f != 2 {
		t.Errorf("counted %d GET, %d HEAD, %d faults; want 4, 1, 2", g, h, f)
	}
	proxy.Reset()
	if proxy.Requests(http.MethodGet) != 0 || proxy.Faults() != 0 {
		t.Error("Reset kept counts")
	}
}

func TestBinaryFromEnv(t *testing.T) {
	t.Setenv(BinaryEnv, "/nonexistent/versitygw")
	if _, err := Binary(); err == nil || !strings.Contains(err.Error(), BinaryEnv) {
		t.Errorf("Binary with a missing %s: %v", BinaryEnv, err)
	}
}
