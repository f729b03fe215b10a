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
}

// builtinTypes is PostgreSQL 15's pg_type for the built-in types.
// TODO(system catalog): the full list is generated from PostgreSQL 15.
var builtinTypes = []TypeInfo{
	{OID: 16, Name: "bool", Len: 1, ByVal: true, Type: 'b', Category: 'B', Preferred: true, Delim: ',', Array: 1000, Input: "boolin", Output: "boolout", Receive: "boolrecv", Send: "boolsend", Align: 'c', Storage: 'p'},
	{OID: 20, Name: "int8", Len: 8, ByVal: true, Type: 'b', Category: 'N', Delim: ',', Array: 1016, Input: "int8in", Output: "int8out", Receive: "int8recv", Send: "int8send", Align: 'd', Storage: 'p'},
	{OID: 23, Name: "int4", Len: 4, ByVal: true, Type: 'b', Category: 'N', Delim: ',', Array: 1007, Input: "int4in", Output: "int4out", Receive: "int4recv", Send: "int4send", Align: 'i', Storage: 'p'},
	{OID: 25, Name: "text", Len: -1, Type: 'b', Category: 'S', Preferred: true, Delim: ',', Array: 1009, Input: "textin", Output: "textout", Receive: "textrecv", Send: "textsend", Align: 'i', Storage: 'x'},
}

var typesByOID, typesByName = indexTypes()

func indexTypes() (map[uint32]*TypeInfo, map[string]*TypeInfo) {
	byOID := make(map[uint32]*TypeInfo, len(builtinTypes))
	byName := make(map[string]*TypeInfo, len(builtinTypes))
	for i := range builtinTypes {
		t := &builtinTypes[i]
		byOID[t.OID] = t
		byName[t.Name] = t
	}
	return byOID, byName
}

// TypeByOID returns the built-in type with OID oid, or nil.
func TypeByOID(oid uint32) *TypeInfo { return typesByOID[oid] }

// TypeByName returns the built-in type called name (typname, as int4 or
// _int4), or nil.
func TypeByName(name string) *TypeInfo { return typesByName[name] }
