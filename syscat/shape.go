package syscat

// shape is a pg_catalog relation as PostgreSQL 15 defines it (generated:
// shapes_gen.go): its name, OID, relkind and columns.
type shape struct {
	name    string
	oid     uint32
	kind    byte
	columns []Column
}
