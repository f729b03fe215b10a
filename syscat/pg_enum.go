package syscat

import "context"

// Enum is an enum type (CREATE TYPE ... AS ENUM) for pg_type and pg_enum.
type Enum struct {
	Namespace string
	Name      string
	Labels    []string // in declaration order
}

// EnumOID is the OID of enum type name of namespace ns: a hash of its
// qualified name, as every user object's (ObjectOID).
func EnumOID(ns, name string) uint32 { return ObjectOID(KindType, ns, name) }

// OID is the enum type's OID.
func (e *Enum) OID() uint32 { return EnumOID(e.Namespace, e.Name) }

// EnumByOID finds an enum type of the snapshot by its OID (nil if none).
func (s *Snapshot) EnumByOID(oid uint32) *Enum {
	for _, e := range s.Enums {
		if e.OID() == oid {
			return e
		}
	}
	return nil
}

// Built-in functions of enum types (PostgreSQL's OIDs).
const (
	procEnumIn   = 3504
	procEnumOut  = 3505
	procEnumRecv = 3532
	procEnumSend = 3533
)

// typeFill lists pg_type: the built-in types and the enum types.
func typeFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	w.rows = append(w.rows, builtinRows["pg_type"]...)
	for _, e := range s.Enums {
		w.add("oid", e.OID(), "typname", e.Name, "typnamespace", NamespaceOID(e.Namespace), "typowner", uint32(10),
			"typlen", int16(4), "typbyval", true, "typtype", "e", "typcategory", "E", "typisdefined", true,
			"typdelim", ",", "typinput", uint32(procEnumIn), "typoutput", uint32(procEnumOut),
			"typreceive", uint32(procEnumRecv), "typsend", uint32(procEnumSend),
			"typalign", "i", "typstorage", "p", "typtypmod", int32(-1))
	}
	return nil
}

// enumFill lists pg_enum: one row per label, sort orders 1, 2, ... in
// declaration order (PostgreSQL's after CREATE TYPE; ADD VALUE BEFORE
// gives it fractions, which order the same).
func enumFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, e := range s.Enums {
		for i, l := range e.Labels {
			w.add("oid", ObjectOID(KindEnumLabel, e.Namespace, e.Name, l), "enumtypid", e.OID(),
				"enumsortorder", float32(i+1), "enumlabel", l)
		}
	}
	return nil
}
