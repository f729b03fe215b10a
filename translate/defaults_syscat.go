package translate

import (
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
)

// sysDefaults completes the system catalog's view of table t: a sequence
// is relkind 'S' with PostgreSQL's sequence columns and its pg_sequence
// row; other tables get the defaults and identity columns kept in their
// properties (bind/defaults.go).
func sysDefaults(r *syscat.Relation, t *catalog.Table) {
	m := t.Metadata
	if m == nil {
		return
	}
	if isSequence(t) {
		r.Kind = 'S'
		r.Columns = syscat.SequenceColumns()
		r.PrimaryKey, r.PartitionKey = nil, ""
		r.Rows, r.Bytes, r.Files = 1, 8192, 0
		if o, st, err := readSequence(t); err == nil {
			q := &syscat.Sequence{Type: seqTypeOID(o.Type), Start: o.Start, Increment: o.Increment,
				Min: o.Min, Max: o.Max, Cache: o.Cache, Cycle: o.Cycle}
			if st.Called {
				v := st.Last
				q.LastValue = &v
			}
			r.Sequence = q
		}
		return
	}
	schema := m.CurrentSchema()
	if schema == nil {
		return
	}
	for i, f := range schema.Fields {
		if i >= len(r.Columns) {
			break
		}
		if id, ok := bind.IdentityOf(m.Properties, f.ID); ok {
			r.Columns[i].Identity = 'd'
			if id.Always {
				r.Columns[i].Identity = 'a'
			}
			r.Columns[i].Default = ""
			continue
		}
		if text := m.Properties[bind.DefaultKey(f.ID)]; text != "" {
			r.Columns[i].Default = displayDefault(text, t.Ident.Namespace)
		}
	}
}

// displayDefault is a default as pg_get_expr shows it: a sequence of the
// table's own schema unqualified, as PostgreSQL prints one its search path
// finds.
func displayDefault(text string, ns []string) string {
	prefix := "nextval('" + strings.ReplaceAll(syscat.QuoteIdent(strings.Join(ns, ".")), "'", "''") + "."
	if rest, ok := strings.CutPrefix(text, prefix); ok {
		return "nextval('" + rest
	}
	return text
}

func seqTypeOID(typ string) uint32 {
	switch typ {
	case "smallint":
		return pgtypes.Int2
	case "integer":
		return pgtypes.Int4
	}
	return pgtypes.Int8
}
