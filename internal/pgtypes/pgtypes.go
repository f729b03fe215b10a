// Package pgtypes names the PostgreSQL types icegate speaks: their OIDs,
// names, sizes and typmods. It is a leaf shared by wire (which encodes
// values by OID) and translate (which types expressions as PostgreSQL does).
package pgtypes

// OIDs of the built-in PostgreSQL types icegate emits or accepts
// (pg_type.dat of PostgreSQL 16).
const (
	Bool        uint32 = 16
	Bytea       uint32 = 17
	Char        uint32 = 18
	Name        uint32 = 19
	Int8        uint32 = 20
	Int2        uint32 = 21
	Int4        uint32 = 23
	Text        uint32 = 25
	OID         uint32 = 26
	JSON        uint32 = 114
	Float4      uint32 = 700
	Float8      uint32 = 701
	Unknown     uint32 = 705
	BoolArray   uint32 = 1000
	Int2Array   uint32 = 1005
	Int4Array   uint32 = 1007
	TextArray   uint32 = 1009
	Int8Array   uint32 = 1016
	Float4Array uint32 = 1021
	Float8Array uint32 = 1022
	BPChar      uint32 = 1042
	Varchar     uint32 = 1043
	Date        uint32 = 1082
	Time        uint32 = 1083
	Timestamp   uint32 = 1114
	Timestamptz uint32 = 1184
	Interval    uint32 = 1186
	Numeric     uint32 = 1700
	UUID        uint32 = 2950
	JSONB       uint32 = 3802
	Regclass    uint32 = 2205
	Regtype     uint32 = 2206
	Void        uint32 = 2278
	Record      uint32 = 2249

	DateArray        uint32 = 1182
	TimeArray        uint32 = 1183
	TimestampArray   uint32 = 1115
	TimestamptzArray uint32 = 1185
	NumericArray     uint32 = 1231
	UUIDArray        uint32 = 2951
	ByteaArray       uint32 = 1001
	JSONBArray       uint32 = 3807
	JSONArray        uint32 = 199
	BPCharArray      uint32 = 1014
	VarcharArray     uint32 = 1015
	IntervalArray    uint32 = 1187
)

// OIDs of the types of the system catalog's columns and of the object
// identifier types (oid, regclass...): icegate computes them as Arrow Int64
// (the oid family), String (name, "char", pg_node_tree, aclitem) and lists.
const (
	Int2Vector   uint32 = 22
	Regproc      uint32 = 24
	TID          uint32 = 27
	XID          uint32 = 28
	CID          uint32 = 29
	OIDVector    uint32 = 30
	PgNodeTree   uint32 = 194
	Inet         uint32 = 869
	Aclitem      uint32 = 1033
	CharArray    uint32 = 1002
	NameArray    uint32 = 1003
	OIDArray     uint32 = 1028
	AclitemArray uint32 = 1034
	Regprocedure uint32 = 2202
	Regoper      uint32 = 2203
	Anyarray     uint32 = 2277
	PgLsn        uint32 = 3220
	Regnamespace uint32 = 4089
	Regrole      uint32 = 4096

	// The arrays of the reg* types (proargtypes::regtype[]).
	RegprocArray      uint32 = 1008
	RegprocedureArray uint32 = 2207
	RegoperArray      uint32 = 2208
	RegclassArray     uint32 = 2210
	RegtypeArray      uint32 = 2211
	RegnamespaceArray uint32 = 4090
	RegroleArray      uint32 = 4097

	XIDArray uint32 = 1011
	CIDArray uint32 = 1012
)

// regArrays maps each reg* type to its array type.
var regArrays = [...][2]uint32{
	{Regproc, RegprocArray}, {Regprocedure, RegprocedureArray}, {Regoper, RegoperArray},
	{Regclass, RegclassArray}, {Regtype, RegtypeArray}, {Regnamespace, RegnamespaceArray}, {Regrole, RegroleArray},
}

// IsOIDType reports whether oid is one of the object identifier types
// (oid, regclass, regtype, regproc, regnamespace, xid...): unsigned 32-bit
// numbers that icegate computes as Arrow Int64.
func IsOIDType(oid uint32) bool {
	switch oid {
	case OID, Regclass, Regtype, Regproc, Regprocedure, Regoper, Regnamespace, Regrole, XID, CID:
		return true
	}
	return false
}

// IsRegType reports whether oid is a reg* alias type, whose text form is an
// object's name rather than its number.
func IsRegType(oid uint32) bool {
	switch oid {
	case Regclass, Regtype, Regproc, Regprocedure, Regoper, Regnamespace, Regrole:
		return true
	}
	return false
}

// Column describes one result column as RowDescription carries it.
type Column struct {
	Name     string
	TypeOID  uint32
	Typmod   int32 // -1 when none; numeric(P,S) is ((P<<16)|S)+4
	TableOID uint32
	AttNum   int16
}

// NumericTypmod returns the typmod of numeric(precision, scale).
func NumericTypmod(precision, scale int) int32 {
	return int32((precision<<16)|scale) + 4
}

// TypeSize returns pg_type.typlen for oid: the fixed size in bytes, or -1 for
// variable-length types.
func TypeSize(oid uint32) int16 {
	switch oid {
	case Bool, Char:
		return 1
	case Int2:
		return 2
	case Int4, Float4, Date, OID, Regclass, Regtype, Regproc, Regprocedure, Regoper, Regnamespace, Regrole, XID, CID:
		return 4
	case TID:
		return 6
	case Int8, Float8, Time, Timestamp, Timestamptz:
		return 8
	case UUID, Interval:
		return 16
	case Name:
		return 64
	default:
		return -1
	}
}

