package syscat

import (
	"context"
	"strconv"

	"github.com/icegate/icegate/internal/pgtypes"
)

// The relations of information_schema about schemas, tables, views and
// their columns.

func catalogNameRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	rb.add("catalog_name", s.Database)
	return nil
}

// characterSetRows: the database encoding, UTF8, as PostgreSQL describes it
// for a database whose default collation is not a pg_collation row.
func characterSetRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	rb.add("character_set_name", "UTF8", "character_repertoire", "UCS", "form_of_use", "UTF8",
		"default_collate_catalog", s.Database)
	return nil
}

func schemataRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, n := range s.Namespaces {
		owner, _ := RoleName(namespaceOwner(n), ownerName(s))
		rb.add("catalog_name", s.Database, "schema_name", n.Name, "schema_owner", owner)
	}
	return nil
}

// relationWritable reports whether icegate writes into r: user tables take
// INSERT; views and the catalog relations do not.
func relationWritable(r *Relation) bool { return r.Kind == 'r' && !r.System }

// tableLike reports whether information_schema lists r as a table: tables,
// views, foreign and partitioned tables (not indexes or sequences).
func tableLike(r *Relation) bool {
	switch r.Kind {
	case 'r', 'v', 'f', 'p':
		return true
	}
	return false
}

func tableType(r *Relation) string {
	if r.Kind == 'v' {
		return "VIEW"
	}
	return "BASE TABLE"
}

func tablesRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range s.Relations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !tableLike(r) {
			continue
		}
		rb.add("table_catalog", s.Database, "table_schema", r.Namespace, "table_name", r.Name,
			"table_type", tableType(r), "is_insertable_into", yesNo(relationWritable(r)),
			"is_typed", "NO")
	}
	return nil
}

// viewsRows lists views with their SQL text. The catalog's own views are
// computed by icegate, not defined in SQL: their view_definition is NULL.
func viewsRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range s.Relations {
		if r.Kind != 'v' {
			continue
		}
		var def any
		if !r.System {
			def = r.ViewDef
		}
		rb.add("table_catalog", s.Database, "table_schema", r.Namespace, "table_name", r.Name,
			"view_definition", def, "check_option", "NONE", "is_updatable", "NO",
			"is_insertable_into", "NO", "is_trigger_updatable", "NO", "is_trigger_deletable", "NO",
			"is_trigger_insertable_into", "NO")
	}
	return nil
}

// collationOf returns the collation information_schema shows for a column
// (schema and name, or nils): name columns and the collatable columns of
// the catalogs (text, pg_node_tree...) sort by "C"; other text columns use
// the database default, which information_schema does not name.
func collationOf(r *Relation, a Attribute) (schema, name any) {
	t := a.Type
	if e := elemTypeOf(t); e != 0 && isArrayType(t) {
		t = e
	}
	switch {
	case t == pgtypes.Name:
		return "pg_catalog", "C"
	case r.System && r.Namespace == "information_schema" && t == pgtypes.Varchar:
		return "pg_catalog", "C"
	case r.System && r.Kind == 'r' && collatable(t):
		return "pg_catalog", "C"
	case r.System && viewColumnsCollatedC[r.Namespace+"."+r.Name+"."+a.Name]:
		return "pg_catalog", "C"
	}
	return nil, nil
}

func columnsRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range s.Relations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !tableLike(r) {
			continue
		}
		for i, a := range r.Columns {
			f := typeFactsOf(a.Type, columnTypmod(r, a))
			udtSchema := "pg_catalog"
			if e := s.EnumByOID(a.Type); e != nil { // pg_enum.go
				f.DataType, f.UDTName, udtSchema = "USER-DEFINED", e.Name, e.Namespace
			}
			var def any
			if a.Default != "" {
				def = a.Default
			}
			var collCatalog any
			collSchema, collName := collationOf(r, a)
			if collSchema != nil {
				collCatalog = s.Database
			}
			rb.add("table_catalog", s.Database, "table_schema", r.Namespace, "table_name", r.Name,
				"column_name", a.Name, "ordinal_position", card(i+1), "column_default", def,
				"is_nullable", yesNo(!a.NotNull), "data_type", f.DataType,
				"character_maximum_length", f.CharMaxLength, "character_octet_length", f.CharOctetLength,
				"numeric_precision", f.NumericPrecision, "numeric_precision_radix", f.NumericRadix,
				"numeric_scale", f.NumericScale, "datetime_precision", f.DatetimePrecision,
				"interval_type", f.IntervalType,
				"collation_catalog", collCatalog, "collation_schema", collSchema, "collation_name", collName,
				"udt_catalog", s.Database, "udt_schema", udtSchema, "udt_name", f.UDTName,
				"dtd_identifier", strconv.Itoa(i+1), "is_self_referencing", "NO", "is_identity", yesNo(a.Identity != 0),
				"identity_generation", identityGeneration(a),
				"identity_cycle", "NO", "is_generated", "NEVER",
				"is_updatable", yesNo(relationWritable(r)))
		}
	}
	return nil
}

