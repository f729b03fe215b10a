package syscat

import "strings"

// Index is an index of a table as the system catalog lists it: the
// primary key that stands for the table's identifier fields, or an index
// CREATE INDEX kept (Relation.Indexes). Neither is used to read the table
// nor, for a unique one, enforced.
type Index struct {
	Name string
	// Columns are the attnums (1-based) of its key columns, in order.
	Columns []int16
	Unique  bool
	Primary bool
	// Method is the access method written in CREATE INDEX (btree when
	// none was).
	Method string
	// Desc and NullsFirst give each key column's ordering (nil: ASC NULLS
	// LAST for all).
	Desc, NullsFirst []bool
}

// AllIndexes lists r's indexes: its primary key first, then the kept ones.
func (r *Relation) AllIndexes() []Index {
	var out []Index
	if len(r.PrimaryKey) > 0 {
		out = append(out, Index{Name: PrimaryKeyName(r), Columns: r.PrimaryKey, Unique: true, Primary: true, Method: "btree"})
	}
	return append(out, r.Indexes...)
}

// IndexOID is the OID of index ix of r.
func IndexOID(r *Relation, ix Index) uint32 {
	if ix.Primary {
		return PrimaryKeyIndexOID(r)
	}
	return ObjectOID(KindIndex, r.Namespace, r.Name, ix.Name)
}

// IndexByOID finds the index with OID oid and its table; nil when none.
func (s *Snapshot) IndexByOID(oid uint32) (*Relation, *Index) {
	for _, r := range s.Relations {
		for _, ix := range r.AllIndexes() {
			if IndexOID(r, ix) == oid {
				return r, &ix
			}
		}
	}
	return nil, nil
}

// IndexByName finds the index called name in schema ns and its table; nil
// when none.
func (s *Snapshot) IndexByName(ns, name string) (*Relation, *Index) {
	for _, r := range s.Relations {
		if r.Namespace != ns {
			continue
		}
		for _, ix := range r.AllIndexes() {
			if ix.Name == name {
				return r, &ix
			}
		}
	}
	return nil, nil
}

// indexAMs are the OIDs of the index access methods (pg_am).
var indexAMs = map[string]uint32{"btree": 403, "hash": 405, "gist": 783, "gin": 2742, "spgist": 4000, "brin": 3580}

// IndexAM is the pg_am OID of an index's access method.
func IndexAM(ix Index) uint32 {
	if am, ok := indexAMs[ix.Method]; ok {
		return am
	}
	return 403
}

// IndexDefOf is pg_get_indexdef of index ix of r, with the table's name
// as tableName gives it: CREATE [UNIQUE] INDEX name ON ns.t USING btree (a, b DESC).
func IndexDefOf(r *Relation, ix Index, tableName string) string {
	def := "CREATE INDEX "
	if ix.Unique {
		def = "CREATE UNIQUE INDEX "
	}
	method := ix.Method
	if method == "" {
		method = "btree"
	}
	return def + QuoteIdent(ix.Name) + " ON " + tableName + " USING " + method + " (" + IndexColumns(r, ix) + ")"
}

// IndexColumns are the key columns of index ix as pg_get_indexdef writes
// them: a, b DESC, c NULLS FIRST.
func IndexColumns(r *Relation, ix Index) string {
	names := make([]string, 0, len(ix.Columns))
	for i, attnum := range ix.Columns {
		if int(attnum) < 1 || int(attnum) > len(r.Columns) {
			continue
		}
		col := QuoteIdent(r.Columns[attnum-1].Name)
		desc := i < len(ix.Desc) && ix.Desc[i]
		nullsFirst := i < len(ix.NullsFirst) && ix.NullsFirst[i]
		switch {
		case desc && !nullsFirst:
			col += " DESC NULLS LAST"
		case desc:
			col += " DESC"
		case nullsFirst:
			col += " NULLS FIRST"
		}
		names = append(names, col)
	}
	return strings.Join(names, ", ")
}

// indexOptions is pg_index.indoption of ix: bit 0 DESC, bit 1 NULLS FIRST.
func indexOptions(ix Index) []int16 {
	out := make([]int16, len(ix.Columns))
	for i := range out {
		if i < len(ix.Desc) && ix.Desc[i] {
			out[i] |= 1
		}
		if i < len(ix.NullsFirst) && ix.NullsFirst[i] {
			out[i] |= 2
		}
	}
	return out
}
