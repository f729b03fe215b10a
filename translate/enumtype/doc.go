// Package enumtype is what a PostgreSQL enum type (CREATE TYPE name AS
// ENUM (...)) is in icegate.
//
// An enum type is a catalog table of its own name, with no rows, whose
// property holds its labels in declaration order:
//
//	icegate.enum = ["sad", "ok", "happy"]
//
// Why a table: the filesystem catalog keeps no namespace properties, and a
// table's properties are durable, shared by every session and every
// gateway on the warehouse, and changed by an atomic commit that can
// assert the value it read (catalog.AssertProperty), which makes ADD VALUE
// and RENAME VALUE from two gateways safe. A type sharing the name space of
// tables is also PostgreSQL's rule: a table has a row type of its name, so
// a type and a table of one schema cannot share a name.
//
// This package holds the model (the labels, and the edits of ALTER TYPE);
// the statements run in the session (package translate, enum_ddl.go).
package enumtype
