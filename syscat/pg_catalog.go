package syscat

import (
	"context"

	"github.com/icegate/icegate/internal/pgtypes"
)

// pgCatalogTables lists the relations of pg_catalog.
func pgCatalogTables() []*Table {
	return []*Table{
		pgNamespace(),
		pgClass(),
		pgAttribute(),
	}
}

// cols builds a column list from name/type pairs.
func cols(pairs ...any) []Column {
	out := make([]Column, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Column{Name: pairs[i].(string), Type: pairs[i+1].(uint32)})
	}
	return out
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
)

func pgNamespace() *Table {
	return &Table{
		Schema: "pg_catalog", Name: "pg_namespace", OID: 2615, Kind: 'r',
		Columns: cols("oid", tOID, "nspname", tName, "nspowner", tOID, "nspacl", tAclArr),
		Rows: func(_ context.Context, s *Snapshot) ([][]any, error) {
			var rows [][]any
			for _, n := range s.Namespaces {
				rows = append(rows, []any{n.OID, n.Name, BootstrapSuperuserOID, nil})
			}
			return rows, nil
		},
	}
}

func pgClass() *Table {
	return &Table{
		Schema: "pg_catalog", Name: "pg_class", OID: 1259, Kind: 'r',
		Columns: cols("oid", tOID, "relname", tName, "relnamespace", tOID, "reltype", tOID,
			"reloftype", tOID, "relowner", tOID, "relam", tOID, "relfilenode", tOID,
			"reltablespace", tOID, "relpages", tInt4, "reltuples", tFloat4, "relallvisible", tInt4,
			"reltoastrelid", tOID, "relhasindex", tBool, "relisshared", tBool, "relpersistence", tChar,
			"relkind", tChar, "relnatts", tInt2, "relchecks", tInt2, "relhasrules", tBool,
			"relhastriggers", tBool, "relhassubclass", tBool, "relrowsecurity", tBool,
			"relforcerowsecurity", tBool, "relispopulated", tBool, "relreplident", tChar,
			"relispartition", tBool, "relrewrite", tOID, "relfrozenxid", tXID, "relminmxid", tXID,
			"relacl", tAclArr, "reloptions", tTextArr, "relpartbound", tNodeTree),
		Rows: func(_ context.Context, s *Snapshot) ([][]any, error) {
			var rows [][]any
			for _, r := range s.Relations {
				rows = append(rows, classRow(s, r, r.OID, r.Name, r.Kind, int16(len(r.Columns)), len(r.PrimaryKey) > 0))
				if len(r.PrimaryKey) > 0 {
					// The primary-key index that stands for the identifier fields.
					rows = append(rows, classRow(s, r, PrimaryKeyIndexOID(r), PrimaryKeyName(r), 'i', int16(len(r.PrimaryKey)), false))
				}
			}
			return rows, nil
		},
	}
}

func classRow(s *Snapshot, r *Relation, oid uint32, name string, kind byte, natts int16, hasIndex bool) []any {
	ns := s.Namespace(r.Namespace)
	var nsOID uint32
	if ns != nil {
		nsOID = ns.OID
	}
	pages, tuples := int32(0), float32(-1)
	if kind == 'r' && r.Rows >= 0 {
		tuples = float32(r.Rows)
		if r.Bytes > 0 {
			pages = int32((r.Bytes + 8191) / 8192)
		}
	}
	am := uint32(0)
	switch kind {
	case 'r':
		am = 2 // heap
	case 'i':
		am = 403 // btree
	}
	return []any{oid, name, nsOID, uint32(0), uint32(0), BootstrapSuperuserOID, am, uint32(0),
		uint32(0), pages, tuples, int32(0),
		uint32(0), hasIndex, false, "p",
		string(kind), natts, int16(0), kind == 'v',
		false, false, false,
		false, true, "d",
		false, uint32(0), uint32(0), uint32(0),
		nil, nil, nil}
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

func pgAttribute() *Table {
	return &Table{
		Schema: "pg_catalog", Name: "pg_attribute", OID: 1249, Kind: 'r',
		Columns: cols("attrelid", tOID, "attname", tName, "atttypid", tOID, "attstattarget", tInt4,
			"attlen", tInt2, "attnum", tInt2, "attndims", tInt4, "attcacheoff", tInt4,
			"atttypmod", tInt4, "attbyval", tBool, "attalign", tChar, "attstorage", tChar,
			"attcompression", tChar, "attnotnull", tBool, "atthasdef", tBool, "atthasmissing", tBool,
			"attidentity", tChar, "attgenerated", tChar, "attisdropped", tBool, "attislocal", tBool,
			"attinhcount", tInt4, "attcollation", tOID, "attacl", tAclArr, "attoptions", tTextArr,
			"attfdwoptions", tTextArr, "attmissingval", tAnyarray),
		Rows: func(_ context.Context, s *Snapshot) ([][]any, error) {
			var rows [][]any
			for _, r := range s.Relations {
				for i, a := range r.Columns {
					rows = append(rows, attributeRow(r.OID, a, int16(i+1)))
				}
				if len(r.PrimaryKey) > 0 {
					for i, attnum := range r.PrimaryKey {
						a := r.Columns[attnum-1]
						a.Default = ""
						rows = append(rows, attributeRow(PrimaryKeyIndexOID(r), a, int16(i+1)))
					}
				}
			}
			return rows, nil
		},
	}
}

func attributeRow(rel uint32, a Attribute, num int16) []any {
	size := pgtypes.TypeSize(a.Type)
	byVal := size > 0 && size <= 8
	ndims := int32(0)
	if pgtypes.ElemOf(a.Type) != 0 && a.Type != pgtypes.Int2Vector && a.Type != pgtypes.OIDVector {
		ndims = 1
	}
	collation := uint32(0)
	switch a.Type {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar:
		collation = 100 // default
	case pgtypes.Name:
		collation = 950 // C
	}
	storage := "p"
	if size < 0 {
		storage = "x"
	}
	return []any{rel, a.Name, a.Type, int32(-1),
		size, num, ndims, int32(-1),
		a.Typmod, byVal, alignOf(size), storage,
		"", a.NotNull, a.Default != "", false,
		"", "", false, true,
		int32(0), collation, nil, nil,
		nil, nil}
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
