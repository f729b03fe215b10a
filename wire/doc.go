// Package wire speaks the PostgreSQL frontend/backend protocol, version 3.0.
//
// It is the first and last stop of every statement: a Server accepts TCP
// connections, negotiates TLS, authenticates through package auth, and opens
// a translate.Session per connection. Query (simple protocol) and
// Parse/Bind/Describe/Execute/Sync (extended protocol) messages become calls
// to Session.Prepare and Statement.Execute; the Arrow batches that come back
// are encoded column by column, with one encoder chosen per column by its
// PostgreSQL type OID, Arrow type and format (text or binary), into DataRow
// messages that are flushed batch by batch.
//
// Text output is byte-identical to PostgreSQL 16 for the types icegate
// emits; wire/testdata/text_golden.tsv was recorded from a real server by
// wire/testdata/golden.sql.
package wire
