package auth

import (
	"crypto"
	"crypto/x509"
	"fmt"

	// The hashes a certificate's signature may name.
	_ "crypto/sha256"
	_ "crypto/sha512"
)

// EndPoint returns the tls-server-end-point channel binding data of a
// server certificate (RFC 5929 section 4.1): the certificate hashed with
// the hash of its signature algorithm, SHA-256 when that hash is MD5 or
// SHA-1. A signature without a hash of its own (Ed25519) has no defined
// binding; PostgreSQL then refuses channel binding, and so does this.
func EndPoint(cert *x509.Certificate) ([]byte, error) {
	var h crypto.Hash
	switch cert.SignatureAlgorithm {
	case x509.MD5WithRSA, x509.SHA1WithRSA, x509.ECDSAWithSHA1, x509.DSAWithSHA1,
		x509.SHA256WithRSA, x509.SHA256WithRSAPSS, x509.ECDSAWithSHA256, x509.DSAWithSHA256:
		h = crypto.SHA256
	case x509.SHA384WithRSA, x509.SHA384WithRSAPSS, x509.ECDSAWithSHA384:
		h = crypto.SHA384
	case x509.SHA512WithRSA, x509.SHA512WithRSAPSS, x509.ECDSAWithSHA512:
		h = crypto.SHA512
	default:
		return nil, fmt.Errorf("channel binding: no tls-server-end-point hash for signature algorithm %v", cert.SignatureAlgorithm)
	}
	d := h.New()
	d.Write(cert.Raw)
	return d.Sum(nil), nil
}
