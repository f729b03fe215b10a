package engine

import (
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// JoinKeys carries the key values of a hash join's build side to the scan
// that feeds the join's probe side: a runtime filter. Lowering creates one
// when a probe key is a table column read unchanged by a scan below the
// join, through operators that keep a row only if it may still join (an
// inner or semi join keeps no probe row whose key the build side lacks).
// The join reads its build side before it opens the probe side, so by the
// time the scan opens, the join has published the keys (or published
// none: too many, a spilled build, keys that are not integers). The scan
// then skips the files, row groups and pages whose bounds hold none of the
// keys, and the rows whose key is not among them.
type JoinKeys struct {
	// FieldID is the probe scan's field that holds the key.
	FieldID int
	// Rows: the scan also drops the rows whose key is not in the set
	// (else it only skips files, row groups and pages).
	Rows bool

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

// MaxJoinKeys is the most distinct keys a KeySet holds: beyond it the
// build side passes most probe rows anyway and the test would cost more
// than it saves.
const MaxJoinKeys = 1 << 20

// bitsetSpan is the widest key range a KeySet keeps as one bit per value
// (8 MiB of bits).
const bitsetSpan = 1 << 26

// smallKeySet is the most keys a KeySet lists for pruning by equality.
const smallKeySet = 256

// KeySet is a set of 64-bit integer keys: a bit per value of its range
// when the range is narrow, else the sorted distinct keys. It is
// read-only once made, so scans' workers use it concurrently.
type KeySet struct {
	Min, Max int64
	bits     []uint64 // bit k-Min; nil when sorted is used
	sorted   []int64  // distinct keys, ascending
	n        int      // distinct keys
}

// NewKeySet makes the set of vals (reordered in place); nil when vals is
// empty or holds more than MaxJoinKeys distinct values.
func NewKeySet(vals []int64) *KeySet {
	if len(vals) == 0 {
		return nil
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	s := &KeySet{Min: lo, Max: hi}
	if span := uint64(hi) - uint64(lo); span < bitsetSpan {
		s.bits = make([]uint64, span/64+1)
		for _, v := range vals {
			k := uint64(v) - uint64(lo)
			if s.bits[k/64]&(1<<(k%64)) == 0 {
				s.bits[k/64] |= 1 << (k % 64)
				s.n++
			}
		}
		if s.n > MaxJoinKeys {
			return nil
		}
		if s.n <= smallKeySet {
			s.sorted = s.listBits()
		}
		return s
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	if len(vals) > MaxJoinKeys {
		return nil
	}
	s.sorted, s.n = slices.Clip(vals), len(vals)
	return s
}

func (s *KeySet) listBits() []int64 {
	out := make([]int64, 0, s.n)
	for w, word := range s.bits {
		for word != 0 {
			b := 0
			for word&(1<<b) == 0 {
				b++
			}
			out = append(out, s.Min+int64(w*64+b))
			word &^= 1 << b
		}
	}
	return out
}

// Len is the number of distinct keys.
func (s *KeySet) Len() int { return s.n }

// Small returns the keys, ascending, when there are few enough to prune
// pages and bloom filters by equality; nil otherwise.
func (s *KeySet) Small() []int64 {
	if s.n > smallKeySet {
		return nil
	}
	return s.sorted
}

// Contains reports whether v is in the set.
func (s *KeySet) Contains(v int64) bool {
	if v < s.Min || v > s.Max {
		return false
	}
	if s.bits != nil {
		k := uint64(v) - uint64(s.Min)
		return s.bits[k/64]&(1<<(k%64)) != 0
	}
	_, found := slices.BinarySearch(s.sorted, v)
	return found
}

// DropMissing sets drop[i] for every row of a whose value is NULL or not in
// the set, and returns how many it newly set. It reports false when a is
// not an integer or date array (then nothing is set).
func (s *KeySet) DropMissing(a arrow.Array, drop []bool) (int, bool) {
	switch a := a.(type) {
	case *array.Int64:
		return dropMissing(s, a, a.Int64Values(), drop), true
	case *array.Int32:
		return dropMissing(s, a, a.Int32Values(), drop), true
	case *array.Date32:
		return dropMissing(s, a, a.Date32Values(), drop), true
	case *array.Int16:
		return dropMissing(s, a, a.Int16Values(), drop), true
	}
	return 0, false
}

func dropMissing[T ~int16 | ~int32 | ~int64](s *KeySet, a arrow.Array, vals []T, drop []bool) int {
	n := 0
	nulls := a.NullN() > 0
	drop = drop[:len(vals)]
	lo, hi := s.Min, s.Max
	for i, x := range vals {
		if drop[i] {
			continue
		}
		v := int64(x)
		keep := v >= lo && v <= hi && (!nulls || a.IsValid(i))
		if keep {
			if s.bits != nil {
				k := uint64(v) - uint64(lo)
				keep = s.bits[k/64]&(1<<(k%64)) != 0
			} else {
				_, keep = slices.BinarySearch(s.sorted, v)
			}
		}
		if !keep {
			drop[i] = true
			n++
		}
	}
	return n
}
