package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/spf13/pflag"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/buildinfo"
	"github.com/icegate/icegate/internal/fixtures"
)

// run executes the command line args with stdin and returns stdout,
// stderr and the error.
func run(ctx context.Context, stdin string, args ...string) (string, string, error) {
	var out, errOut bytes.Buffer
	root := newRootCommand(strings.NewReader(stdin), &out, &errOut)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

func TestVersion(t *testing.T) {
	out, _, err := run(context.Background(), "", "version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "icegate "+buildinfo.Version()+" (commit ") {
		t.Errorf("version printed %q", out)
	}
}

// TestUserAdd checks that the printed entry is a valid users: list item
// that conf loads and auth accepts.
func TestUserAdd(t *testing.T) {
	out, _, err := run(context.Background(), "correct horse\n", "user", "add", "alice", "--password-stdin")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "icegate.yaml")
	if err := os.WriteFile(file, []byte("users:\n"+out), 0o600); err != nil {
		t.Fatal(err)
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	conf.AddFlags(fs)
	if err := fs.Parse([]string{"--config", file}); err != nil {
		t.Fatal(err)
	}
	cfg, err := conf.Load(fs, nil)
	if err != nil {
		t.Fatalf("conf.Load of the printed entry:\n%s\n%v", out, err)
	}
	if len(cfg.Users) != 1 || cfg.Users[0].Name != "alice" {
		t.Fatalf("users %+v, want alice", cfg.Users)
	}
	if _, err := auth.ParseVerifier(cfg.Users[0].SCRAM); err != nil {
		t.Errorf("auth rejects the verifier: %v", err)
	}
	if strings.Contains(out, "correct horse") {
		t.Errorf("output contains the password:\n%s", out)
	}
}

func TestCommandErrors(t *testing.T) {
	// An empty warehouse of the test's own: the system temp directory is
	// shared with other packages' tests creating and removing directories.
	warehouse := t.TempDir()
	tests := []struct {
		name  string
		stdin string
		args  []string
		err   string
	}{
		{"empty password", "\n", []string{"user", "add", "bob", "--password-stdin"}, "empty password"},
		{"no terminal", "", []string{"user", "add", "bob"}, "not a terminal"},
		{"user add without name", "", []string{"user", "add"}, "accepts 1 arg"},
		{"bad listen", "", []string{"serve", "--listen", "nowhere"}, `conf: listen: "nowhere" is not host:port`},
		{"bad log level", "", []string{"serve", "--log-level", "loud"}, "conf: log.level"},
		{"serve takes no args", "", []string{"serve", "extra"}, "unknown command"},
		{"trust on a public address", "", []string{"serve", "--warehouse", warehouse, "--listen", "0.0.0.0:0"}, "refusing to listen"},
		{"tls key missing", "", []string{"serve", "--tls-cert", "/nonexistent.crt"}, "conf: tls.key: must be set together with tls.cert"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(context.Background(), tc.stdin, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}

// TestServe starts `icegate serve` in-process on a free port, queries it,
// and stops it by cancelling its context as SIGINT would.
func TestServe(t *testing.T) {
	addr, logs := startServe(t)
	if !strings.Contains(logs.String(), "psql -h 127.0.0.1 -p ") {
		t.Errorf("listening line lacks the psql login hint:\n%s", logs.String())
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+addr+"/icegate?sslmode=disable")
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	var n int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM iceberg.duckdb__uuid").Scan(&n); err != nil || n != 10 {
		t.Errorf("count(*) = %d, %v; want 10", n, err)
	}
}

// TestServeGreets checks what `icegate serve` tells a newcomer at start:
// the address, the warehouse as an absolute path, plainly when it is
// missing or empty, how many namespaces and tables it holds, and the psql
// command that connects.
func TestServeGreets(t *testing.T) {
	ctx := context.Background()
	warehouse := filepath.Join(t.TempDir(), "wh")

	// Missing: said, and not created just by serving.
	addr, logs, stop := serveOn(t, t.TempDir(), warehouse)
	wantLine(t, logs, "warehouse directory "+warehouse+" does not exist; it will be created on the first CREATE SCHEMA")
	wantLine(t, logs, `msg="icegate listening" addr=`+addr+" warehouse="+warehouse+" namespaces=0 tables=0 ")
	_, port, _ := net.SplitHostPort(addr)
	wantLine(t, logs, `msg="connect with: psql -h 127.0.0.1 -p `+port+` -U icegate icegate" auth="no password: trust on loopback only"`)
	if _, err := os.Stat(warehouse); !os.IsNotExist(err) {
		t.Fatalf("serving created the warehouse directory: %v", err)
	}
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+addr+"/icegate?sslmode=disable")
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	for _, sql := range []string{"CREATE SCHEMA a", "CREATE SCHEMA b", "CREATE TABLE a.t1 (x int)", "CREATE TABLE a.t2 (x int)", "CREATE TABLE b.t3 (x int)"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	conn.Close(ctx)
	stop()

	// Found: counted. The path is absolute even when given relative.
	_, logs, stop = serveOn(t, filepath.Dir(warehouse), filepath.Base(warehouse), "--catalog-name", "lake")
	wantLine(t, logs, "warehouse "+warehouse+": 2 namespaces, 3 tables")
	wantLine(t, logs, " warehouse="+warehouse+" namespaces=2 tables=3 ")
	wantLine(t, logs, ` -U icegate lake"`)
	stop()

	// Empty: said.
	empty := t.TempDir()
	_, logs, _ = serveOn(t, t.TempDir(), empty)
	wantLine(t, logs, "warehouse directory "+empty+" is empty")

	// Not a directory: refused.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(ctx, "", "serve", "--warehouse", file, "--listen", "127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("serve on a file: %v, want an error saying it is not a directory", err)
	}
}

// TestLoginHint checks the psql command line the greeting prints: a
// wildcard address names loopback, and the user follows the configuration.
func TestLoginHint(t *testing.T) {
	tests := []struct {
		addr     *net.TCPAddr
		cfg      conf.Config
		command  string
		howLeads string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 5433}, conf.Config{CatalogName: "icegate"},
			"psql -h 127.0.0.1 -p 5433 -U icegate icegate", "no password"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 6000}, conf.Config{CatalogName: "lake", Password: "x"},
			"psql -h 127.0.0.1 -p 6000 -U icegate lake", "password: the value of ICEGATE_PASSWORD"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 6001}, conf.Config{CatalogName: "icegate", Users: []conf.User{{Name: "alice"}}},
			"psql -h 127.0.0.1 -p 6001 -U alice icegate", "password of a configured user"},
		{&net.TCPAddr{IP: net.ParseIP("10.1.2.3"), Port: 5433}, conf.Config{CatalogName: "icegate", Password: "x"},
			"psql -h 10.1.2.3 -p 5433 -U icegate icegate", "password"},
	}
	for _, tc := range tests {
		command, how := loginHint(tc.addr, &tc.cfg)
		if command != tc.command || !strings.HasPrefix(how, tc.howLeads) {
			t.Errorf("loginHint(%s) = %q, %q; want %q, %q...", tc.addr, command, how, tc.command, tc.howLeads)
		}
	}
}