// elementTypesRows describes the element type of every array column and
// every array argument or result of a built-in function.
// PostgreSQL leaves the element's lengths and precisions NULL here.
func elementTypesRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range s.Relations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !tableLike(r) {
			continue
		}
		for i, a := range r.Columns {
			if !isArrayType(a.Type) {
				continue
			}
			elem := elemTypeOf(a.Type)
			var collCatalog any
			collSchema, collName := collationOf(r, a)
			if collSchema != nil {
				collCatalog = s.Database
			}
			dtd := strconv.Itoa(i + 1)
			rb.add("object_catalog", s.Database, "object_schema", r.Namespace, "object_name", r.Name,
				"object_type", "TABLE", "collection_type_identifier", dtd, "data_type", dataTypeOf(elem),
				"collation_catalog", collCatalog, "collation_schema", collSchema, "collation_name", collName,
				"udt_catalog", s.Database, "udt_schema", "pg_catalog", "udt_name", udtNameOf(elem),
				"dtd_identifier", "a"+dtd)
		}
	}
	// The arguments (1, 2...) and results (0) of the built-in functions.
	for _, p := range builtinRoutines() {
		types := append([]uint32{p.RetType}, procArgTypes(p)...)
		for n, t := range types {
			if !isArrayType(t) {
				continue
			}
			elem := elemTypeOf(t)
			dtd := strconv.Itoa(n)
			rb.add("object_catalog", s.Database, "object_schema", "pg_catalog", "object_name", specificName(p),
				"object_type", "ROUTINE", "collection_type_identifier", dtd, "data_type", dataTypeOf(elem),
				"udt_catalog", s.Database, "udt_schema", "pg_catalog", "udt_name", udtNameOf(elem),
				"dtd_identifier", "a"+dtd)
		}
	}
	return ctx.Err()
}

// columnUDTUsageRows: every column's type, since the session's user owns
// the built-in types.
func columnUDTUsageRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range s.Relations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !tableLike(r) {
			continue
		}
		for _, a := range r.Columns {
			rb.add("udt_catalog", s.Database, "udt_schema", "pg_catalog", "udt_name", udtNameOf(a.Type),
				"table_catalog", s.Database, "table_schema", r.Namespace, "table_name", r.Name,
				"column_name", a.Name)
		}
	}
	return nil
}

// viewColumnsCollatedC are the columns of PostgreSQL's catalog views that
// show a catalog column's text as it is, and so its "C" collation.
var viewColumnsCollatedC = map[string]bool{
	"pg_catalog.pg_available_extensions.installed_version": true,
	"pg_catalog.pg_roles.rolconfig":                        true,
	"pg_catalog.pg_user.useconfig":                         true,
	"pg_catalog.pg_shadow.passwd":                          true,
	"pg_catalog.pg_shadow.useconfig":                       true,
	"pg_catalog.pg_policies.qual":                          true,
	"pg_catalog.pg_policies.with_check":                    true,
	"pg_catalog.pg_stats_ext.n_distinct":                   true,
	"pg_catalog.pg_stats_ext.dependencies":                 true,
	"pg_catalog.pg_seclabels.objname":                      true,
	"pg_catalog.pg_seclabels.provider":                     true,
	"pg_catalog.pg_seclabels.label":                        true,
}

// collatable reports whether values of type oid have a collation.
func collatable(oid uint32) bool {
	if t := TypeByOID(oid); t != nil {
		return t.Collation != 0
	}
	return oid == pgtypes.Text || oid == pgtypes.Varchar || oid == pgtypes.BPChar || oid == pgtypes.Name
}

// collationRows lists icegate's collations (builtinCollations).
func collationRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, c := range builtinCollations {
		rb.add("collation_catalog", s.Database, "collation_schema", "pg_catalog", "collation_name", c,
			"pad_attribute", "NO PAD")
	}
	return nil
}

// collationCharsetRows: every collation applies to UTF8, the one encoding.
func collationCharsetRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, c := range builtinCollations {
		rb.add("collation_catalog", s.Database, "collation_schema", "pg_catalog", "collation_name", c,
			"character_set_name", "UTF8")
	}
	return nil
}

// identityGeneration is information_schema.columns.identity_generation.
func identityGeneration(a Attribute) any {
	switch a.Identity {
	case 'a':
		return "ALWAYS"
	case 'd':
		return "BY DEFAULT"
	}
	return nil
}
