package wire

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/pgerr"
)

// testPKI is a CA made for one test, with what it signed.
type testPKI struct {
	ca    *x509.Certificate
	caKey crypto.Signer
	dir   string
}

func newTestPKI(t *testing.T) *testPKI {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(der)
	return &testPKI{ca: ca, caKey: key, dir: t.TempDir()}
}

// issue signs a certificate for cn with a new key of curve (P-384 makes
// Go sign with ECDSA-SHA384 when the CA key is P-384; the CA here is
// P-256, so alg picks the signature hash). server adds 127.0.0.1 as a
// name. It returns the pair and the paths of its PEM files.
func (p *testPKI) issue(t *testing.T, cn string, server bool, alg x509.SignatureAlgorithm) (tls.Certificate, string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, SignatureAlgorithm: alg}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	} else {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.ca, key.Public(), p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile := filepath.Join(p.dir, cn+".crt")
	keyFile := filepath.Join(p.dir, cn+".key")
	writePEM(t, certFile, "CERTIFICATE", der)
	writePEM(t, keyFile, "PRIVATE KEY", keyDER)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	return pair, certFile, keyFile
}

func (p *testPKI) caFile(t *testing.T) string {
	path := filepath.Join(p.dir, "ca.crt")
	writePEM(t, path, "CERTIFICATE", p.ca.Raw)
	return path
}

func (p *testPKI) pool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(p.ca)
	return pool
}

// serverTLS is a server configuration with a certificate from p whose
// signature uses alg, asking for client certificates of p's CA.
func (p *testPKI) serverTLS(t *testing.T, alg x509.SignatureAlgorithm) *tls.Config {
	pair, _, _ := p.issue(t, "server-"+alg.String(), true, alg)
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12,
		ClientCAs: p.pool(), ClientAuth: tls.VerifyClientCertIfGiven}
}

