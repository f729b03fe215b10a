package auth

import (
	"net"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

func TestParseHBAErrors(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"trust for all addresses", "host all all all trust", "trust is allowed only for loopback"},
		{"trust for a network", "host all all 10.0.0.0/8 trust", "trust is allowed only for loopback"},
		{"trust for loopback and more", "host all all 126.0.0.0/7 trust", "trust is allowed only for loopback"},
		{"trust for samehost", "host all all samehost trust", "trust is allowed only for loopback"},
		{"local", "local all all trust", "local is not supported"},
		{"cert on host", "host all all all cert", "only supported on hostssl"},
		{"password method", "host all all all password", `method "password" is not supported`},
		{"options", "hostssl all all all scram-sha-256 clientcert=verify-full", "options (clientcert=verify-full) are not supported"},
		{"host name", "host all all db.example.com scram-sha-256", "host names are not supported"},
		{"bad CIDR", "host all all 10.0.0.0/33 scram-sha-256", "invalid CIDR"},
		{"short line", "host all all", "five columns"},
		{"bad type", "hots all all all reject", "invalid connection type"},
		{"unterminated quote", `host "all all all reject`, "unterminated"},
		{"include file", "host @dbs all all reject", "not supported"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseHBA(strings.NewReader("# a comment\n\n"+tc.text+"\n"), "hba")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), "hba:3") {
				t.Errorf("error %q does not name the line hba:3", err)
			}
		})
	}
}

func TestParseHBAAccepts(t *testing.T) {
	text := `
host    all        all          127.0.0.1/32            trust   # loopback
host    all        all          ::1/128                 trust
hostssl "all",db2  +staff,bob   10.1.0.0 255.255.0.0    scram-sha-256
hostnossl sameuser all          192.168.1.7             md5
host    all        all          samehost \
                                                        reject
hostssl all        all          all                     cert
`
	rules, err := ParseHBA(strings.NewReader(text), "pg_hba.conf")
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 6 {
		t.Fatalf("%d rules, want 6", len(rules))
	}
	r := rules[2]
	if r.Type != ConnHostSSL || r.Address.String() != "10.1.0.0/16" || r.Method != MethodSCRAM || r.Source != "pg_hba.conf:4" {
		t.Errorf("rule 3 = %+v", r)
	}
	if r.Databases[0].keyword || r.Databases[0].name != "all" || !r.Users[0].group || r.Users[0].name != "staff" {
		t.Errorf("rule 3 names = %+v %+v", r.Databases, r.Users)
	}
	if rules[3].Address.String() != "192.168.1.7/32" || rules[3].Method != MethodSCRAM {
		t.Errorf("rule 4 = %+v", rules[3])
	}
	if rules[4].Method != MethodReject || !rules[4].Address.sameHost || rules[4].Source != "pg_hba.conf:6" {
		t.Errorf("rule 5 = %+v", rules[4])
	}
}

