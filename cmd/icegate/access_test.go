package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/fixtures"
)

// TestReloadOnSIGHUP serves with a configuration file, rewrites it and
// sends the process SIGHUP: new connections follow the new users and
// rules, the open session goes on, and a configuration that does not load
// leaves the one in force.
func TestReloadOnSIGHUP(t *testing.T) {
	dir := t.TempDir()
	verifiers := map[string]string{}
	for _, name := range []string{"ann", "bob", "carl"} {
		v, err := auth.NewVerifier(name + "-pw")
		if err != nil {
			t.Fatal(err)
		}
		verifiers[name] = v
	}
	config := filepath.Join(dir, "icegate.yaml")
	extra := "" // more of the configuration file
	write := func(users []string, rules string) {
		t.Helper()
		var b strings.Builder
		b.WriteString(extra + "users:\n")
		for _, u := range users {
			b.WriteString("  - name: " + u + "\n    scram: \"" + verifiers[u] + "\"\n")
		}
		b.WriteString("access:\n  rules:\n" + rules)
		if err := os.WriteFile(config, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write([]string{"ann", "bob"}, "    - {type: host, database: all, user: all, address: 127.0.0.1/32, method: scram-sha-256}\n")
	addr, logs, _ := serveOn(t, dir, fixtures.Warehouse(t), "--config", config)

	ctx := context.Background()
	connect := func(user string) (*pgx.Conn, error) {
		conn, err := pgx.Connect(ctx, "postgres://"+user+":"+user+"-pw@"+addr+"/icegate?sslmode=disable")
		if err == nil {
			t.Cleanup(func() { conn.Close(ctx) })
		}
		return conn, err
	}
	refused := func(user, message string) {
		t.Helper()
		_, err := connect(user)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Message != message {
			t.Fatalf("%s: got %v, want FATAL %q", user, err, message)
		}
	}
	hangup := func(wantLog string) {
		t.Helper()
		before := strings.Count(logs.String(), wantLog)
		if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for strings.Count(logs.String(), wantLog) == before {
			if time.Now().After(deadline) {
				t.Fatalf("no %q in the log after SIGHUP:\n%s", wantLog, logs.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	open, err := connect("ann")
	if err != nil {
		t.Fatal(err)
	}
	refused("carl", `password authentication failed for user "carl"`)

	write([]string{"ann", "bob", "carl"}, "    - {type: host, database: all, user: ann, address: all, method: reject}\n"+
		"    - {type: host, database: all, user: all, address: 127.0.0.1/32, method: scram-sha-256}\n")
	hangup("configuration reloaded")
	refused("ann", `pg_hba.conf rejects connection for host "127.0.0.1", user "ann", database "icegate", no encryption`)
	if _, err := connect("carl"); err != nil {
		t.Fatalf("carl, added by the reload: %v", err)
	}
	var n int64
	if err := open.QueryRow(ctx, "SELECT count(*) FROM iceberg.duckdb__uuid").Scan(&n); err != nil || n != 10 {
		t.Fatalf("the session opened before the reload: %d, %v", n, err)
	}

	// A trust rule for every address does not load: the rules in force stay.
	write([]string{"ann", "bob"}, "    - {type: host, database: all, user: all, address: all, method: trust}\n")
	hangup("configuration not reloaded")
	if !strings.Contains(logs.String(), "method trust is allowed only for loopback addresses") {
		t.Errorf("the log does not say why the configuration was not reloaded:\n%s", logs.String())
	}
	refused("ann", `pg_hba.conf rejects connection for host "127.0.0.1", user "ann", database "icegate", no encryption`)
	if _, err := connect("carl"); err != nil {
		t.Fatalf("carl after a failed reload: %v", err)
	}

	// Settings read only at start are named as requiring a restart; the
	// rest of the file reloads.
	extra = "http:\n  listen: 127.0.0.1:0\nlog:\n  statement: all\n"
	write([]string{"ann", "bob"}, "    - {type: host, database: all, user: all, address: 127.0.0.1/32, method: scram-sha-256}\n")
	hangup("configuration reloaded")
	for _, key := range []string{"http.listen", "log.statement"} {
		if !strings.Contains(logs.String(), `msg="setting changed in the configuration requires restart; the value in force stays" setting=`+key) {
			t.Errorf("the log does not say %s requires a restart:\n%s", key, logs.String())
		}
	}
	if strings.Contains(logs.String(), "setting=listen") {
		t.Errorf("listen, unchanged, is said to require a restart:\n%s", logs.String())
	}
	if _, err := connect("ann"); err != nil {
		t.Fatalf("ann, whom the last reload lets in again: %v", err)
	}
}

// TestReloadTLSCertificate replaces the certificate and key files and
// sends SIGHUP: new connections get the new certificate, a session opened
// over TLS before goes on.
func TestReloadTLSCertificate(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := writeSelfSigned(t)
	config := filepath.Join(dir, "icegate.yaml")
	body := "tls:\n  cert: " + certFile + "\n  key: " + keyFile + "\n"
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ICEGATE_PASSWORD", "pw")
	addr, logs, _ := serveOn(t, dir, fixtures.Warehouse(t), "--config", config)
	ctx := context.Background()
	connect := func() (*pgx.Conn, []byte) {
		t.Helper()
		c, err := pgx.Connect(ctx, "postgres://icegate:pw@"+addr+"/icegate?sslmode=require")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(ctx) })
		tc, ok := c.PgConn().Conn().(*tls.Conn)
		if !ok {
			t.Fatalf("connection over %T, want TLS", c.PgConn().Conn())
		}
		return c, tc.ConnectionState().PeerCertificates[0].Raw
	}
	old, first := connect()

	newCert, newKey := writeSelfSigned(t)
	for _, f := range [][2]string{{newCert, certFile}, {newKey, keyFile}} {
		data, err := os.ReadFile(f[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f[1], data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := strings.Count(logs.String(), "configuration reloaded")
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); strings.Count(logs.String(), "configuration reloaded") == before; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no reload logged after SIGHUP:\n%s", logs.String())
		}
	}
	_, second := connect()
	want, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	if block, _ := pem.Decode(want); block == nil || !bytes.Equal(second, block.Bytes) {
		t.Error("a connection after the reload did not get the new certificate")
	}
	if bytes.Equal(first, second) {
		t.Error("the certificate did not change at the reload")
	}
	var n int64
	if err := old.QueryRow(ctx, "SELECT count(*) FROM iceberg.duckdb__uuid").Scan(&n); err != nil || n != 10 {
		t.Fatalf("the TLS session opened before the reload: %d, %v", n, err)
	}
}

// TestServeRefusesBadRules checks rules that cannot work stop the server
// at start with an error naming the rule.
func TestServeRefusesBadRules(t *testing.T) {
	certFile, keyFile := writeSelfSigned(t)
	warehouse := fixtures.Warehouse(t)
	cases := []struct {
		name, config, want string
	}{
		{"trust for every address", "access:\n  rules:\n    - {type: host, database: all, user: all, address: 0.0.0.0/0, method: trust}\n",
			`access rule access.rules[0]: method trust is allowed only for loopback addresses (127.0.0.0/8, ::1/128), not "0.0.0.0/0"`},
		{"cert without tls.ca", "tls:\n  cert: " + certFile + "\n  key: " + keyFile + "\naccess:\n  rules:\n    - {type: hostssl, database: all, user: all, address: all, method: cert}\n",
			"access rule access.rules[0]: client certificates can only be checked with tls.ca set"},
		{"local", "access:\n  rules:\n    - {type: local, database: all, user: all, address: all, method: trust}\n",
			"access rule access.rules[0]: connection type local is not supported: icegate serves TCP only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			config := filepath.Join(dir, "icegate.yaml")
			if err := os.WriteFile(config, []byte(tc.config), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			_, _, err := run(context.Background(), "", "serve", "--config", config, "--warehouse", warehouse, "--listen", "127.0.0.1:0")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("serve: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