func writePEM(t *testing.T, path, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// accessAuth is an Authenticator with users ann and bob (passwords
// ann-pw and bob-pw) under the rules of hba (pg_hba.conf format).
func accessAuth(t *testing.T, hba string, tlsRequired bool) *auth.Authenticator {
	t.Helper()
	var users []auth.User
	for _, name := range []string{"ann", "bob"} {
		v, err := auth.NewVerifier(name + "-pw")
		if err != nil {
			t.Fatal(err)
		}
		users = append(users, auth.User{Name: name, SCRAM: v})
	}
	var rules []auth.Rule
	if hba != "" {
		var err error
		if rules, err = auth.ParseHBA(strings.NewReader(hba), "pg_hba.conf"); err != nil {
			t.Fatal(err)
		}
	}
	a, err := auth.NewFromConfig(auth.Config{Users: users, Rules: rules, TLSRequired: tlsRequired, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// connectAs connects with pgx as user (password user-pw) with the
// connection string options extra; cert, when set, is the client's.
func connectAs(t *testing.T, addr, user, extra string, cert *tls.Certificate) (*pgx.Conn, error) {
	t.Helper()
	cfg, err := pgx.ParseConfig("postgres://" + user + ":" + user + "-pw@" + addr + "/icegate?" + extra)
	if err != nil {
		t.Fatal(err)
	}
	if cert != nil && cfg.TLSConfig != nil {
		cfg.TLSConfig.Certificates = []tls.Certificate{*cert}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err == nil {
		t.Cleanup(func() { conn.Close(context.Background()) })
		err = conn.Ping(ctx)
	}
	return conn, err
}

// wantFatal checks err is a FATAL with code and message.
func wantFatal(t *testing.T, err error, code, message string) {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != code || pe.Severity != "FATAL" || pe.Message != message {
		t.Fatalf("got %v, want FATAL %s %q", err, code, message)
	}
}

// TestAccessRules connects with pgx, with and without TLS, past rule sets.
func TestAccessRules(t *testing.T) {
	pki := newTestPKI(t)
	serverTLS := pki.serverTLS(t, x509.ECDSAWithSHA256)
	annCert, _, _ := pki.issue(t, "ann", false, x509.ECDSAWithSHA256)
	bobCert, _, _ := pki.issue(t, "bob", false, x509.ECDSAWithSHA256)
	stranger := newTestPKI(t)
	strangerCert, _, _ := stranger.issue(t, "ann", false, x509.ECDSAWithSHA256)

	type attempt struct {
		user, options string
		cert          *tls.Certificate
		code, message string // code "": success
	}
	plain, withTLS := "sslmode=disable", "sslmode=require"
	cases := []struct {
		name        string
		hba         string
		tlsRequired bool
		attempts    []attempt
	}{
		{"hostssl rejects plaintext", "hostssl all all 127.0.0.1/32 scram-sha-256", false, []attempt{
			{"ann", plain, nil, pgerr.InvalidAuthorizationSpec, `no pg_hba.conf entry for host "127.0.0.1", user "ann", database "icegate", no encryption`},
			{"ann", withTLS, nil, "", ""},
			{"ann", "sslmode=require&password=wrong", nil, pgerr.InvalidPassword, `password authentication failed for user "ann"`},
		}},
		{"tls.required refuses plaintext", "", true, []attempt{
			{"bob", plain, nil, pgerr.InvalidAuthorizationSpec, `no pg_hba.conf entry for host "127.0.0.1", user "bob", database "icegate", no encryption`},
			{"bob", withTLS, nil, "", ""},
		}},
		{"hostnossl admits plaintext only", "hostnossl all all 127.0.0.1/32 scram-sha-256", false, []attempt{
			{"ann", plain, nil, "", ""},
			{"ann", withTLS, nil, pgerr.InvalidAuthorizationSpec, `no pg_hba.conf entry for host "127.0.0.1", user "ann", database "icegate", SSL encryption`},
		}},
		{"reject first wins", "host all bob 127.0.0.1/32 reject\nhost all all 127.0.0.1/32 trust", false, []attempt{
			{"bob", plain, nil, pgerr.InvalidAuthorizationSpec, `pg_hba.conf rejects connection for host "127.0.0.1", user "bob", database "icegate", no encryption`},
			{"bob", withTLS, nil, pgerr.InvalidAuthorizationSpec, `pg_hba.conf rejects connection for host "127.0.0.1", user "bob", database "icegate", SSL encryption`},
			{"ann", "sslmode=disable&password=anything", nil, "", ""},
		}},
		{"reject after a match is not reached", "host all all 127.0.0.1/32 scram-sha-256\nhost all bob 127.0.0.1/32 reject", false, []attempt{
			{"bob", plain, nil, "", ""},
		}},
		{"no rule for the database", "host otherdb all all scram-sha-256", false, []attempt{
			{"ann", plain, nil, pgerr.InvalidAuthorizationSpec, `no pg_hba.conf entry for host "127.0.0.1", user "ann", database "icegate", no encryption`},
		}},
		{"cert", "hostssl all all 127.0.0.1/32 cert\nhost all all 127.0.0.1/32 reject", false, []attempt{
			{"ann", "sslmode=require&password=none", &annCert, "", ""},
			{"bob", "sslmode=require&password=none", &bobCert, "", ""},
			{"ann", "sslmode=require&password=none", &bobCert, pgerr.InvalidAuthorizationSpec, `certificate authentication failed for user "ann"`},
			{"ann", withTLS, nil, pgerr.InvalidAuthorizationSpec, "connection requires a valid client certificate"},
			{"ann", plain, nil, pgerr.InvalidAuthorizationSpec, `pg_hba.conf rejects connection for host "127.0.0.1", user "ann", database "icegate", no encryption`},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, Config{Auth: accessAuth(t, tc.hba, tc.tlsRequired), TLS: serverTLS})
			for _, at := range tc.attempts {
				_, err := connectAs(t, ts.addr, at.user, at.options, at.cert)
				if at.code == "" {
					if err != nil {
						t.Errorf("%s %s: %v", at.user, at.options, err)
					}
					continue
				}
				var pe *pgconn.PgError
				if !errors.As(err, &pe) || pe.Code != at.code || pe.Severity != "FATAL" || pe.Message != at.message {
					t.Errorf("%s %s: got %v, want FATAL %s %q", at.user, at.options, err, at.code, at.message)
				}
			}
		})
	}

	t.Run("certificate of another CA", func(t *testing.T) {
		ts := startServer(t, Config{Auth: accessAuth(t, "hostssl all all 127.0.0.1/32 cert", false), TLS: serverTLS})
		_, err := connectAs(t, ts.addr, "ann", withTLS, &strangerCert)
		if err == nil || !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("a certificate of an unknown CA: %v, want a failed TLS handshake", err)
		}
	})
}

// TestAccessRemoteAddress connects from a non-loopback address of this
// machine, when it has one, to check CIDR and samehost matching on a real
// peer address.
func TestAccessRemoteAddress(t *testing.T) {
	var ip net.IP
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			ip = n.IP
			break
		}
	}
	if ip == nil {
		t.Skip("this machine has no non-loopback IPv4 address to connect from")
	}
	other := "10.255.255.0/24"
	if strings.HasPrefix(ip.String(), "10.255.255.") {
		other = "192.0.2.0/24"
	}
	cases := []struct {
		hba, code string
	}{
		{"host all all " + ip.String() + "/32 reject\nhost all all all scram-sha-256", pgerr.InvalidAuthorizationSpec},
		{"host all all " + other + " reject\nhost all all all scram-sha-256", ""},
		{"host all all samehost reject\nhost all all all scram-sha-256", pgerr.InvalidAuthorizationSpec},
		{"host all all 127.0.0.1/32 trust", pgerr.InvalidAuthorizationSpec},
	}
	for _, tc := range cases {
		t.Run(tc.hba, func(t *testing.T) {
			ts := startServerOn(t, net.JoinHostPort(ip.String(), "0"), Config{Auth: accessAuth(t, tc.hba, false)})
			_, err := connectAs(t, ts.addr, "ann", "sslmode=disable", nil)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != tc.code || !strings.Contains(pe.Message, `host "`+ip.String()+`"`) {
				t.Fatalf("got %v, want FATAL %s naming host %s", err, tc.code, ip)
			}
		})
	}
}

// TestChannelBinding authenticates with SCRAM-SHA-256-PLUS from pgx and
// psql with channel binding required, over certificates signed with
// SHA-256 and SHA-384 (RFC 5929 hashes the certificate with the
// signature's hash).
func TestChannelBinding(t *testing.T) {
	pki := newTestPKI(t)
	psql, psqlErr := exec.LookPath("psql")
	for _, alg := range []x509.SignatureAlgorithm{x509.ECDSAWithSHA256, x509.ECDSAWithSHA384} {
		t.Run(alg.String(), func(t *testing.T) {
			ts := startServer(t, Config{Auth: accessAuth(t, "", false), TLS: pki.serverTLS(t, alg)})
			if _, err := connectAs(t, ts.addr, "ann", "sslmode=require&channel_binding=require", nil); err != nil {
				t.Fatalf("pgx with channel binding required: %v", err)
			}
			_, err := connectAs(t, ts.addr, "ann", "sslmode=require&channel_binding=require&password=wrong", nil)
			wantFatal(t, err, pgerr.InvalidPassword, `password authentication failed for user "ann"`)
			if _, err := connectAs(t, ts.addr, "ann", "sslmode=disable&channel_binding=require", nil); err == nil {
				t.Error("channel binding required without TLS: connected")
			}
			if psqlErr != nil {
				t.Logf("psql not found (%v): checked with pgx only", psqlErr)
				return
			}
			host, port, _ := net.SplitHostPort(ts.addr)
			conninfo := "host=" + host + " port=" + port + " user=ann dbname=icegate sslmode=require channel_binding=require"
			cmd := exec.Command(psql, "-X", "-At", "-d", conninfo, "-c", "whoami")
			cmd.Env = append(os.Environ(), "PGPASSWORD=ann-pw", "PGCONNECT_TIMEOUT=20")
			out, err := cmd.CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "ann/icegate/psql" {
				t.Fatalf("psql with channel_binding=require: %v\n%s", err, out)
			}
			cmd = exec.Command(psql, "-X", "-At", "-d", conninfo, "-c", "whoami")
			cmd.Env = append(os.Environ(), "PGPASSWORD=wrong", "PGCONNECT_TIMEOUT=20")
			out, err = cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), `password authentication failed for user "ann"`) {
				t.Fatalf("psql with a wrong password: %v\n%s", err, out)
			}
		})
	}
}

