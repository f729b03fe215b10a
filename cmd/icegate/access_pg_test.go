package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/fixtures"
)

// accessHBA are the rules both servers get in TestAccessMatchesPostgres.
const accessHBA = `hostnossl all bob  127.0.0.1/32 trust
host      all carl 127.0.0.1/32 reject
hostssl   all ann  127.0.0.1/32 cert
hostssl   all dave,erin 127.0.0.1/32 scram-sha-256
`

// TestAccessMatchesPostgres starts a private PostgreSQL with the same
// pg_hba.conf, TLS certificate and client CA as an icegate server and
// connects to both with psql as several users, with and without TLS and
// client certificates: each attempt must succeed on both or fail with the
// same message.
func TestAccessMatchesPostgres(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is needed to compare access rules with PostgreSQL's")
	}
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		t.Skip("no PostgreSQL server binaries under /usr/lib/postgresql to compare access rules with")
	}
	slices.Sort(bins)
	pgBin := filepath.Dir(bins[len(bins)-1])

	pki := t.TempDir()
	ca, caKey := makeCA(t)
	writeCert(t, pki, "ca", ca.Raw, nil)
	srvDER, srvKey := signCert(t, ca, caKey, "127.0.0.1", true)
	writeCert(t, pki, "server", srvDER, srvKey)
	for _, u := range []string{"ann", "bob"} {
		der, key := signCert(t, ca, caKey, u, false)
		writeCert(t, pki, u, der, key)
	}

	pgPort := startPostgres(t, pgBin, pki)
	warehouse := fixtures.Warehouse(t)
	dir := t.TempDir()
	var users strings.Builder
	users.WriteString("users:\n")
	for _, u := range []string{"ann", "bob", "carl", "dave"} {
		v, err := auth.NewVerifier(u + "-pw")
		if err != nil {
			t.Fatal(err)
		}
		users.WriteString("  - name: " + u + "\n    scram: \"" + v + "\"\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "pg_hba.conf"), []byte(accessHBA), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "icegate.yaml")
	yaml := users.String() + fmt.Sprintf("tls:\n  cert: %s\n  key: %s\n  ca: %s\naccess:\n  hba-file: %s\n",
		filepath.Join(pki, "server.crt"), filepath.Join(pki, "server.key"), filepath.Join(pki, "ca.crt"), filepath.Join(dir, "pg_hba.conf"))
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	igAddr, _, _ := serveOn(t, dir, warehouse, "--config", config)
	_, igPort, _ := net.SplitHostPort(igAddr)

	attempts := []struct {
		user, password, options string
	}{
		{"bob", "", "sslmode=disable"},
		{"bob", "", "sslmode=require"},
		{"carl", "carl-pw", "sslmode=disable"},
		{"carl", "carl-pw", "sslmode=require"},
		{"ann", "", "sslmode=require"},
		{"ann", "", "sslmode=require sslcert=" + pki + "/bob.crt sslkey=" + pki + "/bob.key"},
		{"ann", "", "sslmode=verify-ca sslrootcert=" + pki + "/ca.crt sslcert=" + pki + "/ann.crt sslkey=" + pki + "/ann.key"},
		{"ann", "", "sslmode=disable"},
		{"dave", "dave-pw", "sslmode=require channel_binding=require"},
		{"dave", "wrong", "sslmode=require channel_binding=require"},
		{"dave", "dave-pw", "sslmode=disable"},
		{"erin", "erin-pw", "sslmode=require"},
		{"frank", "", "sslmode=prefer"},
	}
	portRE := regexp.MustCompile(`port \d+`)
	// An empty home: no ~/.postgresql/postgresql.crt sent unasked.
	home := t.TempDir()
	run := func(port, user, password, options string) string {
		conninfo := fmt.Sprintf("host=127.0.0.1 port=%s dbname=icegate user=%s %s", port, user, options)
		cmd := exec.Command(psql, "-X", "-At", "-d", conninfo, "-c", "SELECT current_user")
		cmd.Env = append(os.Environ(), "PGPASSWORD="+password, "PGCONNECT_TIMEOUT=20", "HOME="+home)
		out, _ := cmd.CombinedOutput()
		return portRE.ReplaceAllString(strings.TrimSpace(string(out)), "port N")
	}
	for _, at := range attempts {
		pg := run(strconv.Itoa(pgPort), at.user, at.password, at.options)
		ig := run(igPort, at.user, at.password, at.options)
		if pg != ig {
			t.Errorf("%s %s:\nPostgreSQL: %s\nicegate:    %s", at.user, at.options, pg, ig)
		} else {
			t.Logf("%s %s: %s", at.user, at.options, ig)
		}
	}
}

func makeCA(t *testing.T) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "icegate test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return ca, key
}

