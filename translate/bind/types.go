package bind

import (
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
	cols := make([]Column, len(s.Fields))
	for i, f := range s.Fields {
		t, a := plan.TypeOfField(f, rec), engine.ArrowType(f.Type)
		if t.OID == pgtypes.Interval {
			// Stored as the struct of its parts, read and written as an
			// interval (engine.IntervalPartsType).
			a = arrow.FixedWidthTypes.MonthDayNanoInterval
		}
		cols[i] = Column{Name: f.Name, FieldID: f.ID, Type: t, Arrow: a}
	}
	return cols
}