// TestReloadAccess swaps the rules while a session is open: new
// connections follow the new rules, the open session goes on.
func TestReloadAccess(t *testing.T) {
	pki := newTestPKI(t)
	serverTLS := pki.serverTLS(t, x509.ECDSAWithSHA256)
	ts := startServer(t, Config{Auth: accessAuth(t, "host all all 127.0.0.1/32 scram-sha-256", false), TLS: serverTLS})
	ctx := context.Background()
	open, err := connectAs(t, ts.addr, "bob", "sslmode=disable", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ts.srv.Reload(accessAuth(t, "host all bob all reject\nhostssl all all 127.0.0.1/32 scram-sha-256", false), serverTLS); err != nil {
		t.Fatal(err)
	}
	_, err = connectAs(t, ts.addr, "bob", "sslmode=require", nil)
	wantFatal(t, err, pgerr.InvalidAuthorizationSpec, `pg_hba.conf rejects connection for host "127.0.0.1", user "bob", database "icegate", SSL encryption`)
	_, err = connectAs(t, ts.addr, "ann", "sslmode=disable", nil)
	wantFatal(t, err, pgerr.InvalidAuthorizationSpec, `no pg_hba.conf entry for host "127.0.0.1", user "ann", database "icegate", no encryption`)
	if _, err := connectAs(t, ts.addr, "ann", "sslmode=require", nil); err != nil {
		t.Fatalf("ann over TLS after reload: %v", err)
	}
	if err := open.Ping(ctx); err != nil {
		t.Fatalf("the session opened before the reload: %v", err)
	}
	// Reloading TLS: a server without TLS answers SSLRequest with N.
	if err := ts.srv.Reload(accessAuth(t, "", false), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := connectAs(t, ts.addr, "ann", "sslmode=require", nil); err == nil {
		t.Fatal("sslmode=require after TLS was reloaded away: connected")
	}
	if _, err := connectAs(t, ts.addr, "bob", "sslmode=disable", nil); err != nil {
		t.Fatalf("bob after the reject rule was reloaded away: %v", err)
	}
	if err := open.Ping(ctx); err != nil {
		t.Fatalf("the session opened before the reloads: %v", err)
	}
}

// jdbcProbe connects with pgJDBC to the URL in args[0] as args[1] with
// password args[2] and prints "ok <user>" or "err <SQLSTATE> <message>".
const jdbcProbe = `import java.sql.*;
public class Probe {
  public static void main(String[] a) throws Exception {
    try (Connection c = DriverManager.getConnection(a[0], a[1], a[2]);
         ResultSet rs = c.createStatement().executeQuery("whoami")) {
      rs.next(); System.out.println("ok " + rs.getString(1));
    } catch (SQLException e) { System.out.println("err " + e.getSQLState() + " " + e.getMessage()); }
  }
}
`

// TestJDBCOverTLS logs in with pgJDBC over TLS, where SCRAM-SHA-256-PLUS
// is offered first: a driver that binds uses it, one that does not (the
// Debian jar, 42.5, predates pgJDBC's channel binding) falls back to
// SCRAM-SHA-256 with the "n" flag, which must be accepted; a wrong
// password and plaintext under hostssl are refused with PostgreSQL's
// SQLSTATEs.
func TestJDBCOverTLS(t *testing.T) {
	jar := os.Getenv("ICEGATE_CLIENTS_JDBC_JAR")
	if jar == "" {
		jar = "/usr/share/java/postgresql.jar"
	}
	javac, err1 := exec.LookPath("javac")
	java, err2 := exec.LookPath("java")
	_, err3 := os.Stat(jar)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Skipf("pgJDBC needs javac, java and %s (the clients suite's packages): %v", jar, err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Probe.java"), []byte(jdbcProbe), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(javac, "-J-XX:TieredStopAtLevel=1", "-cp", jar, "-d", dir, filepath.Join(dir, "Probe.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	pki := newTestPKI(t)
	ts := startServer(t, Config{Auth: accessAuth(t, "hostssl all all 127.0.0.1/32 scram-sha-256", false), TLS: pki.serverTLS(t, x509.ECDSAWithSHA256)})
	cases := []struct {
		params, password, want string
	}{
		{"sslmode=require", "ann-pw", "ok ann/icegate/"},
		{"sslmode=require", "wrong", `err 28P01 FATAL: password authentication failed for user "ann"`},
		{"sslmode=disable", "ann-pw", `err 28000 FATAL: no pg_hba.conf entry for host "127.0.0.1", user "ann", database "icegate", no encryption`},
	}
	for _, tc := range cases {
		url := "jdbc:postgresql://" + ts.addr + "/icegate?" + tc.params
		out, err := exec.Command(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", jar+":"+dir, "Probe", url, "ann", tc.password).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != tc.want {
			t.Errorf("pgJDBC %s password %s: %v\n%s\nwant %s", tc.params, tc.password, err, out, tc.want)
		}
	}
}
