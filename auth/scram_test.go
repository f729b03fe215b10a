package auth

import (
	"encoding/base64"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestExchangeFailures(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	v, _ := deriveVerifier("pencil", salt, 4096)
	const nonce = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
	const clientFirst = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
	const goodProof = "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
	cases := []struct {
		name        string
		mechanism   string
		clientFirst string
		clientFinal string
		fake        bool
		code        string
	}{
		{"wrong proof", MechanismSCRAM, clientFirst, "c=biws,r=rOprNGfwEbeRWgbNEkqO" + nonce + ",p=" + strings.Replace(goodProof, "d", "e", 1), false, pgerr.InvalidPassword},
		{"unknown user with right proof", MechanismSCRAM, clientFirst, "c=biws,r=rOprNGfwEbeRWgbNEkqO" + nonce + ",p=" + goodProof, true, pgerr.InvalidPassword},
		{"nonce mismatch", MechanismSCRAM, clientFirst, "c=biws,r=other,p=" + goodProof, false, pgerr.ProtocolViolation},
		{"channel binding mismatch", MechanismSCRAM, clientFirst, "c=eSws,r=rOprNGfwEbeRWgbNEkqO" + nonce + ",p=" + goodProof, false, pgerr.ProtocolViolation},
		{"plus mechanism", "SCRAM-SHA-256-PLUS", clientFirst, "", false, pgerr.ProtocolViolation},
		{"channel binding requested", MechanismSCRAM, "p=tls-server-end-point,,n=user,r=abc", "", false, pgerr.ProtocolViolation},
		{"missing nonce", MechanismSCRAM, "n,,n=user", "", false, pgerr.ProtocolViolation},
		{"missing proof", MechanismSCRAM, clientFirst, "c=biws,r=rOprNGfwEbeRWgbNEkqO" + nonce, false, pgerr.ProtocolViolation},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ex := &Exchange{user: "user", verifier: v, fixedNonce: nonce, fake: tc.fake}
			_, err := ex.Start(tc.mechanism, []byte(tc.clientFirst))
			if err == nil {
				_, err = ex.Finish([]byte(tc.clientFinal))
			}
			if got := pgerr.Code(err); got != tc.code {
				t.Fatalf("code %s (%v), want %s", got, err, tc.code)
			}
			if tc.code == pgerr.InvalidPassword {
				if want := `password authentication failed for user "user"`; err.Error() != want {
					t.Errorf("message %q, want %q", err, want)
				}
			}
		})
	}
}

func TestTrustOnlyOnLoopback(t *testing.T) {
	a, err := New(nil, "", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	if !a.Trust() {
		t.Fatal("no users and no password should mean trust")
	}
	for _, addr := range []string{"127.0.0.1:5433", "[::1]:5433", "localhost:5433"} {
		if err := a.CheckListen(addr); err != nil {
			t.Errorf("CheckListen(%s): %v", addr, err)
		}
	}
	for _, addr := range []string{"0.0.0.0:5433", ":5433", "10.1.2.3:5433", "[::]:5433"} {
		err := a.CheckListen(addr)
		if err == nil || !strings.Contains(err.Error(), "ICEGATE_PASSWORD") {
			t.Errorf("CheckListen(%s) = %v, want a refusal naming ICEGATE_PASSWORD", addr, err)
		}
	}
	if m, err := a.MethodFor(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, "x"); err != nil || m != MethodTrust {
		t.Errorf("loopback: method %v, err %v", m, err)
	}
	_, err = a.MethodFor(&net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 1}, "x")
	if pgerr.Code(err) != pgerr.InvalidAuthorizationSpec {
		t.Errorf("remote peer in trust mode: %v, want 28000", err)
	}

	withPassword, err := New(nil, "pw", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	if err := withPassword.CheckListen("0.0.0.0:5433"); err != nil {
		t.Errorf("with a password any address may be served: %v", err)
	}
	if m, _ := withPassword.MethodFor(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}, "icegate"); m != MethodSCRAM {
		t.Errorf("with a password loopback uses %v, want SCRAM", m)
	}
}

func TestNewRejectsBadUsers(t *testing.T) {
	good, _ := NewVerifier("x")
	for name, users := range map[string][]User{
		"bad verifier": {{Name: "a", SCRAM: "plaintext"}},
		"empty name":   {{Name: "", SCRAM: good}},
		"duplicate":    {{Name: "a", SCRAM: good}, {Name: "a", SCRAM: good}},
	} {
		if _, err := New(users, "", quietLogger()); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
	if _, err := New([]User{{Name: BuiltinUser, SCRAM: good}}, "pw", quietLogger()); err == nil {
		t.Error("configured icegate user plus ICEGATE_PASSWORD: New succeeded")
	}
}
