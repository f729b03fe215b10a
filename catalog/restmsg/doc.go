// Package restmsg holds the JSON messages of the Iceberg REST catalog
// protocol and their mapping to the catalog package's types, shared by a
// REST catalog client and server.
//
// Table updates and requirements are decoded strictly where it matters and
// leniently where the protocol asks for it: a required field that is
// missing, null or of the wrong JSON type is an error wrapping
// catalog.ErrDataInvalid that names the field; an unknown action or
// requirement type is also catalog.ErrDataInvalid; an action the protocol
// defines but icegate cannot apply is catalog.ErrUnsupported. Fields a
// message does not know are ignored, so newer peers can add them.
//
// Schemas, partition specs, sort orders, snapshots, refs, statistics files
// and whole table and view metadata are written and read by the catalog
// package's metadata JSON codec, so they have one form everywhere.
package restmsg