// wantLine fails the test unless the log has a line containing want.
func wantLine(t *testing.T, logs *syncBuffer, want string) {
	t.Helper()
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, want) && strings.Contains(line, "level=INFO") {
			return
		}
	}
	t.Errorf("no info line in the log contains %q:\n%s", want, logs.String())
}

// TestServeTLS serves with a certificate and key and connects with
// sslmode=require.
func TestServeTLS(t *testing.T) {
	certFile, keyFile := writeSelfSigned(t)
	addr, _ := startServe(t, "--tls-cert", certFile, "--tls-key", keyFile)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+addr+"/icegate?sslmode=require")
	if err != nil {
		t.Fatalf("connect with TLS: %v", err)
	}
	defer conn.Close(ctx)
	if _, ok := conn.PgConn().Conn().(*tls.Conn); !ok {
		t.Errorf("connection is %T, want *tls.Conn", conn.PgConn().Conn())
	}
	var one int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("SELECT 1 over TLS: %d, %v", one, err)
	}
}

// startServe runs `icegate serve` over the fixtures on 127.0.0.1:0 with
// extra flags, waits for its listening line and returns the address. The
// server is stopped, as SIGINT would stop it, when the test ends, and must
// return nil.
func startServe(t *testing.T, extra ...string) (string, *syncBuffer) {
	t.Helper()
	addr, logs, _ := serveOn(t, t.TempDir(), fixtures.Warehouse(t), extra...)
	return addr, logs
}

// startServeAt is startServe over warehouse, in the current directory.
func startServeAt(t *testing.T, warehouse string, extra ...string) (string, *syncBuffer) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	addr, logs, _ := serveOn(t, dir, warehouse, extra...)
	return addr, logs
}

// serveOn runs `icegate serve --warehouse warehouse` (without the flag when
// warehouse is "") on 127.0.0.1:0 in the
// working directory dir (without an icegate.yaml), waits for its listening line
// and returns the address, the log and a stop function that stops it as
// SIGINT would and checks it returned nil. The test's end stops it too.
func serveOn(t *testing.T, dir, warehouse string, extra ...string) (string, *syncBuffer, func()) {
	t.Helper()
	t.Chdir(dir)

	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		rootCmd := newRootCommand(strings.NewReader(""), &bytes.Buffer{}, logs)
		args := []string{"serve", "--listen", "127.0.0.1:0"}
		if warehouse != "" { // "": the catalogs of the configuration only
			args = append(args, "--warehouse", warehouse)
		}
		rootCmd.SetArgs(append(args, extra...))
		done <- rootCmd.ExecuteContext(ctx)
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("serve returned %v after its context was cancelled", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("serve did not return within 10s of cancel")
			}
		})
	}
	t.Cleanup(stop)
	addrRE := regexp.MustCompile(`msg="icegate listening" addr=(\S+)`)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if m := addrRE.FindStringSubmatch(logs.String()); m != nil {
			return m[1], logs, stop
		}
		select {
		case err := <-done:
			done <- err
			t.Fatalf("serve returned early: %v\n%s", err, logs.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no listening line in the log after 20s:\n%s", logs.String())
		}
	}
}

// writeSelfSigned writes a fresh self-signed certificate for 127.0.0.1 and
// its key, PEM-encoded, and returns their paths.
func writeSelfSigned(t *testing.T) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "icegate test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
