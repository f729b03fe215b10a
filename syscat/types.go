package syscat

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgtypes"
)

// ArrowOf returns the Arrow type icegate computes values of the PostgreSQL
// type oid in, for the types of catalog columns: the oid family as Int64,
// name / "char" / text-like types as String, int2vector and arrays as lists.
// It agrees with translate's mapping for the types both know.
func ArrowOf(oid uint32) arrow.DataType {
	switch {
	case pgtypes.IsOIDType(oid):
		return arrow.PrimitiveTypes.Int64
	}
	switch oid {
	case pgtypes.Bool:
		return arrow.FixedWidthTypes.Boolean
	case pgtypes.Int2:
		return arrow.PrimitiveTypes.Int16
	case pgtypes.Int4:
		return arrow.PrimitiveTypes.Int32
	case pgtypes.Int8:
		return arrow.PrimitiveTypes.Int64
	case pgtypes.Float4:
		return arrow.PrimitiveTypes.Float32
	case pgtypes.Float8:
		return arrow.PrimitiveTypes.Float64
	case pgtypes.Timestamptz:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	case pgtypes.Int2Vector:
		return arrow.ListOf(arrow.PrimitiveTypes.Int16)
	case pgtypes.OIDVector:
		return arrow.ListOf(arrow.PrimitiveTypes.Int64)
	case pgtypes.Bytea:
		return arrow.BinaryTypes.Binary
	}
	if elem := pgtypes.ElemOf(oid); elem != 0 {
		return arrow.ListOf(ArrowOf(elem))
	}
	// text, varchar, name, "char", pg_node_tree, aclitem, anyarray, inet,
	// pg_lsn...: their text form.
	return arrow.BinaryTypes.String
}
