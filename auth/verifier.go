package auth

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// DefaultIterations is the PBKDF2 iteration count of new verifiers, the
// default of PostgreSQL's scram_iterations.
const DefaultIterations = 4096

const saltLen = 16

// Verifier is a stored SCRAM-SHA-256 secret: what the server needs to check a
// client's proof without knowing the password.
type Verifier struct {
	Iterations int
	Salt       []byte
	StoredKey  []byte // H(ClientKey)
	ServerKey  []byte
}

// NewVerifier returns the verifier of password in pg_authid format,
// SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>, with a random
// 16-byte salt.
func NewVerifier(password string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("generate salt: %w", err)
	}
	v, err := deriveVerifier(password, salt, DefaultIterations)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// deriveVerifier computes the verifier of password for salt and iterations
// (RFC 5802 section 3).
func deriveVerifier(password string, salt []byte, iterations int) (*Verifier, error) {
	salted, err := pbkdf2.Key(sha256.New, saslPrep(password), salt, iterations, sha256.Size)
	if err != nil {
		return nil, fmt.Errorf("derive salted password: %w", err)
	}
	clientKey := hmacSHA256(salted, []byte("Client Key"))
	stored := sha256.Sum256(clientKey)
	return &Verifier{
		Iterations: iterations,
		Salt:       salt,
		StoredKey:  stored[:],
		ServerKey:  hmacSHA256(salted, []byte("Server Key")),
	}, nil
}

// String renders v in pg_authid format.
func (v *Verifier) String() string {
	enc := base64.StdEncoding
	return "SCRAM-SHA-256$" + strconv.Itoa(v.Iterations) + ":" + enc.EncodeToString(v.Salt) +
		"$" + enc.EncodeToString(v.StoredKey) + ":" + enc.EncodeToString(v.ServerKey)
}

// ParseVerifier parses a verifier in pg_authid format.
func ParseVerifier(s string) (*Verifier, error) {
	method, rest, ok := strings.Cut(s, "$")
	if !ok || method != "SCRAM-SHA-256" {
		return nil, fmt.Errorf("parse verifier: want prefix SCRAM-SHA-256$")
	}
	params, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return nil, fmt.Errorf("parse verifier: missing keys after iterations and salt")
	}
	iterText, saltText, ok := strings.Cut(params, ":")
	if !ok {
		return nil, fmt.Errorf("parse verifier: want <iterations>:<salt>")
	}
	iterations, err := strconv.Atoi(iterText)
	if err != nil || iterations < 1 {
		return nil, fmt.Errorf("parse verifier: invalid iteration count %q", iterText)
	}
	storedText, serverText, ok := strings.Cut(keys, ":")
	if !ok {
		return nil, fmt.Errorf("parse verifier: want <StoredKey>:<ServerKey>")
	}
	enc := base64.StdEncoding
	salt, err := enc.DecodeString(saltText)
	if err != nil || len(salt) == 0 {
		return nil, fmt.Errorf("parse verifier: invalid salt %q", saltText)
	}
	stored, err := enc.DecodeString(storedText)
	if err != nil || len(stored) != sha256.Size {
		return nil, fmt.Errorf("parse verifier: invalid StoredKey")
	}
	server, err := enc.DecodeString(serverText)
	if err != nil || len(server) != sha256.Size {
		return nil, fmt.Errorf("parse verifier: invalid ServerKey")
	}
	return &Verifier{Iterations: iterations, Salt: salt, StoredKey: stored, ServerKey: server}, nil
}

func hmacSHA256(key, msg []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(msg)
	return h.Sum(nil)
}
