package auth

import "crypto/hmac"

// CheckPassword reports whether password is user's password, for logins
// that present a password in the clear (the REST catalog's token
// endpoint, over TLS). It derives the verifier's StoredKey from the
// password with the verifier's salt and iterations and compares in
// constant time. An unknown user is checked against a stable fake
// verifier, so that the answer takes as long as for a known one and says
// nothing about which users exist. In trust mode there are no passwords
// and every check fails.
func (a *Authenticator) CheckPassword(user, password string) bool {
	v, known := a.verifiers[user]
	if !known {
		v = fakeVerifier(a.fakeSecret, user)
	}
	got, err := deriveVerifier(password, v.Salt, v.Iterations)
	if err != nil {
		return false
	}
	same := hmac.Equal(got.StoredKey, v.StoredKey)
	return same && known
}
