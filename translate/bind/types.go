package bind

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/translate/plan"
)

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
		cols[i] = Column{Name: f.Name, FieldID: f.ID, Type: plan.TypeOfIceberg(f.Type), Arrow: engine.ArrowType(f.Type)}
	}
	return cols
}
