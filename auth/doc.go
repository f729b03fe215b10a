// Package auth authenticates clients before wire hands them a session.
//
// It sits between the protocol and the SQL layer: wire reads the startup
// message, asks the Authenticator which method applies to the connection
// (SCRAM-SHA-256, or trust for a password-less development setup reachable
// only from loopback), and relays the SASL messages of the exchange. Only
// after the exchange succeeds does wire ask translate for a Session.
//
// Verifiers are stored in PostgreSQL's pg_authid format, so a verifier made
// by PostgreSQL works here and the other way round. Plaintext passwords are
// never stored.
package auth
