package auth

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// The SASL mechanisms icegate offers: SCRAM-SHA-256 always, and over TLS
// first SCRAM-SHA-256-PLUS, which binds the exchange to the TLS channel
// with tls-server-end-point (RFC 5929).
const (
	MechanismSCRAM     = "SCRAM-SHA-256"
	MechanismSCRAMPlus = "SCRAM-SHA-256-PLUS"
)

// channelBindingType is the only channel binding type offered, as in
// PostgreSQL.
const channelBindingType = "tls-server-end-point"

// Exchange is the server side of one SCRAM-SHA-256 exchange (RFC 5802,
// RFC 7677). wire calls Start with the client's SASLInitialResponse data and
// sends back AuthenticationSASLContinue, then Finish with the SASLResponse
// data and sends AuthenticationSASLFinal followed by AuthenticationOk. Any
// error is a *pgerr.Error to send as FATAL.
type Exchange struct {
	user     string
	verifier *Verifier
	// fake is set for unknown users: the exchange runs with a made-up salt
	// and always fails, so a client cannot tell unknown users from wrong
	// passwords.
	fake bool

	gs2Header       string
	clientFirstBare string
	serverFirst     string
	nonce           string
	done            bool
	// fixedNonce replaces the random server nonce in known-answer tests.
	fixedNonce string
	// endPoint is the tls-server-end-point channel binding data of the
	// connection (the hash of the server's certificate); nil without TLS,
	// and then SCRAM-SHA-256-PLUS is not offered.
	endPoint []byte
	// plus is set when the client chose SCRAM-SHA-256-PLUS.
	plus bool
}

// Mechanisms are the SASL mechanisms to list in AuthenticationSASL, the
// preferred first.
func (e *Exchange) Mechanisms() []string {
	if e.endPoint != nil {
		return []string{MechanismSCRAMPlus, MechanismSCRAM}
	}
	return []string{MechanismSCRAM}
}

// ChannelBound reports whether the exchange used channel binding.
func (e *Exchange) ChannelBound() bool { return e.plus }

// Start reads client-first-message and returns server-first-message.
func (e *Exchange) Start(mechanism string, clientFirst []byte) ([]byte, error) {
	switch {
	case mechanism == MechanismSCRAM:
	case mechanism == MechanismSCRAMPlus && e.endPoint != nil:
		e.plus = true
	default:
		return nil, protocolError("client selected an invalid SASL authentication mechanism")
	}
	msg := string(clientFirst)
	// gs2-header: cbind-flag "," [authzid] ","
	flag, rest, ok := strings.Cut(msg, ",")
	if !ok {
		return nil, protocolError("malformed SCRAM message (missing GS2 header)")
	}
	// The flag must agree with the mechanism, and a client that could
	// bind but believes the server cannot ("y") while the server offered
	// PLUS has seen its offer tampered with: PostgreSQL's checks.
	switch {
	case strings.HasPrefix(flag, "p="):
		if !e.plus {
			return nil, protocolErrorDetail("malformed SCRAM message",
				"The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.")
		}
		if flag[2:] != channelBindingType {
			return nil, protocolError("unsupported SCRAM channel-binding type %q", flag[2:])
		}
	case e.plus:
		return nil, protocolErrorDetail("malformed SCRAM message",
			"The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include channel binding data.")
	case flag == "y" && e.endPoint != nil:
		return nil, protocolErrorDetail("SCRAM channel binding negotiation error",
			"The client supports SCRAM channel binding but thinks the server does not.  However, this server does support channel binding.")
	case flag == "n" || flag == "y":
	default:
		return nil, protocolError("malformed SCRAM message (unexpected channel-binding flag %q)", flag)
	}
	authzid, bare, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, protocolError("malformed SCRAM message (missing client-first-message-bare)")
	}
	if authzid != "" {
		return nil, protocolError("client uses authorization identity, but it is not supported")
	}
	e.gs2Header = flag + "," + authzid + ","
	e.clientFirstBare = bare
	var clientNonce string
	for _, attr := range strings.Split(bare, ",") {
		if strings.HasPrefix(attr, "r=") {
			clientNonce = attr[2:]
		}
		if strings.HasPrefix(attr, "m=") {
			return nil, protocolError("malformed SCRAM message (mandatory extensions are not supported)")
		}
	}
	if clientNonce == "" {
		return nil, protocolError("malformed SCRAM message (missing client nonce)")
	}
	serverNonce := e.fixedNonce
	if serverNonce == "" {
		raw := make([]byte, 18)
		if _, err := rand.Read(raw); err != nil {
			return nil, pgerr.Wrap(err, pgerr.InternalError, "could not generate SCRAM nonce")
		}
		serverNonce = base64.StdEncoding.EncodeToString(raw)
	}
	e.nonce = clientNonce + serverNonce
	e.serverFirst = "r=" + e.nonce + ",s=" + base64.StdEncoding.EncodeToString(e.verifier.Salt) +
		",i=" + strconv.Itoa(e.verifier.Iterations)
	return []byte(e.serverFirst), nil
}

