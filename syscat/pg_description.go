package syscat

import (
	"context"
	"strconv"
)

// descriptionFill lists the comments: PostgreSQL's for the built-in
// objects, then the schemas' (classoid pg_namespace), the tables' and
// views' (classoid pg_class, objsubid 0) and their columns' (objsubid the
// attnum).
func descriptionFill(ctx context.Context, s *Snapshot, w *rowWriter) error {
	if err := builtinFill("pg_description")(ctx, s, w); err != nil {
		return err
	}
	for _, n := range s.Namespaces {
		if n.Comment != "" {
			w.add("objoid", n.OID, "classoid", pgNamespaceOID, "objsubid", int32(0), "description", n.Comment)
		}
	}
	for _, r := range s.Relations {
		if r.Comment != "" {
			w.add("objoid", r.OID, "classoid", pgClassOID, "objsubid", int32(0), "description", r.Comment)
		}
		for i, a := range r.Columns {
			if a.Comment != "" {
				w.add("objoid", r.OID, "classoid", pgClassOID, "objsubid", int32(i+1), "description", a.Comment)
			}
		}
	}
	return nil
}

// attrdefFill lists the column defaults; adbin holds the default's SQL
// text (pg_get_expr returns it as is).
func attrdefFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		for i, a := range r.Columns {
			if a.Default != "" {
				w.add("oid", AttrDefOID(r, int16(i+1)), "adrelid", r.OID, "adnum", int16(i+1), "adbin", a.Default)
			}
		}
	}
	return nil
}

// AttrDefOID is the OID of the pg_attrdef row of column attnum of r.
func AttrDefOID(r *Relation, attnum int16) uint32 {
	return ObjectOID(KindDefault, r.Namespace, r.Name, strconv.Itoa(int(attnum)))
}

type descKey struct {
	class, obj uint32
	sub        int32
}

// builtinDescriptions indexes PostgreSQL's comments on the built-in objects.
var builtinDescriptions = func() map[descKey]string {
	c := builtinColumns("pg_description")
	m := make(map[descKey]string, len(builtinRows["pg_description"]))
	for _, r := range builtinRows["pg_description"] {
		m[descKey{c.oid(r, "classoid"), c.oid(r, "objoid"), c.int32(r, "objsubid")}] = c.str(r, "description")
	}
	return m
}()

// Description returns the comment pg_description holds for an object:
// classOID the catalog it is in (1259 relations, 2615 schemas, 1247 types,
// 1255 functions...), objOID the object, subID the column's attnum (0 for
// the object itself), as obj_description and col_description read it.
func (s *Snapshot) Description(classOID, objOID uint32, subID int32) (string, bool) {
	if d, ok := builtinDescriptions[descKey{classOID, objOID, subID}]; ok {
		return d, true
	}
	switch classOID {
	case pgNamespaceOID:
		if n := s.NamespaceByOID(objOID); n != nil && n.Comment != "" && subID == 0 {
			return n.Comment, true
		}
	case pgClassOID:
		r := s.RelationByOID(objOID)
		if r == nil {
			return "", false
		}
		if subID == 0 && r.Comment != "" {
			return r.Comment, true
		}
		if subID >= 1 && int(subID) <= len(r.Columns) && r.Columns[subID-1].Comment != "" {
			return r.Columns[subID-1].Comment, true
		}
	}
	return "", false
}
