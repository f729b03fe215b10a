package scan

import (
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// withJoinKeys returns spec with the runtime filters published so far
// turned into pruning predicates (the key set's bounds, and its keys when
// few) and the tasks whose files those rule out removed.
func withJoinKeys(spec engine.ScanSpec) engine.ScanSpec {
	if len(spec.JoinKeys) == 0 || spec.Schema == nil {
		return spec
	}
	var preds []catalog.Predicate
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
	}
	if len(preds) > 0 {
		spec.Filters = append(append([]catalog.Predicate(nil), spec.Filters...), preds...)
		spec.Tasks = catalog.FilterTasks(spec.Table, spec.Tasks, preds)
	}
	return spec
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
