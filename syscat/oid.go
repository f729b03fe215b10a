package syscat

import "hash/fnv"

// OIDs of the built-in schemas, as PostgreSQL 15 assigns them.
const (
	PgCatalogOID         uint32 = 11
	PublicOID            uint32 = 2200
	InformationSchemaOID uint32 = 13207
	// FirstUserOID is PostgreSQL's FirstNormalObjectId: OIDs below it are
	// built-in objects.
	FirstUserOID uint32 = 16384
	// BootstrapSuperuserOID is the OID of the bootstrap role (the user that
	// owns every object icegate lists).
	BootstrapSuperuserOID uint32 = 10
	// DatabaseOID is the OID of the one database icegate serves.
	DatabaseOID uint32 = 16384
)

// Object kinds for ObjectOID.
const (
	KindNamespace  = "n"
	KindRelation   = "r"
	KindIndex      = "i" // the primary-key index of a table with identifier fields
	KindConstraint = "c" // its primary-key constraint
	KindDefault    = "d" // a column default (pg_attrdef)
	KindRule       = "R" // a view's _RETURN rule (pg_rewrite)
	KindType       = "T" // an enum type (pg_type)
	KindEnumLabel  = "L" // one label of an enum type (pg_enum)
	KindDatabase   = "D" // another catalog of the server (pg_database)
)

// ObjectOID returns the OID of a user object: a hash of its kind and
// qualified name into [FirstUserOID+1, 2^31), so clients that read OIDs
// as signed 32-bit integers see positive numbers. Names are the names as
// stored (namespace "a.b", table "t").
func ObjectOID(kind string, names ...string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(kind))
	for _, n := range names {
		h.Write([]byte{0})
		h.Write([]byte(n))
	}
	const span = (1 << 31) - FirstUserOID - 1
	return FirstUserOID + 1 + h.Sum32()%span
}

// NamespaceOID returns the OID of a schema: the fixed ones for pg_catalog,
// public and information_schema, else a hash of the name.
func NamespaceOID(name string) uint32 {
	switch name {
	case "pg_catalog":
		return PgCatalogOID
	case "public":
		return PublicOID
	case "information_schema":
		return InformationSchemaOID
	}
	return ObjectOID(KindNamespace, name)
}
