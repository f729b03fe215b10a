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
var registry, ordered = buildRegistry()

type tableKey struct{ schema, name string }

// buildRegistry indexes the relations by name and lists them ordered by
// schema and name.
func buildRegistry() (map[tableKey]*Table, []*Table) {
	m := map[tableKey]*Table{}
	var all []*Table
	for _, group := range [][]*Table{pgCatalogTables(), informationSchemaTables()} {
		for _, t := range group {
			m[tableKey{t.Schema, t.Name}] = t
			all = append(all, t)
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Schema != all[j].Schema {
			return all[i].Schema < all[j].Schema
		}
		return all[i].Name < all[j].Name
	})
	return m, all
}

// Lookup returns the catalog relation schema.name, or nil.
func Lookup(schema, name string) *Table {
	return registry[tableKey{schema, name}]
}

// Tables returns every catalog relation, ordered by schema and name. The
// slice is shared: callers must not change it.
func Tables() []*Table { return ordered }

// IsSystemSchema reports whether name is one of the schemas this package
// serves.
func IsSystemSchema(name string) bool {
	return name == "pg_catalog" || name == "information_schema"
}
