package ddl

import (
	"slices"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// SetIdentifierFields makes the top-level columns names the table's
// identifier fields: ALTER TABLE ... ADD PRIMARY KEY (a, b), as pg_dump
// writes a primary key. Each must be required and of a primitive type
// other than float and double, as Iceberg's spec asks.
func SetIdentifierFields(e *SchemaEdit, names []string) error {
	var ids []int
	for _, name := range names {
		fs, i := e.lookup(name)
		if fs == nil {
			return UndefinedColumn(name)
		}
		f := (*fs)[i]
		p := catalog.Primitive(f.Type)
		switch {
		case !f.Required:
			return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" cannot be in the primary key: it is nullable", name).
				WithHint("Make it NOT NULL first: ALTER TABLE ... ALTER COLUMN %s SET NOT NULL.", name)
		case p == nil || p.ID == catalog.TFloat || p.ID == catalog.TDouble:
			return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" cannot be in the primary key: its type is %s", name, f.Type)
		}
		ids = append(ids, f.ID)
	}
	if len(e.schema.IdentifierFieldIDs) > 0 && !slices.Equal(e.schema.IdentifierFieldIDs, ids) {
		return pgerr.New(pgerr.InvalidTableDefinition, "multiple primary keys for table are not allowed")
	}
	if !slices.Equal(e.schema.IdentifierFieldIDs, ids) {
		e.schema.IdentifierFieldIDs = ids
		e.Changed = true
	}
	return nil
}

// ClearIdentifierFields removes the table's identifier fields (DROP
// CONSTRAINT of its primary key); false when it has none.
func ClearIdentifierFields(e *SchemaEdit) bool {
	if len(e.schema.IdentifierFieldIDs) == 0 {
		return false
	}
	e.schema.IdentifierFieldIDs = nil
	e.Changed = true
	return true
}

// HasIdentifierFields reports whether the table has a primary key.
func (e *SchemaEdit) HasIdentifierFields() bool { return len(e.schema.IdentifierFieldIDs) > 0 }
