package bind

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// PGTypeOfIceberg maps an Iceberg type to its PostgreSQL type (DESIGN.md
// section 3).
func PGTypeOfIceberg(t catalog.Type) plan.Type {
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		switch t.ID {
		case catalog.TBoolean:
			return plan.TBool
		case catalog.TInt:
			return plan.TInt4
		case catalog.TLong:
			return plan.TInt8
		case catalog.TFloat:
			return plan.TFloat4
		case catalog.TDouble:
			return plan.TFloat8
		case catalog.TDecimal:
			return plan.NumericType(t.Precision, t.Scale)
		case catalog.TDate:
			return plan.TDate
		case catalog.TTime:
			return plan.TTime
		case catalog.TTimestamp, catalog.TTimestampNs:
			return plan.TTimestamp
		case catalog.TTimestamptz, catalog.TTimestamptzNs:
			return plan.TTimestamptz
		case catalog.TString:
			return plan.TText
		case catalog.TUUID:
			return plan.TUUID
		case catalog.TVariant:
			return plan.TJSONB
		default: // fixed, binary, geometry, geography, unknown
			return plan.TBytea
		}
	case *catalog.ListType:
		if p, ok := t.Element.(*catalog.PrimitiveType); ok {
			elem := PGTypeOfIceberg(p)
			if arr := pgtypes.ArrayOf(elem.OID); arr != 0 && elem.OID != pgtypes.JSONB {
				return plan.Type{OID: arr, Typmod: -1}
			}
		}
		return plan.TJSONB
	}
	return plan.TJSONB // struct, map, nested list
}

// Column describes a table column for binding.
type Column struct {
	Name    string
	FieldID int
	Type    plan.Type
	Arrow   arrow.DataType
}

// ColumnsOf lists the top-level columns of an Iceberg schema.
func ColumnsOf(s *catalog.Schema) []Column {
	cols := make([]Column, len(s.Fields))
	for i, f := range s.Fields {
		cols[i] = Column{Name: f.Name, FieldID: f.ID, Type: PGTypeOfIceberg(f.Type), Arrow: engine.ArrowType(f.Type)}
	}
	return cols
}
