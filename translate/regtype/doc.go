// Package regtype is the text form of the object identifier types
// (regclass, regtype, regnamespace, regrole, regproc): reading a name into the OID of the
// object it names, and printing an OID as that object's name, both against
// the statement's catalog snapshot, as PostgreSQL's regclassin/regclassout
// and friends do.
//
// Binding casts to and from these types (package bind) and the catalog
// functions that take or print names (package sysfunc) use it; it needs
// only the catalog snapshot and PostgreSQL's name syntax.
package regtype
