package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
)

// publishKeys hands the build side's key values to the runtime filters of
// the probe side's scans (JoinSpec.KeyFilters). A build side that spilled,
// or whose key is not an integer or a date, publishes none, and neither
// does a join type that keeps probe rows without a match.
func (o *joinOp) publishKeys() {
	fs := o.spec.KeyFilters
	if len(fs) == 0 {
		return
	}
	usable := o.grace == nil && !o.spec.BuildLeft
	switch o.spec.Type {
	case JoinInner, JoinRight, JoinSemi:
	default:
		usable = false
	}
	for _, f := range fs {
		var set *engine.KeySet
		if usable && f.Key < len(o.build.keys) {
			set = engine.NewKeySet(keyValues(o.build.keys[f.Key]))
		}
		f.Keys.Publish(set)
	}
}

// keyValues returns the non-NULL values of an integer or date key array
// as int64s, nil for other types.
func keyValues(a arrow.Array) []int64 {
	switch a := a.(type) {
	case *array.Int64:
		return appendValid(nil, a, a.Int64Values())
	case *array.Int32:
		return appendValid(nil, a, a.Int32Values())
	case *array.Date32:
		return appendValid(nil, a, a.Date32Values())
	case *array.Int16:
		return appendValid(nil, a, a.Int16Values())
	}
	return nil
}

func appendValid[T ~int16 | ~int32 | ~int64](dst []int64, a arrow.Array, vals []T) []int64 {
	dst = make([]int64, 0, len(vals)-a.NullN())
	for i, v := range vals {
		if a.IsValid(i) {
			dst = append(dst, int64(v))
		}
	}
	return dst
}
