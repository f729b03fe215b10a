package main

import (
	"context"
	"fmt"
	"go/format"
	"strings"

	"github.com/jackc/pgx/v5"
)

// relations are the pg_catalog relations icegate serves.
var relations = []string{
	"pg_aggregate", "pg_am", "pg_amop", "pg_amproc", "pg_attrdef", "pg_attribute", "pg_auth_members",
	"pg_available_extensions", "pg_cast", "pg_class", "pg_collation", "pg_constraint", "pg_conversion",
	"pg_database", "pg_db_role_setting", "pg_default_acl", "pg_depend", "pg_description", "pg_enum", "pg_event_trigger",
	"pg_extension", "pg_foreign_data_wrapper", "pg_foreign_server", "pg_foreign_table", "pg_group",
	"pg_index", "pg_indexes", "pg_inherits", "pg_init_privs", "pg_language", "pg_largeobject_metadata",
	"pg_locks", "pg_matviews", "pg_namespace", "pg_opclass", "pg_operator", "pg_opfamily",
	"pg_cursors", "pg_partitioned_table", "pg_policies", "pg_policy", "pg_prepared_statements", "pg_prepared_xacts", "pg_proc", "pg_publication",
	"pg_publication_namespace", "pg_publication_rel", "pg_range", "pg_replication_slots", "pg_rewrite",
	"pg_roles", "pg_seclabel", "pg_seclabels", "pg_sequence", "pg_sequences", "pg_settings", "pg_shdepend",
	"pg_shdescription", "pg_shseclabel", "pg_stat_activity", "pg_stat_all_indexes", "pg_stat_progress_copy", "pg_stat_all_tables",
	"pg_stat_database", "pg_stat_user_indexes", "pg_stat_user_tables", "pg_statio_all_tables",
	"pg_statio_user_tables", "pg_statistic_ext", "pg_stats", "pg_stats_ext", "pg_subscription", "pg_tables",
	"pg_tablespace", "pg_transform", "pg_trigger", "pg_ts_config", "pg_ts_config_map", "pg_ts_dict",
	"pg_ts_parser", "pg_ts_template", "pg_type", "pg_user", "pg_user_mapping", "pg_views",
}

type column struct {
	name    string
	typ     uint32
	notNull bool
}

type shape struct {
	name    string
	oid     uint32
	kind    string
	columns []column
}

// readShapes reads the OID, relkind and columns of each relation.
func readShapes(ctx context.Context, conn *pgx.Conn, names []string) ([]*shape, error) {
	rows, err := conn.Query(ctx, `
SELECT c.relname, c.oid::int8, c.relkind::text, a.attname, a.atttypid::int8, a.attnotnull
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
WHERE c.relnamespace = 11 AND c.relname = ANY($1) AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.relname, a.attnum`, names)
	if err != nil {
		return nil, fmt.Errorf("read relation shapes: %w", err)
	}
	defer rows.Close()
	var out []*shape
	byName := map[string]*shape{}
	for rows.Next() {
		var rel, kind, att string
		var oid, typ int64
		var notNull bool
		if err := rows.Scan(&rel, &oid, &kind, &att, &typ, &notNull); err != nil {
			return nil, fmt.Errorf("read relation shapes: %w", err)
		}
		s := byName[rel]
		if s == nil {
			s = &shape{name: rel, oid: uint32(oid), kind: kind}
			byName[rel] = s
			out = append(out, s)
		}
		s.columns = append(s.columns, column{att, uint32(typ), notNull})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read relation shapes: %w", err)
	}
	for _, n := range names {
		if byName[n] == nil {
			return nil, fmt.Errorf("the reference server has no relation pg_catalog.%s", n)
		}
	}
	return out, nil
}

func renderShapes(shapes []*shape) string {
	var b strings.Builder
	b.WriteString("package syscat\n\n")
	b.WriteString("// pgShapes are PostgreSQL 15's pg_catalog relations icegate serves: name,\n")
	b.WriteString("// OID, relkind and columns (name, type OID, attnotnull), in attnum order.\n")
	b.WriteString("var pgShapes = []shape{\n")
	for _, s := range shapes {
		fmt.Fprintf(&b, "\t{%q, %d, '%s', []Column{", s.name, s.oid, s.kind)
		for i, c := range s.columns {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{%q, %d, %t}", c.name, c.typ, c.notNull)
		}
		b.WriteString("}},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return b.String()
	}
	return string(src)
}
