package syscat

import (
	"context"

	"github.com/icegate/icegate/internal/pgtypes"
)

// Sequence is what pg_sequence and pg_sequences show of a sequence
// (Relation.Kind 'S').
type Sequence struct {
	Type                              uint32 // int2, int4 or int8
	Start, Increment, Min, Max, Cache int64
	Cycle                             bool
	// LastValue is the last value handed out; nil before the first.
	LastValue *int64
	// OwnerTable names the table of the sequence's namespace whose column
	// owns it ("" for none); OwnerOID and OwnerAttnum, set once the
	// snapshot is indexed, are that relation and column, Identity whether
	// it is an identity column (pg_depend deptype 'i', else 'a').
	OwnerTable  string
	OwnerOID    uint32
	OwnerAttnum int16
	Identity    bool
}

// sequenceDepends adds the pg_depend row of a sequence a column owns.
func sequenceDepends(r *Relation, w *rowWriter) {
	q := r.Sequence
	if r.Kind != 'S' || q == nil || q.OwnerOID == 0 {
		return
	}
	deptype := "a"
	if q.Identity {
		deptype = "i"
	}
	w.add("classid", pgClassOID, "objid", r.OID, "objsubid", int32(0),
		"refclassid", pgClassOID, "refobjid", q.OwnerOID, "refobjsubid", int32(q.OwnerAttnum), "deptype", deptype)
}

// sequenceFill lists pg_sequence: one row per sequence.
func sequenceFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		q := r.Sequence
		if r.Kind != 'S' || q == nil {
			continue
		}
		w.add("seqrelid", r.OID, "seqtypid", q.Type, "seqstart", q.Start, "seqincrement", q.Increment,
			"seqmax", q.Max, "seqmin", q.Min, "seqcache", q.Cache, "seqcycle", q.Cycle)
	}
	return nil
}

// sequencesFill lists the pg_sequences view.
func sequencesFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		q := r.Sequence
		if r.Kind != 'S' || q == nil {
			continue
		}
		var last any
		if q.LastValue != nil {
			last = *q.LastValue
		}
		w.add("schemaname", r.Namespace, "sequencename", r.Name, "sequenceowner", s.User,
			"data_type", q.Type, "start_value", q.Start, "min_value", q.Min, "max_value", q.Max,
			"increment_by", q.Increment, "cycle", q.Cycle, "cache_size", q.Cache, "last_value", last)
	}
	return nil
}

// SequenceColumns are the columns a sequence relation has in PostgreSQL.
func SequenceColumns() []Attribute {
	return []Attribute{
		{Name: "last_value", Type: pgtypes.Int8, Typmod: -1, NotNull: true},
		{Name: "log_cnt", Type: pgtypes.Int8, Typmod: -1, NotNull: true},
		{Name: "is_called", Type: pgtypes.Bool, Typmod: -1, NotNull: true},
	}
}
