package translate

import (
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/metatable"
)

// Metadata tables in the system catalog. So that BI tools and psql can
// browse them, each Iceberg table's metadata tables are listed beside it in
// pg_class (and so in pg_attribute, information_schema.tables, .columns,
// .views, pg_views...) as views (relkind 'v') named t$kind in the table's
// schema, with the columns a query of them returns. The name is one a
// client can send back unchanged: ns."t$snapshots" is a metadata table to
// the binder.
//
// Views rather than tables keep the listings of tables clean: psql's \dt,
// information_schema.tables WHERE table_type = 'BASE TABLE' and the
// "Tables" folders of BI tools show only the Iceberg tables, while \dv, \d
// and the "Views" folders show the metadata tables, which, like views,
// are computed when read and cannot be written.
//
// Listing them is a session option, iceberg.list_metadata_tables, off by
// default: every table brings 17 of them, so a schema of 100 tables would
// list 1,700 views in information_schema.tables, \dv and the "Views"
// folder of every tool, and the tools that sync whole schemas (reading
// each relation's columns and sample rows) would read every table's
// manifests and delete files to do so. Trino and Spark likewise leave
// them out of SHOW TABLES while they stay queryable by name, and with the
// option off a PostgreSQL client sees exactly the tables and views it
// made. A BI connection that should browse them turns it on in its
// connection string (options=-c iceberg.list_metadata_tables=on) or with
// SET.

// listMetadataTablesOption is the session option's Iceberg-style name.
const listMetadataTablesOption = "list-metadata-tables"

// listMetadataTables reports whether the session lists metadata tables in
// the system catalog.
func (s *session) listMetadataTables() bool {
	o := conf.LookupOption(listMetadataTablesOption)
	return o != nil && s.EffectiveOption(o, nil, nil).Value == "true"
}

// metaTableRelations describes table t's metadata tables for pg_class and
// friends: one view per kind, in the table's schema ns.
func metaTableRelations(ns string, t *catalog.Table) []*syscat.Relation {
	if t.Metadata == nil {
		return nil
	}
	out := make([]*syscat.Relation, 0, len(metatable.All))
	for _, def := range metatable.All {
		name := t.Ident.Name + "$" + def.Name
		r := &syscat.Relation{Namespace: ns, Name: name, Kind: 'v', Rows: -1, Bytes: -1, Files: -1,
			Comment: metaTableComment(def, t.Ident.Name),
			ViewDef: "SELECT * FROM " + syscat.QuoteIdent(ns) + "." + syscat.QuoteIdent(name)}
		for _, c := range def.Columns(t.Metadata) {
			r.Columns = append(r.Columns, syscat.Attribute{Name: c.Name, Type: c.Typ.OID, Typmod: c.Typ.Typmod})
		}
		out = append(out, r)
	}
	return out
}

// metaTableComment is the description (obj_description, \dv+) of a
// metadata table.
func metaTableComment(def *metatable.Def, table string) string {
	var b strings.Builder
	b.WriteString("Iceberg metadata table ")
	b.WriteString(def.Name)
	b.WriteString(" of ")
	b.WriteString(table)
	if def.PerSnapshot {
		b.WriteString(" (at the current snapshot unless read AS OF another)")
	}
	return b.String()
}

// appendMetaTableRelations adds t's metadata tables to a catalog snapshot
// being built, when the session lists them.
func (s *session) appendMetaTableRelations(snap *syscat.Snapshot, ns string, t *catalog.Table) {
	if !s.listMetadataTables() {
		return
	}
	snap.Relations = append(snap.Relations, metaTableRelations(ns, t)...)
}
