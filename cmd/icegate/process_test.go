package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The tests here run the binary `make release` builds as a separate
// process, so that real signals reach it.

const (
	releaseVersion = "v9.8.7-test"
	releaseCommit  = "0123456789ab"
)

var (
	releaseOnce sync.Once
	releaseBin  string
	releaseErr  error
)

// releaseBinary builds icegate once for the package's tests with the
// Makefile's version flags (LDFLAGS), VERSION and COMMIT set.
func releaseBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the release binary; not in -short mode")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed: the release target cannot be run")
	}
	releaseOnce.Do(func() {
		dir, err := os.MkdirTemp("", "icegate-release-")
		if err != nil {
			releaseErr = err
			return
		}
		bin := filepath.Join(dir, "icegate")
		// The build target sets the same version flags as release, without
		// -trimpath, which would rebuild every package (cgo too) from scratch.
		cmd := exec.Command("make", "-C", "../..", "build", "BIN="+bin, "VERSION="+releaseVersion, "COMMIT="+releaseCommit)
		out, err := cmd.CombinedOutput()
		if err != nil {
			releaseErr = fmt.Errorf("make build: %v\n%s", err, out)
			return
		}
		releaseBin = bin
	})
	if releaseErr != nil {
		t.Fatal(releaseErr)
	}
	return releaseBin
}

// server is an icegate process.
type server struct {
	cmd  *exec.Cmd
	addr string
	logs *syncBuffer
	done chan error
}

// startProcess runs `icegate serve` over warehouse on a free port with
// the extra environment and waits for its listening line.
func startProcess(t *testing.T, bin, warehouse string, env ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--warehouse", warehouse, "--listen", "127.0.0.1:0")
	cmd.Dir = t.TempDir()
	cmd.Env = append(cleanEnv(), env...)
	s := &server{cmd: cmd, logs: &syncBuffer{}, done: make(chan error, 1)}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addrRE := regexp.MustCompile(`msg="icegate listening" addr=(\S+)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			_, _ = s.logs.Write([]byte(line + "\n"))
			if m := addrRE.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		s.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-s.done
		}
	})
	select {
	case s.addr = <-found:
	case err := <-s.done:
		t.Fatalf("icegate exited before listening: %v\n%s", err, s.logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("icegate not listening after 60s\n%s", s.logs.String())
	}
	return s
}

// cleanEnv is the test's environment without ICEGATE_* settings.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ICEGATE_") {
			out = append(out, kv)
		}
	}
	return out
}

// wait waits for the process to exit and returns its exit status.
func (s *server) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-s.done:
	case <-time.After(within):
		t.Fatalf("icegate still running %s after the signal\n%s", within, s.logs.String())
	}
	return s.cmd.ProcessState.ExitCode()
}

func (s *server) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

func (s *server) connect(t *testing.T) *pgx.Conn {
	t.Helper()
	c, err := s.tryConnect()
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

func (s *server) tryConnect() (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return pgx.Connect(ctx, "postgres://icegate@"+s.addr+"/icegate?sslmode=disable")
}

func exec1(t *testing.T, c *pgx.Conn, sql string) {
	t.Helper()
	if _, err := c.Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func count(t *testing.T, c *pgx.Conn, table string) int64 {
	t.Helper()
	var n int64
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// sqlState is the SQLSTATE of err, "" when it has none.
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// slowRows is COPY text input of n rows (id, label), one row every
// interval; started is closed at the first read.
type slowRows struct {
	n, next  int
	interval time.Duration
	started  chan struct{}
	once     sync.Once
}

func (r *slowRows) Read(b []byte) (int, error) {
	r.once.Do(func() { close(r.started) })
	if r.next >= r.n {
		return 0, io.EOF
	}
	if r.next > 0 {
		time.Sleep(r.interval)
	}
	r.next++
	return copy(b, fmt.Sprintf("%d\trow %d\n", r.next, r.next)), nil
}

// TestReleaseBuild checks that the release target's version and commit
// reach `icegate version` and SELECT version(), while server_version
// stays PostgreSQL's for clients.
func TestReleaseBuild(t *testing.T) {
	bin := releaseBinary(t)
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("icegate version: %v\n%s", err, out)
	}
	if want := "icegate " + releaseVersion + " (commit " + releaseCommit + ", go"; !strings.HasPrefix(string(out), want) {
		t.Errorf("icegate version printed %q, want it to start with %q", out, want)
	}
	s := startProcess(t, bin, t.TempDir())
	c := s.connect(t)
	var v, sv string
	if err := c.QueryRow(context.Background(), "SELECT version(), current_setting('server_version')").Scan(&v, &sv); err != nil {
		t.Fatal(err)
	}
	if want := "PostgreSQL 15."; !strings.HasPrefix(v, want) || !strings.Contains(v, "(icegate "+releaseVersion+" "+releaseCommit+")") {
		t.Errorf("version() = %q, want PostgreSQL 15.x with (icegate %s %s)", v, releaseVersion, releaseCommit)
	}
	if ps := c.PgConn().ParameterStatus("server_version"); ps != sv || !strings.HasPrefix(sv, "15.") {
		t.Errorf("server_version = %q (ParameterStatus %q), want PostgreSQL's 15.x", sv, ps)
	}
}

// TestMain removes the binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if releaseBin != "" {
		_ = os.RemoveAll(filepath.Dir(releaseBin))
	}
	os.Exit(code)
}
