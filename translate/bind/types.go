package bind

import (
	"encoding/json"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// Column describes a table column for binding.
type Column struct {
	Name    string
	FieldID int
	Type    plan.Type
	Arrow   arrow.DataType
	// Enum is the enum type of a column of one ("schema.name", from
	// EnumColumnsProp), stored as a string; "" for other columns.
	Enum string
}

// EnumColumnsProp is the table property recording, per field id, the enum
// type of a column (stored as an Iceberg string, which other engines read
// as the label): {"2": "public.mood"}.
const EnumColumnsProp = "icegate.enum-types"

// EnumColumns reads EnumColumnsProp of a table's properties.
func EnumColumns(props map[string]string) map[int]string {
	var m map[string]string
	if json.Unmarshal([]byte(props[EnumColumnsProp]), &m) != nil {
		return nil
	}
	out := make(map[int]string, len(m))
	for k, v := range m {
		if id, err := strconv.Atoi(k); err == nil {
			out[id] = v
		}
	}
	return out
}

// ColumnsOf lists the top-level columns of an Iceberg schema, typed by
// their Iceberg types alone.
func ColumnsOf(s *catalog.Schema) []Column {
	return ColumnsOfTable(nil, s)
}

// ColumnsOfTable lists the top-level columns of schema s of table t (which
// may be nil), typed as t records their PostgreSQL types
// (plan.PGTypesProperty: json, jsonb, varchar(n), char(n), smallint,
// interval).
func ColumnsOfTable(t *catalog.Table, s *catalog.Schema) []Column {
	rec := plan.RecordedTypesOf(t)
	var enums map[int]string
	if t != nil && t.Metadata != nil {
		enums = EnumColumns(t.Metadata.Properties)
	}
	cols := make([]Column, len(s.Fields))
	for i, f := range s.Fields {
		t, a := plan.TypeOfField(f, rec), engine.ArrowType(f.Type)
		if t.OID == pgtypes.Interval {
			// Stored as the struct of its parts, read and written as an
			// interval (engine.IntervalPartsType).
			a = arrow.FixedWidthTypes.MonthDayNanoInterval
		}
		if t.OID == pgtypes.IntervalArray {
			a = engine.IntervalOfParts(a) // interval[]: lists of the parts
		}
		cols[i] = Column{Name: f.Name, FieldID: f.ID, Type: t, Arrow: a}
		if e := enums[f.ID]; e != "" && a.ID() == arrow.STRING {
			cols[i].Enum = e
		}
	}
	return cols
}
