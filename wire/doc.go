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
// COPY runs its own sub-protocol (copy.go): a statement that is a
// translate.CopyFromStatement gets CopyInResponse and the client's CopyData
// stream, parsed incrementally (text, csv or binary, by PostgreSQL's rules,
// copy_format.go and copy_binary.go) into chunks of text rows for CopyIn;
// a translate.CopyToStatement executes like a query and each row goes out
// as one CopyData line.
//
// Text output is byte-identical to PostgreSQL 16 for the types icegate
// emits; wire/testdata/text_golden.tsv was recorded from a real server by
// wire/testdata/golden.sql.
package wire
