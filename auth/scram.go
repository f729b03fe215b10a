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

// MechanismSCRAM is the only SASL mechanism icegate offers. Channel binding
// (SCRAM-SHA-256-PLUS) is not offered.
const MechanismSCRAM = "SCRAM-SHA-256"

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
}

// Mechanisms are the SASL mechanisms to list in AuthenticationSASL.
func (e *Exchange) Mechanisms() []string { return []string{MechanismSCRAM} }

// Start reads client-first-message and returns server-first-message.
func (e *Exchange) Start(mechanism string, clientFirst []byte) ([]byte, error) {
	if mechanism != MechanismSCRAM {
		return nil, protocolError("client selected an invalid SASL authentication mechanism")
	}
	msg := string(clientFirst)
	// gs2-header: cbind-flag "," [authzid] ","
	flag, rest, ok := strings.Cut(msg, ",")
	if !ok {
		return nil, protocolError("malformed SCRAM message (missing GS2 header)")
	}
	switch {
	case flag == "n" || flag == "y":
	case strings.HasPrefix(flag, "p="):
		return nil, protocolError("channel binding is not supported")
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
	if binding != base64.StdEncoding.EncodeToString([]byte(e.gs2Header)) {
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

func protocolError(format string, args ...any) *pgerr.Error {
	return &pgerr.Error{Code: pgerr.ProtocolViolation, Severity: "FATAL", Message: fmt.Sprintf(format, args...)}
}
