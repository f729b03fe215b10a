package syscat

import (
	"context"
	"fmt"

	"github.com/icegate/icegate/internal/pgtypes"
)

// information_schema: every view and table PostgreSQL 15 has there (except
// its internal _pg_* helper views), with PostgreSQL's names, column order and
// OIDs (infoschema_defs.go). Rows are computed as PostgreSQL's view
// definitions compute them, for a session whose user owns every object
// (ownerName). Where icegate differs, on purpose:
//   - user views, and every catalog relation, are not insertable or
//     updatable (tables.is_insertable_into, views.is_updatable,
//     columns.is_updatable say NO), since icegate writes only tables;
//   - the catalog's own views have no SQL text (views.view_definition NULL);
//   - one role, no predefined roles or memberships (enabled_roles,
//     applicable_roles).
//
// Relations about objects icegate does not have list no rows: domains and
// their usage, sequences, triggers, user-defined and composite types
// (attributes, user_defined_types, udt_privileges), foreign data wrappers,
// servers, tables and user mappings, transforms, the usage of tables,
// columns, routines and sequences by views, routines and checks, and
// referential_constraints (Iceberg has no foreign keys). sql_features
// (PostgreSQL's list of standard features) has no rows either.

// domain is one of information_schema's domains, which PostgreSQL declares
// its columns with. icegate has no domains, so each column has its
// domain's base type: sql_identifier is name (19), cardinal_number is
// integer (23), character_data and yes_or_no are character varying (1043),
// time_stamp is timestamp with time zone (1184). Clients see the base
// type's OID in RowDescription where PostgreSQL sends the domain's, and
// information_schema.columns describes these columns by their base types
// (domain_name is NULL), keeping the typmods of varchar(3) and
// timestamptz(2) that yes_or_no and time_stamp carry.
type domain int

const (
	sqlIdentifier domain = iota
	cardinalNumber
	characterData
	yesOrNo
	timeStamp
)

// base returns the domain's base type and typmod.
func (d domain) base() (uint32, int32) {
	switch d {
	case sqlIdentifier:
		return pgtypes.Name, -1
	case cardinalNumber:
		return pgtypes.Int4, -1
	case yesOrNo:
		return pgtypes.Varchar, 3 + 4
	case timeStamp:
		return pgtypes.Timestamptz, 2
	}
	return pgtypes.Varchar, -1
}

// informationSchemaTables lists the relations of information_schema.
func informationSchemaTables() []*Table {
	rows := informationSchemaRows()
	defs := informationSchemaDefs()
	out := make([]*Table, 0, len(defs))
	for _, d := range defs {
		t := &Table{Schema: "information_schema", Name: d.Name, OID: d.OID, Kind: d.Kind}
		for _, c := range d.Columns {
			t.Columns = append(t.Columns, c.Column)
		}
		t.Rows = noRows
		if f, ok := rows[d.Name]; ok {
			t.Rows = namedRows(t, f)
		}
		out = append(out, t)
	}
	return out
}

// infoTypmods holds the typmods of information_schema's columns whose
// domain has one, by relation and column name. Built once, never changed.
var infoTypmods = buildInfoTypmods()

func buildInfoTypmods() map[[2]string]int32 {
	m := map[[2]string]int32{}
	for _, d := range informationSchemaDefs() {
		for _, c := range d.Columns {
			if c.Typmod != -1 {
				m[[2]string{d.Name, c.Name}] = c.Typmod
			}
		}
	}
	return m
}

// columnTypmod is the typmod information_schema.columns describes a
// column with: its own, or for information_schema's columns their
// domain's.
func columnTypmod(r *Relation, a Attribute) int32 {
	if r.System && r.Namespace == "information_schema" {
		if m, ok := infoTypmods[[2]string{r.Name, a.Name}]; ok {
			return m
		}
	}
	return a.Typmod
}

// infoRowsFunc computes a relation's rows, each built by name through rb.
type infoRowsFunc func(ctx context.Context, s *Snapshot, rb *rowBuilder) error