// signCert issues a certificate for cn (a server's for 127.0.0.1, or a
// client's) and returns it with its PKCS#8 key.
func signCert(t *testing.T, ca *x509.Certificate, caKey *ecdsa.PrivateKey, cn string, server bool) ([]byte, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return der, keyDER
}

func writeCert(t *testing.T, dir, name string, der, key []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name+".crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if key != nil {
		if err := os.WriteFile(filepath.Join(dir, name+".key"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: key}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// startPostgres runs a private PostgreSQL cluster (as the user postgres
// when the test runs as root) with TLS from pki and the rules of
// accessHBA after a local trust line, creates the users and the database
// icegate, and returns its port. It is stopped when the test ends.
func startPostgres(t *testing.T, pgBin, pki string) int {
	t.Helper()
	var asPG []string
	if os.Geteuid() == 0 {
		if _, err := user.Lookup("postgres"); err != nil {
			t.Skip("running as root without a postgres user to run PostgreSQL as")
		}
		runuser, err := exec.LookPath("runuser")
		if err != nil {
			t.Skip("running as root without runuser to run PostgreSQL as postgres")
		}
		asPG = []string{runuser, "-u", "postgres", "--"}
	}
	// asOwner is a command run as the cluster's owner.
	asOwner := func(args ...string) *exec.Cmd {
		full := append(slices.Clone(asPG), args...)
		return exec.Command(full[0], full[1:]...)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := asOwner(args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	dir, err := os.MkdirTemp("", "icegate-access-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if asPG != nil {
		run0 := exec.Command("chown", "postgres", dir)
		if out, err := run0.CombinedOutput(); err != nil {
			t.Fatalf("chown: %v\n%s", err, out)
		}
	}
	data := filepath.Join(dir, "data")
	run(filepath.Join(pgBin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres")
	for _, f := range []string{"server.crt", "server.key", "ca.crt"} {
		b, err := os.ReadFile(filepath.Join(pki, f))
		if err != nil {
			t.Fatal(err)
		}
		// Written by the cluster's owner: PostgreSQL wants its key private.
		cmd := asOwner("sh", "-c", "umask 077 && cat > "+filepath.Join(data, f))
		cmd.Stdin = strings.NewReader(string(b))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("write %s: %v\n%s", f, err, out)
		}
	}
	hba := "local all all trust\n" + accessHBA
	cmd := asOwner("sh", "-c", "cat > "+filepath.Join(data, "pg_hba.conf"))
	cmd.Stdin = strings.NewReader(hba)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("write pg_hba.conf: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key -c ssl_ca_file=ca.crt", port, dir)
	run(filepath.Join(pgBin, "pg_ctl"), "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "-o", opts, "start")
	t.Cleanup(func() {
		_ = asOwner(filepath.Join(pgBin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop").Run()
	})
	sql := "CREATE DATABASE icegate; CREATE ROLE ann LOGIN; CREATE ROLE bob LOGIN; CREATE ROLE carl LOGIN PASSWORD 'carl-pw'; CREATE ROLE dave LOGIN PASSWORD 'dave-pw';"
	psql := exec.Command("psql", "-X", "-q", "-h", dir, "-p", strconv.Itoa(port), "-U", "postgres", "-d", "postgres")
	psql.Stdin = strings.NewReader(strings.ReplaceAll(sql, "; ", ";\n"))
	if out, err := psql.CombinedOutput(); err != nil {
		t.Fatalf("create roles: %v\n%s", err, out)
	}
	return port
}
