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
// A query's first batch is fetched before its RowDescription: on Query,
// and at Bind for the extended protocol (where PostgreSQL plans the
// statement), so that an error PostgreSQL raises while planning (constant
// folding: SELECT 1/0) comes alone, before any RowDescription, as there.
//
// COPY runs its own sub-protocol (copy.go): a statement that is a
// translate.CopyFromStatement gets CopyInResponse and the client's CopyData
// stream, parsed incrementally (text, csv or binary, by PostgreSQL's rules,
// copy_format.go and copy_binary.go) into chunks of text rows for CopyIn;
// a translate.CopyToStatement executes like a query and each row goes out
// as one CopyData line.
//
// Until AuthenticationOk (startup.go) a connection holds no more than one
// packet of at most 10000 bytes: the startup packet, then each SASL
// message, read straight from the socket, whose type byte must be 'p' and
// whose length is checked before its body is read, as PostgreSQL does.
// Config.AuthenticationTimeout bounds that phase from the accept on, and at
// most twice Config.MaxConnections connections may be in it: past that new
// ones get FATAL 53300, after their startup packet (a CancelRequest is
// still honoured) or, past another MaxConnections of those, at once. A client that leaves before or during
// authentication (psql does, to prompt for a password) ends quietly.
//
// Client messages after startup are framed by frames.go, which checks each
// header before reading a body: unknown types, bad lengths and messages over
// their limit (Config.MaxMessageSize for Query, Parse, Bind, CopyData and
// FunctionCall, 10000 bytes for the others, as PostgreSQL) end that
// connection with a FATAL 08P01; memory grows with the bytes that arrive,
// not with a declared length. Query strings and text parameters must be
// valid UTF-8 (22021).
//
// Text output is byte-identical to PostgreSQL 16 for the types icegate
// emits; wire/testdata/text_golden.tsv was recorded from a real server by
// wire/testdata/golden.sql. The system catalog's types (oid and reg*,
// "char", int2vector, oidvector, name[], aclitem...) are encoded by
// encode_catalog.go; a reg* column the binder turned into names has no
// binary form there (0A000), and aclitem none at all (42883, as PostgreSQL).
package wire