// TypeName returns the SQL name PostgreSQL prints for oid (format_type
// without typmod), or "" when unknown.
func TypeName(oid uint32) string {
	switch oid {
	case Bool:
		return "boolean"
	case Bytea:
		return "bytea"
	case Char:
		return "\"char\""
	case Name:
		return "name"
	case Int8:
		return "bigint"
	case Int2:
		return "smallint"
	case Int4:
		return "integer"
	case Text:
		return "text"
	case OID:
		return "oid"
	case JSON:
		return "json"
	case Float4:
		return "real"
	case Float8:
		return "double precision"
	case Unknown:
		return "unknown"
	case BPChar:
		return "character"
	case Varchar:
		return "character varying"
	case Date:
		return "date"
	case Time:
		return "time without time zone"
	case Timestamp:
		return "timestamp without time zone"
	case Timestamptz:
		return "timestamp with time zone"
	case Interval:
		return "interval"
	case Numeric:
		return "numeric"
	case UUID:
		return "uuid"
	case JSONB:
		return "jsonb"
	case Regclass:
		return "regclass"
	case Regtype:
		return "regtype"
	case Regproc:
		return "regproc"
	case Regprocedure:
		return "regprocedure"
	case Regoper:
		return "regoper"
	case Regnamespace:
		return "regnamespace"
	case Regrole:
		return "regrole"
	case XID:
		return "xid"
	case CID:
		return "cid"
	case TID:
		return "tid"
	case Int2Vector:
		return "int2vector"
	case OIDVector:
		return "oidvector"
	case PgNodeTree:
		return "pg_node_tree"
	case Inet:
		return "inet"
	case Aclitem:
		return "aclitem"
	case CharArray:
		return "\"char\"[]"
	case NameArray:
		return "name[]"
	case OIDArray:
		return "oid[]"
	case AclitemArray:
		return "aclitem[]"
	case Anyarray:
		return "anyarray"
	case PgLsn:
		return "pg_lsn"
	case Void:
		return "void"
	case Record:
		return "record"
	case BoolArray:
		return "boolean[]"
	case Int2Array:
		return "smallint[]"
	case Int4Array:
		return "integer[]"
	case Int8Array:
		return "bigint[]"
	case TextArray:
		return "text[]"
	case Float4Array:
		return "real[]"
	case Float8Array:
		return "double precision[]"
	case DateArray:
		return "date[]"
	case TimeArray:
		return "time without time zone[]"
	case TimestampArray:
		return "timestamp without time zone[]"
	case TimestamptzArray:
		return "timestamp with time zone[]"
	case NumericArray:
		return "numeric[]"
	case UUIDArray:
		return "uuid[]"
	case ByteaArray:
		return "bytea[]"
	case JSONBArray:
		return "jsonb[]"
	case JSONArray:
		return "json[]"
	case BPCharArray:
		return "character[]"
	case VarcharArray:
		return "character varying[]"
	case IntervalArray:
		return "interval[]"
	case XIDArray:
		return "xid[]"
	case CIDArray:
		return "cid[]"
	}
	for _, r := range regArrays {
		if r[1] == oid {
			return TypeName(r[0]) + "[]"
		}
	}
	return ""
}

// ArrayOf returns the OID of the array type whose elements are elem, or 0.
func ArrayOf(elem uint32) uint32 {
	switch elem {
	case Bool:
		return BoolArray
	case Int2:
		return Int2Array
	case Int4:
		return Int4Array
	case Int8:
		return Int8Array
	case Text:
		return TextArray
	case Float4:
		return Float4Array
	case Float8:
		return Float8Array
	case Date:
		return DateArray
	case Time:
		return TimeArray
	case Timestamp:
		return TimestampArray
	case Timestamptz:
		return TimestamptzArray
	case Numeric:
		return NumericArray
	case UUID:
		return UUIDArray
	case Bytea:
		return ByteaArray
	case JSONB:
		return JSONBArray
	case Char:
		return CharArray
	case Name:
		return NameArray
	case OID:
		return OIDArray
	case Aclitem:
		return AclitemArray
	case JSON:
		return JSONArray
	case BPChar:
		return BPCharArray
	case Varchar:
		return VarcharArray
	case Interval:
		return IntervalArray
	case XID:
		return XIDArray
	case CID:
		return CIDArray
	}
	for _, r := range regArrays {
		if r[0] == elem {
			return r[1]
		}
	}
	return 0
}

// ElemOf returns the element OID of an array type, or 0 when oid is not an
// array type icegate knows.
func ElemOf(oid uint32) uint32 {
	switch oid {
	case Int2Vector:
		return Int2
	case OIDVector:
		return OID
	}
	for _, e := range []uint32{Bool, Int2, Int4, Int8, Text, Float4, Float8, Date, Time, Timestamp, Timestamptz, Numeric, UUID, Bytea, JSONB, Char, Name, OID, Aclitem, JSON, BPChar, Varchar, Interval, XID, CID} {
		if ArrayOf(e) == oid {
			return e
		}
	}
	for _, r := range regArrays {
		if r[1] == oid {
			return r[0]
		}
	}
	return 0
}
