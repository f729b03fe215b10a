package syscat

// TypeInfo is a built-in type as pg_type describes it.
type TypeInfo struct {
	OID       uint32
	Name      string // typname: int4, _int4, varchar...
	Len       int16  // typlen
	ByVal     bool
	Type      byte // typtype: 'b' base, 'p' pseudo, 'c' composite, 'd' domain, 'r' range, 'm' multirange, 'e' enum
	Category  byte // typcategory: 'N', 'S', 'A'...
	Preferred bool
	Delim     byte
	Elem      uint32 // typelem
	Array     uint32 // typarray
	// The I/O functions' names (typinput...), "-" for none.
	Input, Output, Receive, Send string
	Align, Storage               byte
	// The I/O and typmod functions' OIDs (typinput...), 0 for none.
	InputOID, OutputOID, ReceiveOID, SendOID, ModInOID, ModOutOID uint32
	NotNull                                                       bool   // typnotnull
	BaseType                                                      uint32 // typbasetype (domains)
	Typmod                                                        int32  // typtypmod
	NDims                                                         int32  // typndims
	Collation                                                     uint32 // typcollation: 100 for collatable types
	// Namespace is typnamespace: pg_catalog, or information_schema for
	// its domains (which icegate lists but does not use).
	Namespace uint32
}

var typesByOID, typesByName, builtinTypes = indexTypes()

// indexTypes reads the generated pg_type rows into TypeInfos.
func indexTypes() (map[uint32]*TypeInfo, map[string]*TypeInfo, []TypeInfo) {
	c := builtinColumns("pg_type")
	rows := builtinRows["pg_type"]
	list := make([]TypeInfo, len(rows))
	byOID := make(map[uint32]*TypeInfo, len(rows))
	byName := make(map[string]*TypeInfo, len(rows))
	for i, r := range rows {
		t := &list[i]
		*t = TypeInfo{
			OID: c.oid(r, "oid"), Name: c.str(r, "typname"), Len: c.int16(r, "typlen"),
			ByVal: c.bool(r, "typbyval"), Type: c.char(r, "typtype"), Category: c.char(r, "typcategory"),
			Preferred: c.bool(r, "typispreferred"), Delim: c.char(r, "typdelim"),
			Elem: c.oid(r, "typelem"), Array: c.oid(r, "typarray"),
			Align: c.char(r, "typalign"), Storage: c.char(r, "typstorage"),
			InputOID: c.oid(r, "typinput"), OutputOID: c.oid(r, "typoutput"),
			ReceiveOID: c.oid(r, "typreceive"), SendOID: c.oid(r, "typsend"),
			ModInOID: c.oid(r, "typmodin"), ModOutOID: c.oid(r, "typmodout"),
			NotNull: c.bool(r, "typnotnull"), BaseType: c.oid(r, "typbasetype"),
			Typmod: c.int32(r, "typtypmod"), NDims: c.int32(r, "typndims"),
			Collation: c.oid(r, "typcollation"), Namespace: c.oid(r, "typnamespace"),
		}
		byOID[t.OID] = t
		if t.Namespace == PgCatalogOID {
			byName[t.Name] = t
		}
	}
	for i := range list {
		t := &list[i]
		t.Input, t.Output = procName(t.InputOID), procName(t.OutputOID)
		t.Receive, t.Send = procName(t.ReceiveOID), procName(t.SendOID)
	}
	return byOID, byName, list
}

// procName is the name of the built-in function with OID oid, "-" for 0.
func procName(oid uint32) string {
	if p := ProcByOID(oid); p != nil {
		return p.Name
	}
	return "-"
}

// TypeByOID returns the built-in type with OID oid, or nil.
func TypeByOID(oid uint32) *TypeInfo { return typesByOID[oid] }

// TypeByName returns the built-in type called name (typname, as int4 or
// _int4), or nil.
func TypeByName(name string) *TypeInfo { return typesByName[name] }

// BuiltinTypes returns every built-in type, ordered by OID. The caller must
// not change them.
func BuiltinTypes() []TypeInfo { return builtinTypes }
