package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// scramClient computes the client side of an exchange, independently of
// Exchange: the final message for password with channel binding data cb
// appended to gs2 in c=.
func scramClient(t *testing.T, password, gs2, clientFirstBare, serverFirst string, cb []byte) string {
	t.Helper()
	var salt []byte
	var iter int
	var nonce string
	for _, attr := range strings.Split(serverFirst, ",") {
		switch {
		case strings.HasPrefix(attr, "r="):
			nonce = attr[2:]
		case strings.HasPrefix(attr, "s="):
			salt, _ = base64.StdEncoding.DecodeString(attr[2:])
		case strings.HasPrefix(attr, "i="):
			iter, _ = strconv.Atoi(attr[2:])
		}
	}
	salted, err := pbkdf2.Key(sha256.New, password, salt, iter, 32)
	if err != nil {
		t.Fatal(err)
	}
	clientKey := hmacSHA256(salted, []byte("Client Key"))
	stored := sha256.Sum256(clientKey)
	withoutProof := "c=" + base64.StdEncoding.EncodeToString(append([]byte(gs2), cb...)) + ",r=" + nonce
	sig := hmacSHA256(stored[:], []byte(clientFirstBare+","+serverFirst+","+withoutProof))
	for i := range clientKey {
		clientKey[i] ^= sig[i]
	}
	return withoutProof + ",p=" + base64.StdEncoding.EncodeToString(clientKey)
}

func TestExchangeChannelBinding(t *testing.T) {
	verifier, err := NewVerifier("pencil")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New([]User{{Name: "ann", SCRAM: verifier}}, "", quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	endPoint := []byte("thirty-two bytes of certificate hash")
	const bare = "n=,r=clientnonce"
	const cbGS2 = "p=tls-server-end-point,,"
	cases := []struct {
		name      string
		endPoint  []byte // nil: no TLS
		mechanism string
		gs2       string
		cb        []byte
		password  string
		code      string
		message   string
	}{
		{"PLUS with the channel's data", endPoint, MechanismSCRAMPlus, cbGS2, endPoint, "pencil", "", ""},
		{"PLUS, wrong password", endPoint, MechanismSCRAMPlus, cbGS2, endPoint, "pen", pgerr.InvalidPassword, `password authentication failed for user "ann"`},
		{"PLUS with another channel's data", endPoint, MechanismSCRAMPlus, cbGS2, []byte("another certificate's hash......"), "pencil", pgerr.ProtocolViolation, "SCRAM channel binding check failed"},
		{"PLUS without binding flag", endPoint, MechanismSCRAMPlus, "n,,", nil, "pencil", pgerr.ProtocolViolation, "malformed SCRAM message"},
		{"PLUS with another binding type", endPoint, MechanismSCRAMPlus, "p=tls-unique,,", endPoint, "pencil", pgerr.ProtocolViolation, `unsupported SCRAM channel-binding type "tls-unique"`},
		{"plain SCRAM over TLS", endPoint, MechanismSCRAM, "n,,", nil, "pencil", "", ""},
		{"client thinks server cannot bind", endPoint, MechanismSCRAM, "y,,", nil, "pencil", pgerr.ProtocolViolation, "SCRAM channel binding negotiation error"},
		{"plain SCRAM with binding data", endPoint, MechanismSCRAM, cbGS2, endPoint, "pencil", pgerr.ProtocolViolation, "malformed SCRAM message"},
		{"PLUS without TLS", nil, MechanismSCRAMPlus, cbGS2, nil, "pencil", pgerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism"},
		{"y without TLS", nil, MechanismSCRAM, "y,,", nil, "pencil", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ex := a.BeginTLS("ann", tc.endPoint)
			wantMechs := []string{MechanismSCRAM}
			if tc.endPoint != nil {
				wantMechs = []string{MechanismSCRAMPlus, MechanismSCRAM}
			}
			if got := ex.Mechanisms(); strings.Join(got, " ") != strings.Join(wantMechs, " ") {
				t.Errorf("mechanisms %v, want %v", got, wantMechs)
			}
			serverFirst, err := ex.Start(tc.mechanism, []byte(tc.gs2+bare))
			if err == nil {
				_, err = ex.Finish([]byte(scramClient(t, tc.password, tc.gs2, bare, string(serverFirst), tc.cb)))
			}
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if ex.ChannelBound() != (tc.mechanism == MechanismSCRAMPlus) {
					t.Errorf("ChannelBound = %v", ex.ChannelBound())
				}
				return
			}
			pe := pgerr.As(err)
			if pe == nil || pe.Code != tc.code || pe.Message != tc.message {
				t.Fatalf("got %v, want %s %q", err, tc.code, tc.message)
			}
		})
	}
}

// TestEndPoint checks RFC 5929's choice of hash: the signature's, SHA-256
// in place of MD5 and SHA-1, none for Ed25519.
func TestEndPoint(t *testing.T) {
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	cases := []struct {
		name string
		alg  x509.SignatureAlgorithm
		key  crypto.Signer
		hash crypto.Hash // 0: no binding
	}{
		{"ECDSA SHA-256", x509.ECDSAWithSHA256, ecKey, crypto.SHA256},
		{"ECDSA SHA-384", x509.ECDSAWithSHA384, ecKey, crypto.SHA384},
		{"ECDSA SHA-512", x509.ECDSAWithSHA512, ecKey, crypto.SHA512},
		{"RSA SHA-256", x509.SHA256WithRSA, rsaKey, crypto.SHA256},
		{"RSA-PSS SHA-384", x509.SHA384WithRSAPSS, rsaKey, crypto.SHA384},
		{"Ed25519", x509.PureEd25519, edKey, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "server"},
				NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), SignatureAlgorithm: tc.alg}
			der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, tc.key.Public(), tc.key)
			if err != nil {
				t.Fatal(err)
			}
			cert, err := x509.ParseCertificate(der)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EndPoint(cert)
			if tc.hash == 0 {
				if err == nil {
					t.Fatalf("EndPoint = %x, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			h := tc.hash.New()
			h.Write(der)
			if want := h.Sum(nil); string(got) != string(want) {
				t.Errorf("EndPoint = %x, want %v hash %x", got, tc.hash, want)
			}
		})
	}
}