// informationSchemaRows maps the relations that have rows to the functions
// computing them.
func informationSchemaRows() map[string]infoRowsFunc {
	return map[string]infoRowsFunc{
		"information_schema_catalog_name":       catalogNameRows,
		"character_sets":                        characterSetRows,
		"collations":                            collationRows,
		"collation_character_set_applicability": collationCharsetRows,
		"schemata":                              schemataRows,
		"tables":                                tablesRows,
		"views":                                 viewsRows,
		"columns":                               columnsRows,
		"element_types":                         elementTypesRows,
		"column_udt_usage":                      columnUDTUsageRows,
		"table_constraints":                     tableConstraintRows,
		"key_column_usage":                      keyColumnUsageRows,
		"constraint_column_usage":               constraintColumnUsageRows,
		"constraint_table_usage":                constraintTableUsageRows,
		"check_constraints":                     checkConstraintRows,
		"enabled_roles":                         enabledRoleRows,
		"table_privileges":                      tablePrivilegeRows,
		"role_table_grants":                     tablePrivilegeRows,
		"column_privileges":                     columnPrivilegeRows,
		"role_column_grants":                    columnPrivilegeRows,
		"usage_privileges":                      usagePrivilegeRows,
		"role_usage_grants":                     usagePrivilegeRows,
		"routine_privileges":                    routinePrivilegeRows(builtinRoutines),
		"role_routine_grants":                   routinePrivilegeRows(builtinRoutines),
		"data_type_privileges":                  dataTypePrivilegeRows(builtinRoutines),
		"routines":                              routineRowsFrom(builtinRoutines),
		"parameters":                            parameterRowsFrom(builtinRoutines),
		"sql_implementation_info":               sqlImplementationInfoRows,
		"sql_parts":                             sqlPartsRows,
		"sql_sizing":                            sqlSizingRows,
	}
}

func noRows(context.Context, *Snapshot) ([][]any, error) { return nil, nil }

// namedRows adapts an infoRowsFunc to Table.Rows.
func namedRows(t *Table, f infoRowsFunc) func(context.Context, *Snapshot) ([][]any, error) {
	return func(ctx context.Context, s *Snapshot) ([][]any, error) {
		rb := newRowBuilder(t)
		if err := f(ctx, s, rb); err != nil {
			return nil, err
		}
		return rb.rows, rb.err
	}
}

// rowBuilder builds rows of one relation by column name: columns not named
// are NULL.
type rowBuilder struct {
	table *Table
	index map[string]int
	rows  [][]any
	err   error
}

func newRowBuilder(t *Table) *rowBuilder {
	idx := make(map[string]int, len(t.Columns))
	for i, c := range t.Columns {
		idx[c.Name] = i
	}
	return &rowBuilder{table: t, index: idx}
}

// add appends a row from name/value pairs.
func (rb *rowBuilder) add(pairs ...any) {
	row := make([]any, len(rb.table.Columns))
	for i := 0; i+1 < len(pairs); i += 2 {
		name, _ := pairs[i].(string)
		ci, ok := rb.index[name]
		if !ok {
			if rb.err == nil {
				rb.err = fmt.Errorf("information_schema.%s has no column %q", rb.table.Name, name)
			}
			return
		}
		row[ci] = pairs[i+1]
	}
	rb.rows = append(rb.rows, row)
}

// infoDef is the definition of one information_schema relation.
type infoDef struct {
	Name    string
	OID     uint32
	Kind    byte
	Columns []infoColumn
}

// infoColumn is a column of an information_schema relation and the typmod
// of its domain (-1 for none).
type infoColumn struct {
	Column
	Typmod int32
}

// isCols builds a column list from name/type pairs, the type a domain or a
// type OID.
func isCols(pairs ...any) []infoColumn {
	out := make([]infoColumn, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		c := infoColumn{Column: Column{Name: pairs[i].(string)}, Typmod: -1}
		switch t := pairs[i+1].(type) {
		case domain:
			c.Type, c.Typmod = t.base()
		case uint32:
			c.Type = t
		}
		out = append(out, c)
	}
	return out
}

// yesNo is a yes_or_no value.
func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

// card is a cardinal_number value.
func card[T ~int | ~int16 | ~int32 | ~int64](n T) any { return int32(n) }

// ownerName is the role that owns every object icegate lists (OID
// BootstrapSuperuserOID): the session's user, who may do everything.
func ownerName(s *Snapshot) string {
	if s.User == "" {
		return "icegate"
	}
	return s.User
}
