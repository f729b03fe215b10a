package catalog

import "fmt"

// Type is an Iceberg type: a *PrimitiveType, *StructType, *ListType or
// *MapType. String returns the spec's JSON spelling ("long",
// "decimal(9,2)", "fixed[16]", "struct<...>").
type Type interface {
	String() string
	isType()
}

// TypeID names an Iceberg primitive type.
type TypeID int

// The Iceberg primitive types (spec "Primitive Types"), v1 to v3.
const (
	TBoolean TypeID = iota + 1
	TInt
	TLong
	TFloat
	TDouble
	TDecimal // Precision, Scale
	TDate
	TTime
	TTimestamp
	TTimestamptz
	TTimestampNs
	TTimestamptzNs
	TString
	TUUID
	TFixed // Length
	TBinary
	TVariant
	TGeometry  // Param: CRS (may be empty)
	TGeography // Param: CRS and algorithm, as written
	TUnknown
)

// PrimitiveType is a primitive Iceberg type. Only the fields its ID uses are set.
type PrimitiveType struct {
	ID        TypeID
	Precision int    // decimal
	Scale     int    // decimal
	Length    int    // fixed
	Param     string // geometry/geography parameters, verbatim
}

func (*PrimitiveType) isType() {}

func (t *PrimitiveType) String() string {
	switch t.ID {
	case TBoolean:
		return "boolean"
	case TInt:
		return "int"
	case TLong:
		return "long"
	case TFloat:
		return "float"
	case TDouble:
		return "double"
	case TDecimal:
		return fmt.Sprintf("decimal(%d, %d)", t.Precision, t.Scale)
	case TDate:
		return "date"
	case TTime:
		return "time"
	case TTimestamp:
		return "timestamp"
	case TTimestamptz:
		return "timestamptz"
	case TTimestampNs:
		return "timestamp_ns"
	case TTimestamptzNs:
		return "timestamptz_ns"
	case TString:
		return "string"
	case TUUID:
		return "uuid"
	case TFixed:
		return fmt.Sprintf("fixed[%d]", t.Length)
	case TBinary:
		return "binary"
	case TVariant:
		return "variant"
	case TGeometry:
		if t.Param != "" {
			return "geometry(" + t.Param + ")"
		}
		return "geometry"
	case TGeography:
		if t.Param != "" {
			return "geography(" + t.Param + ")"
		}
		return "geography"
	case TUnknown:
		return "unknown"
	}
	return fmt.Sprintf("type(%d)", int(t.ID))
}

// StructType is a struct of fields, each with a unique field id.
type StructType struct {
	Fields []NestedField
}

func (*StructType) isType() {}

func (t *StructType) String() string {
	s := "struct<"
	for i, f := range t.Fields {
		if i > 0 {
			s += ", "
		}
		s += f.Name + ": " + f.Type.String()
	}
	return s + ">"
}

// ListType is a list whose element has its own field id.
type ListType struct {
	ElementID       int
	Element         Type
	ElementRequired bool
}

func (*ListType) isType() {}

func (t *ListType) String() string { return "list<" + t.Element.String() + ">" }

// MapType is a map whose key and value have their own field ids.
type MapType struct {
	KeyID         int
	Key           Type
	ValueID       int
	Value         Type
	ValueRequired bool
}

func (*MapType) isType() {}

func (t *MapType) String() string {
	return "map<" + t.Key.String() + ", " + t.Value.String() + ">"
}

// NestedField is a named, id'd field of a schema or struct.
//
// InitialDefault and WriteDefault hold the v3 defaults already decoded from
// their JSON single-value form into the Go value of Value (see value.go);
// nil means no default.
type NestedField struct {
	ID             int
	Name           string
	Required       bool
	Type           Type
	Doc            string
	InitialDefault any
	WriteDefault   any
}

// Primitive returns t as a *PrimitiveType, or nil.
func Primitive(t Type) *PrimitiveType {
	p, _ := t.(*PrimitiveType)
	return p
}