// Finish checks client-final-message and returns server-final-message. The
// proof is compared in constant time.
func (e *Exchange) Finish(clientFinal []byte) ([]byte, error) {
	if e.serverFirst == "" || e.done {
		return nil, protocolError("unexpected SCRAM message")
	}
	e.done = true
	msg := string(clientFinal)
	idx := strings.LastIndex(msg, ",p=")
	if idx < 0 {
		return nil, protocolError("malformed SCRAM message (missing proof)")
	}
	withoutProof := msg[:idx]
	proof, err := base64.StdEncoding.DecodeString(msg[idx+3:])
	if err != nil || len(proof) != sha256.Size {
		return nil, protocolError("malformed SCRAM message (invalid proof)")
	}
	var binding, nonce string
	for _, attr := range strings.Split(withoutProof, ",") {
		switch {
		case strings.HasPrefix(attr, "c="):
			binding = attr[2:]
		case strings.HasPrefix(attr, "r="):
			nonce = attr[2:]
		}
	}
	// c= is the gs2-header, followed with PLUS by the channel's binding
	// data, which proves that the client's TLS peer is this server.
	want := []byte(e.gs2Header)
	if e.plus {
		want = append(want, e.endPoint...)
	}
	if binding != base64.StdEncoding.EncodeToString(want) {
		return nil, protocolError("SCRAM channel binding check failed")
	}
	if nonce != e.nonce {
		return nil, protocolError("SCRAM nonce mismatch")
	}
	authMessage := []byte(e.clientFirstBare + "," + e.serverFirst + "," + withoutProof)
	signature := hmacSHA256(e.verifier.StoredKey, authMessage)
	clientKey := make([]byte, sha256.Size)
	for i := range clientKey {
		clientKey[i] = proof[i] ^ signature[i]
	}
	got := sha256.Sum256(clientKey)
	ok := subtle.ConstantTimeCompare(got[:], e.verifier.StoredKey) == 1
	if !ok || e.fake {
		return nil, PasswordFailed(e.user)
	}
	serverSig := hmacSHA256(e.verifier.ServerKey, authMessage)
	return []byte("v=" + base64.StdEncoding.EncodeToString(serverSig)), nil
}

// fakeVerifier makes a stable verifier for an unknown user from a secret of
// the Authenticator, so repeated attempts see the same salt.
func fakeVerifier(secret []byte, user string) *Verifier {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(user))
	sum := mac.Sum(nil)
	return &Verifier{
		Iterations: DefaultIterations,
		Salt:       bytes.Clone(sum[:saltLen]),
		StoredKey:  hmacSHA256(sum, []byte("stored")),
		ServerKey:  hmacSHA256(sum, []byte("server")),
	}
}

// PasswordFailed is the error for a failed password check (28P01), the same
// for unknown users and wrong passwords.
func PasswordFailed(user string) *pgerr.Error {
	return &pgerr.Error{
		Code:     pgerr.InvalidPassword,
		Severity: "FATAL",
		Message:  fmt.Sprintf("password authentication failed for user %q", user),
	}
}

func protocolErrorDetail(msg, detail string) *pgerr.Error {
	return &pgerr.Error{Code: pgerr.ProtocolViolation, Severity: "FATAL", Message: msg, Detail: detail}
}

func protocolError(format string, args ...any) *pgerr.Error {
	return &pgerr.Error{Code: pgerr.ProtocolViolation, Severity: "FATAL", Message: fmt.Sprintf(format, args...)}
}
