package auth

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Verifiers made by PostgreSQL 15 (CREATE ROLE ... PASSWORD with
// password_encryption = scram-sha-256, read from pg_authid).
var postgresVerifiers = []struct {
	password, verifier string
}{
	{"pencil", "SCRAM-SHA-256$4096:fQSsZIeAt23xruiK/I6UtQ==$gRqiz8sKIxxSi2UJRhHl2/0+R28q90MLYrvQvd63wjc=:KyZFH2SuVxKNkvK/yX/fKJkbjxXzErOt/YWDW3gwBtM="},
	{"correct horse battery staple", "SCRAM-SHA-256$4096:fqmh5nRRy3OUVWh6RFAuSg==$JJvuhVSE6RioLUfUnPi5k7QNj6HRDq2uOMtdDHKjcoM=:eDk8ldiP4at//IYwfy3GvHafzDRMj6VFx5GFo4HZGk0="},
	{"pässwörd", "SCRAM-SHA-256$4096:B2Dnk/RZouor3dcEsT7TeA==$XQAEMNdxVkToszlOD6wa82tvrkNskw34s3Ko49CaCCw=:FMRwM7d/wTERlFo+2pEiyWuh5h/UBik/kkaVUnRYfRc="},
	// A no-break space, which SASLprep maps to a plain space.
	{"I\u00a0X", "SCRAM-SHA-256$4096:8tFGtIWzNk7ZYt4bVmWyxA==$mjIGPE1DS1JFVzsSQE0uLqf6gmwo5MvFuJzZdevekIA=:0SDE0dwp7Q1HAoDhQoKAuZq9l5OnnVJKvJEAoIys5JI="},
}

func TestVerifierMatchesPostgres(t *testing.T) {
	for _, tc := range postgresVerifiers {
		t.Run(tc.password, func(t *testing.T) {
			pg, err := ParseVerifier(tc.verifier)
			if err != nil {
				t.Fatal(err)
			}
			got, err := deriveVerifier(tc.password, pg.Salt, pg.Iterations)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.verifier {
				t.Errorf("verifier\n got %s\nwant %s", got, tc.verifier)
			}
		})
	}
}

func TestNewVerifierRoundTrip(t *testing.T) {
	s, err := NewVerifier("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s, "SCRAM-SHA-256$4096:") {
		t.Fatalf("verifier %q lacks the pg_authid prefix", s)
	}
	v, err := ParseVerifier(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Salt) != 16 {
		t.Errorf("salt is %d bytes, want 16", len(v.Salt))
	}
	if v.String() != s {
		t.Errorf("round trip changed the verifier: %s -> %s", s, v)
	}
	again, err := deriveVerifier("s3cret", v.Salt, v.Iterations)
	if err != nil {
		t.Fatal(err)
	}
	if again.String() != s {
		t.Errorf("re-deriving with the same salt gave %s, want %s", again, s)
	}
	other, _ := NewVerifier("s3cret")
	if other == s {
		t.Error("two verifiers of one password share a salt")
	}
}

func TestParseVerifierRejects(t *testing.T) {
	good := postgresVerifiers[0].verifier
	for _, bad := range []string{
		"",
		"md5abcdef",
		strings.Replace(good, "SCRAM-SHA-256", "SCRAM-SHA-1", 1),
		strings.Replace(good, "4096", "x", 1),
		strings.Replace(good, "4096", "0", 1),
		good[:strings.LastIndex(good, ":")],
		strings.Replace(good, "fQSsZIeAt23xruiK", "!!!", 1),
		good[:strings.Index(good, "$")+10],
	} {
		if _, err := ParseVerifier(bad); err == nil {
			t.Errorf("ParseVerifier(%q) succeeded", bad)
		}
	}
}

// TestExchangeRFC7677 runs the example exchange of RFC 7677 section 3
// (user "user", password "pencil") with the RFC's server nonce.
func TestExchangeRFC7677(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	v, err := deriveVerifier("pencil", salt, 4096)
	if err != nil {
		t.Fatal(err)
	}
	ex := &Exchange{user: "user", verifier: v, fixedNonce: "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"}
	first, err := ex.Start(MechanismSCRAM, []byte("n,,n=user,r=rOprNGfwEbeRWgbNEkqO"))
	if err != nil {
		t.Fatal(err)
	}
	wantFirst := "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
	if string(first) != wantFirst {
		t.Fatalf("server-first\n got %s\nwant %s", first, wantFirst)
	}
	final, err := ex.Finish([]byte("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="; string(final) != want {
		t.Errorf("server-final %s, want %s", final, want)
	}
}
