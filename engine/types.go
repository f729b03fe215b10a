package engine

import (
	"strconv"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
)

// FieldIDKey is the Arrow field metadata key that carries the Iceberg field
// id of a column produced by a scan (nested fields included).
const FieldIDKey = "iceberg.field-id"

// ArrowType returns the Arrow type the engine uses for an Iceberg type
// (DESIGN.md section 3). Nested types carry the field ids of their children
// in FieldIDKey metadata. variant is read as its JSON text (String);
// geometry/geography and unknown as Binary.
func ArrowType(t catalog.Type) arrow.DataType {
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		switch t.ID {
		case catalog.TBoolean:
			return arrow.FixedWidthTypes.Boolean
		case catalog.TInt:
			return arrow.PrimitiveTypes.Int32
		case catalog.TLong:
			return arrow.PrimitiveTypes.Int64
		case catalog.TFloat:
			return arrow.PrimitiveTypes.Float32
		case catalog.TDouble:
			return arrow.PrimitiveTypes.Float64
		case catalog.TDecimal:
			return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}
		case catalog.TDate:
			return arrow.FixedWidthTypes.Date32
		case catalog.TTime:
			return arrow.FixedWidthTypes.Time64us
		case catalog.TTimestamp:
			return &arrow.TimestampType{Unit: arrow.Microsecond}
		case catalog.TTimestamptz:
			return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
		case catalog.TTimestampNs:
			return &arrow.TimestampType{Unit: arrow.Nanosecond}
		case catalog.TTimestamptzNs:
			return &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
		case catalog.TString, catalog.TVariant:
			return arrow.BinaryTypes.String
		case catalog.TUUID:
			return &arrow.FixedSizeBinaryType{ByteWidth: 16}
		case catalog.TFixed:
			return &arrow.FixedSizeBinaryType{ByteWidth: t.Length}
		default: // binary, geometry, geography, unknown
			return arrow.BinaryTypes.Binary
		}
	case *catalog.StructType:
		fields := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = ArrowField(f)
		}
		return arrow.StructOf(fields...)
	case *catalog.ListType:
		return arrow.ListOfField(arrow.Field{
			Name:     "element",
			Type:     ArrowType(t.Element),
			Nullable: !t.ElementRequired,
			Metadata: fieldIDMetadata(t.ElementID),
		})
	case *catalog.MapType:
		mt := arrow.MapOfWithMetadata(
			ArrowType(t.Key), fieldIDMetadata(t.KeyID),
			ArrowType(t.Value), fieldIDMetadata(t.ValueID))
		mt.SetItemNullable(!t.ValueRequired)
		return mt
	}
	return arrow.BinaryTypes.Binary
}

// ArrowField returns the Arrow field for an Iceberg field, with its id in
// FieldIDKey metadata.
func ArrowField(f catalog.NestedField) arrow.Field {
	return arrow.Field{
		Name:     f.Name,
		Type:     ArrowType(f.Type),
		Nullable: !f.Required,
		Metadata: fieldIDMetadata(f.ID),
	}
}

// fieldIDMetadata is the metadata of a field of Iceberg ID id. The IDs
// most tables use share one read-only Metadata each: a scan set up per
// statement (a prepared point query's) builds its schema from them.
func fieldIDMetadata(id int) arrow.Metadata {
	if t := sharedFieldIDMetadata(); id >= 0 && id < len(t) {
		return t[id]
	}
	return newFieldIDMetadata(id)
}

func newFieldIDMetadata(id int) arrow.Metadata {
	return arrow.NewMetadata([]string{FieldIDKey}, []string{strconv.Itoa(id)})
}

// sharedFieldIDMetadata is built once and never changed.
var sharedFieldIDMetadata = sync.OnceValue(func() []arrow.Metadata {
	t := make([]arrow.Metadata, 512)
	for id := range t {
		t[id] = newFieldIDMetadata(id)
	}
	return t
})
