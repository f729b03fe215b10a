package syscat

import (
	"context"
	"fmt"
	"slices"

	"github.com/icegate/icegate/internal/pgtypes"
)

// pgCatalogTables lists the relations of pg_catalog: PostgreSQL 15's
// shapes (shapes_gen.go) and icegate's own (icegate_shapes.go), each with the fill that computes its rows; a
// relation without one lists no rows (icegate has no such objects).
func pgCatalogTables() []*Table {
	fills := pgFills()
	out := make([]*Table, 0, len(pgShapes)+len(icegateShapes)+len(authShapes))
	for _, sh := range slices.Concat(pgShapes, icegateShapes, authShapes) {
		t := &Table{Schema: "pg_catalog", Name: sh.name, OID: sh.oid, Kind: sh.kind, Columns: sh.columns}
		fill := fills[sh.name]
		if fill == nil {
			fill = emptyFill
		}
		t.Rows = rowsOf(t, fill)
		out = append(out, t)
	}
	return out
}

// pgFills maps the relations that list rows to the fills computing them.
func pgFills() map[string]fillFunc {
	return map[string]fillFunc{
		"pg_namespace":          namespaceFill,
		"pg_class":              classFill,
		"pg_attribute":          attributeFill,
		"pg_type":               typeFill, // pg_enum.go
		"pg_enum":               enumFill,
		"pg_proc":               builtinFill("pg_proc"),
		"pg_operator":           builtinFill("pg_operator"),
		"pg_cast":               builtinFill("pg_cast"),
		"pg_range":              builtinFill("pg_range"),
		"pg_am":                 builtinFill("pg_am"),
		"pg_opclass":            builtinFill("pg_opclass"),
		"pg_opfamily":           builtinFill("pg_opfamily"),
		"pg_collation":          builtinFill("pg_collation"),
		"pg_language":           builtinFill("pg_language"),
		"pg_conversion":         builtinFill("pg_conversion"),
		"pg_aggregate":          builtinFill("pg_aggregate"),
		"pg_index":              indexFill,
		"pg_constraint":         constraintFill,
		"pg_indexes":            indexesFill,
		"pg_depend":             dependFill,
		"pg_rewrite":            rewriteFill,
		"pg_description":        descriptionFill,
		"pg_attrdef":            attrdefFill,
		"pg_database":           databaseFill,
		"pg_roles":              rolesFill,
		"pg_auth_members":       authMembersFill,
		"pg_default_acl":        defaultACLFill, // access_column.go
		"pg_user":               userFill,
		"pg_authid":             authidFill, // access_authid.go
		"pg_shadow":             shadowFill,
		"pg_tablespace":         tablespaceFill,
		"pg_settings":           settingsFill,
		"pg_stat_activity":      statActivityFill,
		"pg_stat_all_tables":    statTablesFill(false),
		"pg_stat_user_tables":   statTablesFill(true),
		"pg_stat_all_indexes":   statIndexesFill(false),
		"pg_stat_user_indexes":  statIndexesFill(true),
		"pg_statio_all_tables":  statioTablesFill(false),
		"pg_statio_user_tables": statioTablesFill(true),
		"pg_stat_database":      statDatabaseFill,
		"pg_tables":             tablesFill,
		"pg_views":              viewsFill,

		"pg_stat_progress_procedure": procedureProgressFill,  // icegate_shapes.go
		"pg_stat_progress_copy":      copyProgressFill,       // icegate_shapes.go (the fill; its shape is PostgreSQL's)
		"pg_prepared_statements":     preparedStatementsFill, // pg_prepared.go
		"pg_sequence":                sequenceFill,           // pg_sequence.go
		"pg_sequences":               sequencesFill,
	}
}

const (
	tBool       = pgtypes.Bool
	tInt2       = pgtypes.Int2
	tInt4       = pgtypes.Int4
	tInt8       = pgtypes.Int8
	tFloat4     = pgtypes.Float4
	tFloat8     = pgtypes.Float8
	tText       = pgtypes.Text
	tName       = pgtypes.Name
	tChar       = pgtypes.Char
	tOID        = pgtypes.OID
	tXID        = pgtypes.XID
	tRegproc    = pgtypes.Regproc
	tAclArr     = pgtypes.AclitemArray
	tTextArr    = pgtypes.TextArray
	tNodeTree   = pgtypes.PgNodeTree
	tAnyarray   = pgtypes.Anyarray
	tTimestamp  = pgtypes.Timestamptz
	tInt2Vector = pgtypes.Int2Vector
	tOIDVector  = pgtypes.OIDVector
	tInt2Arr    = pgtypes.Int2Array
	tOIDArr     = pgtypes.OIDArray
)

// isOIDFamily reports whether values of type oid are uint32 in rows.
func isOIDFamily(oid uint32) bool { return pgtypes.IsOIDType(oid) }

// Catalog OIDs that rows of other catalogs name (classoid, refclassid).
const (
	pgClassOID      uint32 = 1259
	pgNamespaceOID  uint32 = 2615
	pgConstraintOID uint32 = 2606
	pgAttrdefOID    uint32 = 2604
	pgRewriteOID    uint32 = 2618
)

func namespaceFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, n := range s.Namespaces {
		if s.Access != nil && !n.System && s.Access.Namespace != nil {
			owner, acl := s.Access.Namespace(n.Name)
			var nspacl any
			if acl != nil {
				nspacl = acl
			}
			w.add("oid", n.OID, "nspname", n.Name, "nspowner", owner, "nspacl", nspacl)
			continue
		}
		w.add("oid", n.OID, "nspname", n.Name, "nspowner", namespaceOwner(n), "nspacl", namespaceACL(n, s.User))
	}
	return nil
}

func classFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		indexes := r.AllIndexes()
		classRow(s, w, r, r.OID, r.Name, r.Kind, int16(len(r.Columns)), len(indexes) > 0, 0)
		for _, ix := range indexes {
			// The primary-key index that stands for the identifier
			// fields, and the indexes CREATE INDEX kept.
			classRow(s, w, r, IndexOID(r, ix), ix.Name, 'i', int16(len(ix.Columns)), false, IndexAM(ix))
		}
	}
	return nil
}

// indexAM is an index's access method (kind 'i').
func classRow(s *Snapshot, w *rowWriter, r *Relation, oid uint32, name string, kind byte, natts int16, hasIndex bool, indexAM uint32) {
	pages, tuples := int32(0), float32(-1)
	if kind == 'r' && r.Rows >= 0 {
		tuples = float32(r.Rows)
		if r.Bytes > 0 {
			pages = int32((r.Bytes + 8191) / 8192)
		}
	}
	am, fileNode, replident := uint32(0), uint32(0), "n"
	switch kind {
	case 'r':
		am, fileNode, replident = 2, oid, "d" // heap
	case 'i':
		am, fileNode = indexAM, oid
	}
	owner, acl := BootstrapSuperuserOID, any(nil)
	if kind != 'i' {
		owner, acl = relationOwnerACL(s, r) // access.go
	}
	w.add("oid", oid, "relname", name, "relnamespace", namespaceOID(s, r.Namespace),
		"relowner", owner, "relacl", acl, "relam", am, "relfilenode", fileNode,
		"relpages", pages, "reltuples", tuples, "relhasindex", hasIndex, "relpersistence", "p",
		"relkind", string(kind), "relnatts", natts, "relhasrules", kind == 'v',
		"relispopulated", true, "relreplident", replident)
}

// namespaceOID is the OID of the schema called name, 0 when unknown.
func namespaceOID(s *Snapshot, name string) uint32 {
	if ns := s.Namespace(name); ns != nil {
		return ns.OID
	}
	return 0
}

// PrimaryKeyName is the name of the primary key that stands for a table's
// identifier fields: PostgreSQL's default, <table>_pkey.
func PrimaryKeyName(r *Relation) string { return r.Name + "_pkey" }

// PrimaryKeyIndexOID is the OID of that primary key's index.
func PrimaryKeyIndexOID(r *Relation) uint32 { return ObjectOID(KindIndex, r.Namespace, r.Name) }

// PrimaryKeyConstraintOID is the OID of that primary key's constraint.
func PrimaryKeyConstraintOID(r *Relation) uint32 {
	return ObjectOID(KindConstraint, r.Namespace, r.Name)
}

func attributeFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		for i, a := range r.Columns {
			attributeRow(w, r.OID, a, int16(i+1))
			if acl := columnACL(s, r, a.Name); acl != nil { // access_column.go
				w.set("attacl", acl)
			}
		}
		for _, ix := range r.AllIndexes() {
			for i, attnum := range ix.Columns {
				if int(attnum) < 1 || int(attnum) > len(r.Columns) {
					return fmt.Errorf("%s.%s: column %d of index %s out of range", r.Namespace, r.Name, attnum, ix.Name)
				}
				a := r.Columns[attnum-1]
				a.Default, a.NotNull = "", false // index columns carry neither
				attributeRow(w, IndexOID(r, ix), a, int16(i+1))
			}
		}
	}
	return nil
}

func attributeRow(w *rowWriter, rel uint32, a Attribute, num int16) {
	size := pgtypes.TypeSize(a.Type)
	byVal, align, storage := size > 0 && size <= 8, alignOf(size), "p"
	if size < 0 {
		storage = "x"
	}
	ndims := int32(0)
	collation := uint32(0)
	if t := TypeByOID(a.Type); t != nil {
		size, byVal, align, storage, collation = t.Len, t.ByVal, string(t.Align), string(t.Storage), t.Collation
		if t.Category == 'A' && t.Len == -1 {
			ndims = max(1, a.NDims)
		}
	}
	w.add("attrelid", rel, "attname", a.Name, "atttypid", a.Type, "attstattarget", int32(-1),
		"attlen", size, "attnum", num, "attndims", ndims, "attcacheoff", int32(-1),
		"atttypmod", a.Typmod, "attbyval", byVal, "attalign", align, "attstorage", storage,
		"attnotnull", a.NotNull, "atthasdef", a.Default != "", "attislocal", true, "attidentity", identityChar(a),
		"attcollation", collation)
}

func alignOf(size int16) string {
	switch size {
	case 1:
		return "c"
	case 2:
		return "s"
	case 8:
		return "d"
	}
	return "i"
}

// identityChar is pg_attribute.attidentity ("" for other columns).
func identityChar(a Attribute) string {
	if a.Identity == 0 {
		return ""
	}
	return string(a.Identity)
}
