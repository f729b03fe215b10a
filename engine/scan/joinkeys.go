package scan

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sync/atomic"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// keyFilter is a published runtime filter (engine.JoinKeys) the scan
// applies to its rows: a row whose key is NULL or not in set cannot join
// and is dropped before it leaves the scan.
type keyFilter struct {
	field int
	set   *engine.KeySet
	// seen and dropped count the rows tested (those no delete or other
	// filter dropped first) and those it dropped; off turns the test off once
	// it shows it drops too few rows to pay for itself (the join tests
	// them anyway).
	seen, dropped atomic.Int64
	off           atomic.Bool
}

// keyFilterTrial is how many rows a key filter tests before it judges
// whether it pays: it keeps testing only while it drops at least half of
// them (else copying the rows it keeps costs about what it saves).
const keyFilterTrial = 1 << 16

// withJoinKeys returns spec with the runtime filters published so far
// turned into pruning predicates (the key set's bounds, and its keys when
// few) and the tasks whose files those rule out removed, and the filters
// the rows are tested against.
func withJoinKeys(spec engine.ScanSpec) (engine.ScanSpec, []*keyFilter) {
	if len(spec.JoinKeys) == 0 || spec.Schema == nil {
		return spec, nil
	}
	var preds []catalog.Predicate
	var filters []*keyFilter
	for _, jk := range spec.JoinKeys {
		set := jk.Set()
		if set == nil {
			continue
		}
		f := topField(spec, jk.FieldID)
		if f == nil {
			continue
		}
		t, ok := f.Type.(*catalog.PrimitiveType)
		if !ok {
			continue
		}
		conv := keyLiteral(t)
		if conv == nil {
			continue
		}
		lo, okLo := conv(set.Min)
		hi, okHi := conv(set.Max)
		if okLo && okHi {
			preds = append(preds,
				catalog.Predicate{FieldID: jk.FieldID, Op: catalog.OpGtEq, Values: []any{lo}},
				catalog.Predicate{FieldID: jk.FieldID, Op: catalog.OpLtEq, Values: []any{hi}})
		}
		if small := set.Small(); small != nil {
			vals := make([]any, 0, len(small))
			for _, k := range small {
				if v, ok := conv(k); ok {
					vals = append(vals, v)
				}
			}
			if len(vals) == len(small) {
				preds = append(preds, catalog.Predicate{FieldID: jk.FieldID, Op: catalog.OpIn, Values: vals})
			}
		}
		if jk.Rows {
			filters = append(filters, &keyFilter{field: jk.FieldID, set: set})
		}
	}
	if len(preds) > 0 {
		spec.Filters = append(append([]catalog.Predicate(nil), spec.Filters...), preds...)
		spec.Tasks = catalog.FilterTasks(spec.Table, spec.Tasks, preds)
	}
	return spec, filters
}

// keyLiteral returns the conversion of a key to the Go form predicates
// of Iceberg type t take, nil when keys of t are not integers.
func keyLiteral(t *catalog.PrimitiveType) func(int64) (any, bool) {
	switch t.ID {
	case catalog.TInt, catalog.TDate:
		return func(k int64) (any, bool) { return int32(k), int64(int32(k)) == k }
	case catalog.TLong:
		return func(k int64) (any, bool) { return k, true }
	}
	return nil
}

// dropMissingKeys marks in del the rows of cols (read fields, index maps
// field ids to them) that a key filter rules out, and returns how many it
// newly marked.
func dropMissingKeys(filters []*keyFilter, cols []arrow.Array, index map[int]int, del []bool) int {
	n := 0
	for _, kf := range filters {
		if kf.off.Load() {
			continue
		}
		i, ok := index[kf.field]
		if !ok {
			continue
		}
		tested := 0
		for _, d := range del {
			if !d {
				tested++
			}
		}
		m, ok := kf.set.DropMissing(cols[i], del)
		if !ok {
			kf.off.Store(true)
			continue
		}
		n += m
		seen := kf.seen.Add(int64(tested))
		dropped := kf.dropped.Add(int64(m))
		if seen >= keyFilterTrial && dropped < seen/2 {
			kf.off.Store(true)
		}
	}
	return n
}
