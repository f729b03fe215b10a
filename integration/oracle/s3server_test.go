package oracle

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// s3Server is a versitygw serving a temp directory over the S3 API, with
// one bucket.
type s3Server struct {
	Endpoint  string // http://127.0.0.1:PORT
	Bucket    string
	AccessKey string
	SecretKey string
	// Root is the directory versitygw serves: the bucket's objects are
	// the files under Root/Bucket.
	Root string
}

// Props are the S3 properties of an Iceberg catalog whose files are in
// the server's bucket, in the names Iceberg's FileIO takes (icegate's
// catalogs and iceberg-go's alike).
func (s s3Server) Props() map[string]string {
	return map[string]string{
		"s3.endpoint":          s.Endpoint,
		"s3.access-key-id":     s.AccessKey,
		"s3.secret-access-key": s.SecretKey,
		"s3.region":            "us-east-1",
		"s3.path-style-access": "true",
	}
}

// versitygwBinary finds versitygw as the main module's tests do:
// $ICEGATE_VERSITYGW, else on the PATH, else where go install puts it
// ($GOBIN, $GOPATH/bin, ~/go/bin). Without it the test is skipped, unless
// ICEGATE_REQUIRE_S3=1 (as .ci/run sets) makes that a failure.
func versitygwBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("ICEGATE_VERSITYGW"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("ICEGATE_VERSITYGW: %v", err)
		}
		return bin
	}
	if bin, err := exec.LookPath("versitygw"); err == nil {
		return bin
	}
	var dirs []string
	if d := os.Getenv("GOBIN"); d != "" {
		dirs = append(dirs, d)
	}
	if d := os.Getenv("GOPATH"); d != "" {
		dirs = append(dirs, filepath.Join(d, "bin"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		if bin := filepath.Join(d, "versitygw"); isFile(bin) {
			return bin
		}
	}
	const how = "versitygw (an S3 server) not found: set ICEGATE_VERSITYGW to its binary or install it " +
		"(go install github.com/versity/versitygw/cmd/versitygw@v1.8.0)"
	if os.Getenv("ICEGATE_REQUIRE_S3") == "1" {
		t.Fatal(how + "; ICEGATE_REQUIRE_S3=1 makes this a failure")
	}
	t.Skip(how)
	return ""
}

// startS3 starts versitygw with its posix backend over a temp directory,
// with one bucket, until the test ends.
func startS3(t *testing.T) s3Server {
	t.Helper()
	bin := versitygwBinary(t)
	s := s3Server{Bucket: "oracle", AccessKey: "oracle-access", SecretKey: "oracle-secret-key", Root: t.TempDir()}
	// The posix backend serves every top-level directory as a bucket.
	if err := os.Mkdir(filepath.Join(s.Root, s.Bucket), 0o755); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	s.Endpoint = "http://" + addr
	var logs bytes.Buffer
	cmd := exec.Command(bin, "--port", addr, "--access", s.AccessKey, "--secret", s.SecretKey, "--quiet", "posix", s.Root)
	cmd.Env = cleanEnv()
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start versitygw: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("versitygw log:\n%s", logs.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return s
		}
		select {
		case err := <-exited:
			exited <- err // for the cleanup, which waits for it too
			t.Fatalf("versitygw exited early: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("versitygw not accepting on %s: %v\n%s", addr, err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
