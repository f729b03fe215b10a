package syscat

import (
	"context"
	"strings"
)

// A table's Iceberg identifier fields are served as its primary key: a
// unique btree index (pg_index, pg_class relkind 'i') and a primary-key
// constraint (pg_constraint) over those columns, named <table>_pkey. The
// indexes CREATE INDEX kept are listed beside it (indexes.go).

func indexFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		for _, ix := range r.AllIndexes() {
			n := int16(len(ix.Columns))
			collations := make([]uint32, n)
			classes := make([]uint32, n)
			for i, attnum := range ix.Columns {
				typ := keyType(r, attnum)
				if t := TypeByOID(typ); t != nil {
					collations[i] = t.Collation
				}
				if IndexAM(ix) == 403 {
					classes[i] = btreeOpclass(typ)
				}
			}
			w.add("indexrelid", IndexOID(r, ix), "indrelid", r.OID, "indnatts", n, "indnkeyatts", n,
				"indisunique", ix.Unique, "indisprimary", ix.Primary, "indimmediate", true, "indisvalid", true,
				"indisready", true, "indislive", true, "indkey", append([]int16(nil), ix.Columns...),
				"indcollation", collations, "indclass", classes, "indoption", indexOptions(ix))
		}
	}
	return nil
}

func constraintFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		if len(r.PrimaryKey) == 0 {
			continue
		}
		w.add("oid", PrimaryKeyConstraintOID(r), "conname", PrimaryKeyName(r),
			"connamespace", namespaceOID(s, r.Namespace), "contype", "p", "convalidated", true,
			"conrelid", r.OID, "conindid", PrimaryKeyIndexOID(r),
			"confupdtype", " ", "confdeltype", " ", "confmatchtype", " ",
			"conislocal", true, "connoinherit", true, "conkey", append([]int16(nil), r.PrimaryKey...))
	}
	return nil
}

func indexesFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		for _, ix := range r.AllIndexes() {
			w.add("schemaname", r.Namespace, "tablename", r.Name, "indexname", ix.Name,
				"indexdef", IndexDefOf(r, ix, QuoteIdent(r.Namespace)+"."+QuoteIdent(r.Name)))
		}
	}
	return nil
}

// dependFill lists what PostgreSQL records for a primary key: the index
// depends internally on its constraint, the constraint automatically on
// each of its table's columns.
func dependFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		sequenceDepends(r, w) // pg_sequence.go
		if r.Kind == 'v' && !r.System {
			// As PostgreSQL records a view: its _RETURN rule is part of
			// it, and depends on each relation the query reads (pg_dump
			// orders a dump by these).
			rule := RuleOID(r)
			w.add("classid", pgRewriteOID, "objid", rule, "objsubid", int32(0),
				"refclassid", pgClassOID, "refobjid", r.OID, "refobjsubid", int32(0), "deptype", "i")
			for _, oid := range viewReads(s, r) {
				w.add("classid", pgRewriteOID, "objid", rule, "objsubid", int32(0),
					"refclassid", pgClassOID, "refobjid", oid, "refobjsubid", int32(0), "deptype", "n")
			}
		}
		for _, ix := range r.Indexes {
			// A kept index depends automatically on each of its columns.
			for _, attnum := range ix.Columns {
				w.add("classid", pgClassOID, "objid", IndexOID(r, ix), "objsubid", int32(0),
					"refclassid", pgClassOID, "refobjid", r.OID, "refobjsubid", int32(attnum), "deptype", "a")
			}
		}
		if len(r.PrimaryKey) == 0 {
			continue
		}
		w.add("classid", pgClassOID, "objid", PrimaryKeyIndexOID(r), "objsubid", int32(0),
			"refclassid", pgConstraintOID, "refobjid", PrimaryKeyConstraintOID(r), "refobjsubid", int32(0), "deptype", "i")
		for _, attnum := range r.PrimaryKey {
			w.add("classid", pgConstraintOID, "objid", PrimaryKeyConstraintOID(r), "objsubid", int32(0),
				"refclassid", pgClassOID, "refobjid", r.OID, "refobjsubid", int32(attnum), "deptype", "a")
		}
	}
	return nil
}

// ConstraintDef is pg_get_constraintdef of a table's primary key:
// PRIMARY KEY (id).
func ConstraintDef(r *Relation) string { return "PRIMARY KEY (" + keyColumns(r) + ")" }

func keyColumns(r *Relation) string {
	names := make([]string, 0, len(r.PrimaryKey))
	for _, attnum := range r.PrimaryKey {
		if int(attnum) >= 1 && int(attnum) <= len(r.Columns) {
			names = append(names, QuoteIdent(r.Columns[attnum-1].Name))
		}
	}
	return strings.Join(names, ", ")
}

func keyType(r *Relation, attnum int16) uint32 {
	if int(attnum) >= 1 && int(attnum) <= len(r.Columns) {
		return r.Columns[attnum-1].Type
	}
	return 0
}

// btreeOpclasses maps a type OID to its default btree operator class.
var btreeOpclasses = indexOpclasses()

func indexOpclasses() map[uint32]uint32 {
	c := builtinColumns("pg_opclass")
	m := map[uint32]uint32{}
	for _, r := range builtinRows["pg_opclass"] {
		if c.oid(r, "opcmethod") == 403 && c.bool(r, "opcdefault") {
			m[c.oid(r, "opcintype")] = c.oid(r, "oid")
		}
	}
	return m
}

// btreeOpclass is the default btree operator class a key column of type
// typ is indexed with: the type's own, else its category's (text_ops for
// varchar and bpchar... array_ops for arrays), 0 when none.
func btreeOpclass(typ uint32) uint32 {
	if oc, ok := btreeOpclasses[typ]; ok {
		return oc
	}
	if t := TypeByOID(typ); t != nil {
		switch t.Category {
		case 'S':
			return btreeOpclasses[25] // text
		case 'A':
			return btreeOpclasses[2277] // anyarray
		}
	}
	return 0
}

// RuleOID is the OID of a view's _RETURN rule in pg_rewrite.
func RuleOID(r *Relation) uint32 { return ObjectOID(KindRule, r.Namespace, r.Name) }

// viewReads are the OIDs of the relations view r reads that the snapshot
// has, each once, the view itself left out.
func viewReads(s *Snapshot, r *Relation) []uint32 {
	var out []uint32
	seen := map[uint32]bool{r.OID: true}
	for _, name := range r.Reads {
		if d := s.Relation(name[0], name[1]); d != nil && !seen[d.OID] {
			seen[d.OID] = true
			out = append(out, d.OID)
		}
	}
	return out
}

// rewriteFill lists the _RETURN rule of every user view, as PostgreSQL
// has one per view. The rule's query trees are not kept (empty).
func rewriteFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		if r.Kind == 'v' && !r.System {
			w.add("oid", RuleOID(r), "rulename", "_RETURN", "ev_class", r.OID, "ev_type", "1",
				"ev_enabled", "O", "is_instead", true, "ev_qual", "<>", "ev_action", "")
		}
	}
	return nil
}
