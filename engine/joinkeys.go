package engine

import (
	"slices"
	"sync"
)

// JoinKeys carries the key values of a hash join's build side to the scan
// that feeds the join's probe side: a runtime filter. Lowering creates one
// when a probe key is a table column read unchanged by a scan below the
// join, through operators that keep a row only if it may still join (an
// inner or semi join keeps no probe row whose key the build side lacks).
// The join reads its build side before it opens the probe side, so by the
// time the scan opens, the join has published the keys (or published
// none: a spilled build, keys that are not integers). The scan then skips
// the files, row groups and pages whose bounds hold none of the keys.
type JoinKeys struct {
	// FieldID is the probe scan's field that holds the key.
	FieldID int

	mu  sync.Mutex
	set *KeySet
}

// NewJoinKeys makes the runtime filter of the probe scan's field id.
func NewJoinKeys(fieldID int) *JoinKeys { return &JoinKeys{FieldID: fieldID} }

// Publish hands the build side's keys over; nil says the scan gets none.
// A join opened again (the inner side of a correlated subquery, run per
// outer row) publishes its new build side's keys before it opens the
// probe side again.
func (j *JoinKeys) Publish(s *KeySet) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.set = s
}

// Set returns the published keys, nil when none were (yet).
func (j *JoinKeys) Set() *KeySet {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.set
}

// smallKeySet is the most keys a KeySet lists for pruning by equality, and
// listedKeys the most build values it sorts to find whether they are that
// few.
const (
	smallKeySet = 256
	listedKeys  = 4096
)

// KeySet is what a scan prunes by: the least and greatest of a build
// side's integer keys, and the distinct keys themselves when few.
type KeySet struct {
	Min, Max int64
	small    []int64 // distinct keys, ascending; nil when more than smallKeySet
}

// NewKeySet makes the key set of vals (reordered in place); nil when vals
// is empty.
func NewKeySet(vals []int64) *KeySet {
	if len(vals) == 0 {
		return nil
	}
	s := &KeySet{Min: vals[0], Max: vals[0]}
	for _, v := range vals[1:] {
		s.Min, s.Max = min(s.Min, v), max(s.Max, v)
	}
	if len(vals) <= listedKeys {
		slices.Sort(vals)
		if vals = slices.Compact(vals); len(vals) <= smallKeySet {
			s.small = slices.Clip(vals)
		}
	}
	return s
}

// Small returns the distinct keys, ascending, when there are few enough
// to prune pages and bloom filters by equality; nil otherwise.
func (s *KeySet) Small() []int64 { return s.small }
