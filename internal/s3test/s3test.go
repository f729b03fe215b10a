// Package s3test starts real S3-compatible servers for tests: versitygw in
// posix mode over a temporary directory, and a fault-injecting proxy to put
// in front of it.
package s3test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Region is the region the server signs for.
const Region = "us-east-1"

// BinaryEnv names the environment variable that points at the versitygw
// binary; RequireEnv set to 1 turns a missing binary from a skip into a
// failure.
const (
	BinaryEnv  = "ICEGATE_VERSITYGW"
	RequireEnv = "ICEGATE_REQUIRE_S3"
)

const installHint = "install it with `go install github.com/versity/versitygw/cmd/versitygw@v1.8.0` or point " + BinaryEnv + " at it"

// Server is a running versitygw with one bucket.
type Server struct {
	Endpoint  string // http://127.0.0.1:port
	Bucket    string
	AccessKey string
	SecretKey string
	Dir       string // the posix root: one directory per bucket
}

// Props returns the FileIO properties (Iceberg's names) that reach the
// server: endpoint, static credentials, path-style access and region.
func (s *Server) Props() map[string]string {
	return map[string]string{
		"s3.endpoint":          s.Endpoint,
		"s3.access-key-id":     s.AccessKey,
		"s3.secret-access-key": s.SecretKey,
		"s3.path-style-access": "true",
		"client.region":        Region,
	}
}

// URI returns s3://bucket/key on the server's bucket.
func (s *Server) URI(key string) string {
	return "s3://" + s.Bucket + "/" + key
}

// Client returns a plain SDK client of the server, for checks beneath the
// store under test (pending multipart uploads, say).
func (s *Server) Client() *s3.Client {
	return newClient(s.Endpoint, s.AccessKey, s.SecretKey)
}

func newClient(endpoint, access, secret string) *s3.Client {
	return s3.New(s3.Options{
		Region:                     Region,
		BaseEndpoint:               aws.String(endpoint),
		UsePathStyle:               true,
		Credentials:                credentials.NewStaticCredentialsProvider(access, secret, ""),
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
}

// Binary finds versitygw: $ICEGATE_VERSITYGW, else versitygw on PATH, else
// the go install location.
func Binary() (string, error) {
	if p := os.Getenv(BinaryEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", BinaryEnv, p, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	if gopath := os.Getenv("GOPATH"); gopath != "" {
		dirs = append(dirs, filepath.Join(gopath, "bin"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	dirs = append(dirs, "/root/go/bin")
	for _, d := range dirs {
		p := filepath.Join(d, "versitygw")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("versitygw not found")
}

// Start runs versitygw over a fresh t.TempDir() on a free loopback port
// with random root credentials, waits until it answers and creates a
// bucket. The server stops when the test ends. Without the binary the test
// is skipped, or fails when ICEGATE_REQUIRE_S3=1.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("S3 tests required (%s=1) but %v: %s", RequireEnv, err, installHint)
		}
		t.Skipf("S3-compatible server unavailable (%v): %s", err, installHint)
	}
	s := &Server{
		Bucket:    "icegate-test",
		AccessKey: "icegate" + randHex(6),
		SecretKey: randHex(20),
		Dir:       t.TempDir(),
	}
	var lastErr error
	for range 3 { // another process may take the port between probe and bind
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		if lastErr = s.run(t, bin, port); lastErr == nil {
			break
		}
	}
	if lastErr != nil {
		t.Fatalf("start versitygw: %v", lastErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &s.Bucket}); err != nil {
		t.Fatalf("create bucket %s: %v", s.Bucket, err)
	}
	return s
}

// lockedBuffer collects the server's output for failure messages.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		return len(p), nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// run starts the server on port and waits until it answers.
func (s *Server) run(t testing.TB, bin string, port int) error {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	cmd := exec.Command(bin,
		"--port", addr,
		"--access", s.AccessKey,
		"--secret", s.SecretKey,
		"--region", Region,
		"--quiet",
		"posix", s.Dir)
	// Keep the credentials out of a test's environment from reaching it.
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID=", "ROOT_SECRET_ACCESS_KEY=", "ROOT_ACCESS_KEY=", "ROOT_SECRET_KEY=")
	var out lockedBuffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	endpoint := "http://" + addr
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case err := <-exited:
			return fmt.Errorf("versitygw exited (%v):\n%s", err, out.String())
		default:
		}
		resp, err := http.Get(endpoint + "/")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			stop()
			return fmt.Errorf("versitygw did not answer on %s within 20s: %v\n%s", addr, err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.Endpoint = endpoint
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			if o := out.String(); o != "" {
				t.Logf("versitygw output:\n%s", o)
			}
		}
	})
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
