// Package integration holds icegate's end-to-end tests: the real server
// (wire, auth, translate, engine, catalog wired as cmd/icegate wires them)
// runs in-process on 127.0.0.1 with a random port, and real clients (pgx in
// both query modes, lib/pq, psql) talk to it over TCP.
//
// It sits outside the statement flow, exercising all of it: every fixture
// table of testdata/iceberg is counted, read whole and compared
// with the answers its origin ships; values of every type are read through
// each client; errors come back with their SQLSTATEs; a broken connection
// does not disturb the others. The package has no code of its own beyond
// this file: everything is in _test.go files.
package integration
