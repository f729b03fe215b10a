package translate

import (
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/seqexec"
	"github.com/icegate/icegate/translate/sequence"
	"github.com/icegate/icegate/translate/sysfunc"
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
	if sequence.Is(t) {
		r.Kind = 'S'
		r.Columns = syscat.SequenceColumns()
		r.PrimaryKey, r.PartitionKey = nil, ""
		r.Rows, r.Bytes, r.Files = 1, 8192, 0
		if o, st, err := sequence.Read(t); err == nil {
			q := &syscat.Sequence{Type: seqTypeOID(o.Type), Start: o.Start, Increment: o.Increment,
				Min: o.Min, Max: o.Max, Cache: o.Cache, Cycle: o.Cycle}
			if st.Called {
				v := st.Last
				q.LastValue = &v
			}
			q.OwnerTable = o.OwnerTable
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
			r.Columns[i].Sequence = id.Sequence
			continue
		}
		if text := m.Properties[bind.DefaultKey(f.ID)]; text != "" {
			r.Columns[i].Default = upperSQLValueFunctions(typedLiteral(text, r.Columns[i]))
			r.Columns[i].Sequence, _ = seqexec.DefaultSequence(m.Properties, f.ID)
		}
	}
}

// unqualifyVisibleSequences shows the sequence of a nextval default
// unqualified when the search path finds it, as PostgreSQL's regclass
// output does (the properties keep it qualified).
func unqualifyVisibleSequences(snap *syscat.Snapshot) {
	for _, r := range snap.Relations {
		if r.System || r.Kind != 'r' {
			continue
		}
		for i := range r.Columns {
			linkOwner(snap, r, i)
			rest, ok := strings.CutPrefix(r.Columns[i].Default, "nextval('")
			if !ok {
				continue
			}
			name, tail, ok := strings.Cut(rest, "'::regclass)")
			if !ok {
				continue
			}
			parts, err := sysfunc.ParseIdent(strings.ReplaceAll(name, "''", "'"), false)
			if err != nil || len(parts) != 2 {
				continue
			}
			if seq := snap.Relation(parts[0], parts[1]); seq != nil && snap.Visible(seq) {
				r.Columns[i].Default = "nextval('" + strings.ReplaceAll(syscat.QuoteIdent(parts[1]), "'", "''") + "'::regclass)" + tail
			}
		}
	}
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

// linkOwner records column i of r as the owner of its sequence (psql's
// "Owned by", pg_depend) when the sequence says r owns it.
func linkOwner(snap *syscat.Snapshot, r *syscat.Relation, i int) {
	a := r.Columns[i]
	if a.Sequence == "" {
		return
	}
	parts, err := sysfunc.ParseIdent(a.Sequence, false)
	if err != nil || len(parts) == 0 {
		return
	}
	ns := r.Namespace
	if len(parts) == 2 {
		ns = parts[0]
	}
	seq := snap.Relation(ns, parts[len(parts)-1])
	if seq == nil || seq.Sequence == nil || ns != r.Namespace || seq.Sequence.OwnerTable != r.Name {
		return
	}
	seq.Sequence.OwnerOID, seq.Sequence.OwnerAttnum, seq.Sequence.Identity = r.OID, int16(i+1), a.Identity != 0
}

// sqlValueFunctions are the functions SQL writes without parentheses,
// which pg_get_expr prints in capitals (CURRENT_TIMESTAMP, CURRENT_TIMESTAMP(3)).
var sqlValueFunctions = map[string]bool{
	"current_date": true, "current_time": true, "current_timestamp": true, "localtime": true, "localtimestamp": true,
	"current_role": true, "current_user": true, "session_user": true, "user": true, "current_catalog": true, "current_schema": true,
}

// upperSQLValueFunctions writes the SQL value functions of a default
// expression's text in capitals, as pg_get_expr shows them; the rest of the
// text, quoted strings and identifiers included, stays as it is.
func upperSQLValueFunctions(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(text) {
				if text[j] == c {
					if j+1 < len(text) && text[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(text))
			b.WriteString(text[i:j])
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(text) && (text[j] == '_' || text[j] == '$' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			word := text[i:j]
			// A value function is not called with parentheses, except the
			// time ones with a precision: current_timestamp(3).
			call := j < len(text) && text[j] == '('
			lower := strings.ToLower(word)
			if sqlValueFunctions[lower] && (!call || strings.Contains(lower, "time")) {
				word = strings.ToUpper(word)
			}
			b.WriteString(word)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// typedLiteral shows a default kept as an expression that is one string
// literal (an array column's '{}') with the column's type, as PostgreSQL
// keeps the literal coerced to it: '{}'::text[].
func typedLiteral(text string, a syscat.Attribute) string {
	if len(text) < 2 || text[0] != '\'' || text[len(text)-1] != '\'' || strings.Contains(strings.ReplaceAll(text[1:len(text)-1], "''", ""), "'") {
		return text
	}
	return text + "::" + plan.Type{OID: a.Type, Typmod: -1}.String()
}
