package conf

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// verifierPrefix starts every SCRAM-SHA-256 verifier.
const verifierPrefix = "SCRAM-SHA-256$"

// CheckVerifier checks that s has the shape of a stored SCRAM-SHA-256
// verifier as PostgreSQL keeps it in pg_authid:
// SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>, with base64
// salt and 32-byte base64 keys. It does not check the password.
func CheckVerifier(s string) error {
	rest, ok := strings.CutPrefix(s, verifierPrefix)
	if !ok {
		return errors.New("not a SCRAM-SHA-256 verifier (want SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>; make one with `icegate user add`)")
	}
	params, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return errors.New("verifier lacks the $<StoredKey>:<ServerKey> part")
	}
	iter, salt, ok := strings.Cut(params, ":")
	if !ok {
		return errors.New("verifier lacks <iterations>:<salt>")
	}
	if n, err := strconv.Atoi(iter); err != nil || n <= 0 {
		return fmt.Errorf("verifier iteration count %q is not a positive integer", iter)
	}
	if b, err := base64.StdEncoding.DecodeString(salt); err != nil || len(b) == 0 {
		return fmt.Errorf("verifier salt %q is not base64", salt)
	}
	stored, server, ok := strings.Cut(keys, ":")
	if !ok {
		return errors.New("verifier lacks <StoredKey>:<ServerKey>")
	}
	for _, k := range []struct{ name, val string }{{"StoredKey", stored}, {"ServerKey", server}} {
		b, err := base64.StdEncoding.DecodeString(k.val)
		if err != nil || len(b) != 32 {
			return fmt.Errorf("verifier %s is not 32 bytes of base64", k.name)
		}
	}
	return nil
}
