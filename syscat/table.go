package syscat

import (
	"context"
	"sort"
)

// Column is one column of a catalog relation: its name and PostgreSQL
// type OID (Arrow type: ArrowOf).
type Column struct {
	Name string
	Type uint32
	// NotNull is pg_attribute.attnotnull: the column never holds NULL (a
	// row that sets no value gets the type's zero value).
	NotNull bool
}

// Table is one relation of pg_catalog or information_schema.
type Table struct {
	Schema string // "pg_catalog" or "information_schema"
	Name   string
	// OID is the relation's OID: PostgreSQL 15's for the built-in catalogs
	// and views (pg_class is 1259), so 'pg_class'::regclass matches what
	// clients compare against.
	OID uint32
	// Kind is pg_class.relkind: 'r' for catalogs, 'v' for views.
	Kind    byte
	Columns []Column
	// Rows computes the rows from a snapshot. Each row has one value per
	// column, as Batch documents.
	Rows func(ctx context.Context, s *Snapshot) ([][]any, error)
}

// The registry: every catalog relation, by schema and name. It is built
// once from the definitions of this package and never changes.
var registry = buildRegistry()

type tableKey struct{ schema, name string }

func buildRegistry() map[tableKey]*Table {
	m := map[tableKey]*Table{}
	for _, group := range [][]*Table{pgCatalogTables(), informationSchemaTables()} {
		for _, t := range group {
			m[tableKey{t.Schema, t.Name}] = t
		}
	}
	return m
}

// Lookup returns the catalog relation schema.name, or nil.
func Lookup(schema, name string) *Table {
	return registry[tableKey{schema, name}]
}

// Tables returns every catalog relation, ordered by schema and name.
func Tables() []*Table {
	out := make([]*Table, 0, len(registry))
	for _, t := range registry {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Schema != out[j].Schema {
			return out[i].Schema < out[j].Schema
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// IsSystemSchema reports whether name is one of the schemas this package
// serves.
func IsSystemSchema(name string) bool {
	return name == "pg_catalog" || name == "information_schema"
}
