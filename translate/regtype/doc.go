// Package regtype is the text form of the object identifier types
// (regclass, regtype, regnamespace, regrole, regproc): reading a name into the OID of the
// object it names, and printing an OID as that object's name, both against
// the statement's catalog snapshot, as PostgreSQL's regclassin/regclassout
// and friends do.
//
// It also binds the casts into and out of the object identifier types
// (cast.go: Casts, which the session hands to the binder through
// bind.Env.RegTypes): a constant name is read while binding, a computed
// one per row over the statement's snapshot, and a reg* result column is
// printed as the names of its objects. The binder keeps how these types
// behave in operators and expressions (an untyped literal facing an oid
// is an oid) and imports nothing of this package. The catalog functions
// that take or print names (package sysfunc) use the text forms.
//
// regtype imports bind, plan and parse.
package regtype