// TestDecide runs connections past rule sets: the first matching rule
// decides, reject and no match are PostgreSQL's FATAL 28000 messages.
func TestDecide(t *testing.T) {
	loop := &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 5000}
	remote := &net.TCPAddr{IP: net.ParseIP("10.1.2.3"), Port: 5000}
	mapped := &net.TCPAddr{IP: net.ParseIP("::ffff:10.1.2.3"), Port: 5000}
	members := map[string][]string{"staff": {"ann", "carl"}}
	memberOf := func(user, role string) bool {
		if user == role {
			return true
		}
		for _, m := range members[role] {
			if m == user {
				return true
			}
		}
		return false
	}
	cases := []struct {
		name        string
		rules       string
		tlsRequired bool
		ci          ConnInfo
		want        Method
		err         string // message; empty: no error
	}{
		{"first match wins: reject", "host all bob all reject\nhost all all all scram-sha-256", false,
			ConnInfo{remote, "bob", "db", false}, 0, `pg_hba.conf rejects connection for host "10.1.2.3", user "bob", database "db", no encryption`},
		{"first match wins: later reject unused", "host all all all scram-sha-256\nhost all bob all reject", false,
			ConnInfo{remote, "bob", "db", false}, MethodSCRAM, ""},
		{"other user passes reject", "host all bob all reject\nhost all all all scram-sha-256", false,
			ConnInfo{remote, "ann", "db", false}, MethodSCRAM, ""},
		{"hostssl skips plaintext", "hostssl all all all scram-sha-256", false,
			ConnInfo{remote, "ann", "db", false}, 0, `no pg_hba.conf entry for host "10.1.2.3", user "ann", database "db", no encryption`},
		{"hostssl takes TLS", "hostssl all all all scram-sha-256", false,
			ConnInfo{remote, "ann", "db", true}, MethodSCRAM, ""},
		{"hostnossl skips TLS", "hostnossl all all all reject", false,
			ConnInfo{remote, "ann", "db", true}, 0, `no pg_hba.conf entry for host "10.1.2.3", user "ann", database "db", SSL encryption`},
		{"CIDR outside", "host all all 10.2.0.0/16 scram-sha-256", false,
			ConnInfo{remote, "ann", "db", false}, 0, "no pg_hba.conf entry"},
		{"CIDR inside", "host all all 10.1.0.0/16 scram-sha-256", false,
			ConnInfo{remote, "ann", "db", false}, MethodSCRAM, ""},
		{"IPv4-mapped peer", "host all all 10.1.0.0/16 scram-sha-256", false,
			ConnInfo{mapped, "ann", "db", false}, MethodSCRAM, ""},
		{"loopback trust", "host all all 127.0.0.1/32 trust\nhost all all all scram-sha-256", false,
			ConnInfo{loop, "ann", "db", false}, MethodTrust, ""},
		{"remote skips loopback trust", "host all all 127.0.0.1/32 trust\nhost all all all scram-sha-256", false,
			ConnInfo{remote, "ann", "db", false}, MethodSCRAM, ""},
		{"database list", "host db1,db2 all all scram-sha-256", false,
			ConnInfo{remote, "ann", "db2", false}, MethodSCRAM, ""},
		{"database not listed", "host db1,db2 all all scram-sha-256", false,
			ConnInfo{remote, "ann", "db3", false}, 0, "no pg_hba.conf entry"},
		{"quoted all is a name", `host "all" all all scram-sha-256`, false,
			ConnInfo{remote, "ann", "db", false}, 0, "no pg_hba.conf entry"},
		{"replication keyword is no database", "host replication all all reject\nhost all all all scram-sha-256", false,
			ConnInfo{remote, "ann", "replication", false}, MethodSCRAM, ""},
		{"quoted replication is a database", "host \"replication\" all all reject\nhost all all all scram-sha-256", false,
			ConnInfo{remote, "ann", "replication", false}, 0, "pg_hba.conf rejects connection"},
		{"sameuser", "host sameuser all all scram-sha-256", false,
			ConnInfo{remote, "ann", "ann", false}, MethodSCRAM, ""},
		{"sameuser other database", "host sameuser all all scram-sha-256", false,
			ConnInfo{remote, "ann", "db", false}, 0, "no pg_hba.conf entry"},
		{"samerole", "host samerole all all scram-sha-256", false,
			ConnInfo{remote, "ann", "staff", false}, MethodSCRAM, ""},
		{"+role member", "host all +staff all scram-sha-256", false,
			ConnInfo{remote, "carl", "db", false}, MethodSCRAM, ""},
		{"+role non-member", "host all +staff all scram-sha-256", false,
			ConnInfo{remote, "bob", "db", false}, 0, "no pg_hba.conf entry"},
		{"user names are case-sensitive", "host all Bob all reject\nhost all all all scram-sha-256", false,
			ConnInfo{remote, "bob", "db", false}, MethodSCRAM, ""},
		{"tls.required refuses plaintext", "host all all all scram-sha-256", true,
			ConnInfo{remote, "ann", "db", false}, 0, `no pg_hba.conf entry for host "10.1.2.3", user "ann", database "db", no encryption`},
		{"tls.required admits TLS", "host all all all scram-sha-256", true,
			ConnInfo{remote, "ann", "db", true}, MethodSCRAM, ""},
		{"tls.required with default rules", "", true,
			ConnInfo{loop, "ann", "db", false}, 0, `no pg_hba.conf entry for host "127.0.0.1", user "ann", database "db", no encryption`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rules []Rule
			if tc.rules != "" {
				var err error
				if rules, err = ParseHBA(strings.NewReader(tc.rules), "hba"); err != nil {
					t.Fatal(err)
				}
			}
			a, err := NewFromConfig(Config{Users: []User{{Name: "ann", SCRAM: mustVerifier(t)}}, Rules: rules,
				TLSRequired: tc.tlsRequired, MemberOf: memberOf, Logger: quietLogger()})
			if err != nil {
				t.Fatal(err)
			}
			got, err := a.Decide(tc.ci)
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Fatalf("Decide = %v, %v; want %v", got, err, tc.want)
				}
				return
			}
			pe := pgerr.As(err)
			if pe == nil || pe.Code != pgerr.InvalidAuthorizationSpec || pe.Severity != "FATAL" || !strings.Contains(pe.Message, tc.err) {
				t.Fatalf("Decide = %v, %v; want FATAL 28000 %q", got, err, tc.err)
			}
		})
	}
}

func mustVerifier(t *testing.T) string {
	t.Helper()
	v, err := NewVerifier("pw")
	if err != nil {
		t.Fatal(err)
	}
	return v
}
