package exec

import (
	"bytes"
	"hash/maphash"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// intTable maps a 64-bit key to the first build row holding it. The
// other rows of a key hang off the first one in joinBuild.next. It is
// sized once for the build side, so it never grows, in one of two
// layouts:
//
//   - direct: when the build keys span a range no wider than four times
//     the hash layout's slot count (so it takes no more memory), key k's
//     first row is direct[k-base]: a probe is one load, with no hashing
//     and no key comparison, and probes of nearby keys (a probe side
//     sorted or clustered by key, as fact tables often are by their
//     foreign key) touch nearby memory;
//   - hashed: open addressing with linear probing, at most half full.
//     When the keys span no more bits than the slots take bytes (TPC-H
//     Q10's and Q3's orders of one period, whose keys are sparse over all
//     orders), or few enough bits to stay in the nearer caches (Q17's
//     parts of one brand), a bitmap of the keys present answers most
//     probes of a key that is not, in a smaller and more often cached
//     array than the slots walked to an empty one.
type intTable struct {
	base   uint64
	direct []int32 // row+1 of key base+i; 0 = none. nil in the hashed layout

	shift   uint
	mask    uint64
	slots   []intSlot
	span    uint64   // the keys lie in [base, base+span]
	present []uint64 // bit k-base is set for a key the hashed layout holds; nil: no bitmap
}

// intSlot keeps a key beside its first row, so a probe touches one cache
// line.
type intSlot struct {
	key  uint64
	head int32 // row+1; 0 = empty slot
}

// newIntTable makes a table for rows keys, all within [lo, lo+span] (in
// the wrap-around arithmetic of uint64); empty tells there are none.
func newIntTable(rows int, lo, span uint64, empty bool) *intTable {
	capBits := max(bits.Len(uint(2*rows)), 4)
	n := uint64(1) << capBits
	if !empty && span < 4*n {
		return &intTable{base: lo, direct: make([]int32, span+1)}
	}
	t := &intTable{shift: uint(64 - capBits), mask: n - 1, slots: make([]intSlot, n)}
	if !empty && wantPresent(16*n, span/8) {
		t.base, t.span, t.present = lo, span, make([]uint64, span/64+1)
	}
	return t
}

// presentMaxBytes: a bitmap this small stays in the processor's nearer
// caches, so it is kept whatever the slots' size.
const presentMaxBytes = 256 << 10

// wantPresent tells whether a hashed layout of slotBytes keeps a bitmap
// of mapBytes: when it is smaller than the slots, or small enough to stay
// cached. A small build side whose keys are sparse over a short range
// (TPC-H Q17's parts of one brand and container, 219 of 200,000 part
// keys at scale factor 1, 2,190 of 2,000,000 at 10) is probed by many
// keys it does not hold; testing one cached bit answers those without
// hashing and walking the slots to an empty one.
func wantPresent(slotBytes, mapBytes uint64) bool {
	return mapBytes <= presentMaxBytes || mapBytes < slotBytes
}

// keyRange returns the narrowest interval [lo, lo+span] (modulo 2^64)
// holding every one of vals whose validity bit in bm (from off) is set,
// every one when hasNulls is false, of the two that the values' unsigned
// and signed orders give; empty tells there are none. A key k lies in it
// exactly when k-lo <= span, whatever the sign of the key type.
func keyRange(vals []uint64, hasNulls bool, bm []byte, off int) (lo, span uint64, empty bool) {
	ulo, uhi := ^uint64(0), uint64(0)
	slo, shi := int64(math.MaxInt64), int64(math.MinInt64)
	empty = true
	for i, v := range vals {
		if hasNulls && !bitutil.BitIsSet(bm, off+i) {
			continue
		}
		ulo, uhi = min(ulo, v), max(uhi, v)
		slo, shi = min(slo, int64(v)), max(shi, int64(v))
		empty = false
	}
	if empty {
		return 0, 0, true
	}
	if us, ss := uhi-ulo, uint64(shi)-uint64(slo); ss < us {
		return uint64(slo), ss, false
	}
	return ulo, uhi - ulo, false
}

func (t *intTable) slot(k uint64) uint64 { return (k * 0x9E3779B97F4A7C15) >> t.shift }

// insert makes row the first row of key k and returns the previous first
// row, -1 if none.
func (t *intTable) insert(k uint64, row int32) int32 {
	if t.direct != nil {
		d := &t.direct[k-t.base]
		h := *d
		*d = row + 1
		return h - 1
	}
	if t.present != nil {
		d := k - t.base
		t.present[d>>6] |= 1 << (d & 63)
	}
	s := t.slot(k)
	for {
		sl := &t.slots[s]
		if sl.head == 0 {
			sl.key, sl.head = k, row+1
			return -1
		}
		if sl.key == k {
			h := sl.head
			sl.head = row + 1
			return h - 1
		}
		s = (s + 1) & t.mask
	}
}

// lookup returns the first row of key k, -1 if none.
func (t *intTable) lookup(k uint64) int32 {
	if t.direct != nil {
		if d := k - t.base; d < uint64(len(t.direct)) {
			return t.direct[d] - 1
		}
		return -1
	}
	return t.lookupHashed(k)
}

func (t *intTable) lookupHashed(k uint64) int32 {
	s := t.slot(k)
	for {
		sl := &t.slots[s]
		if sl.head == 0 {
			return -1
		}
		if sl.key == k {
			return sl.head - 1
		}
		s = (s + 1) & t.mask
	}
}

// lookupAll sets heads[i] to the first row of keys[i], -1 if none.
func (t *intTable) lookupAll(keys []uint64, heads []int32) {
	heads = heads[:len(keys)]
	if p := t.present; p != nil {
		base, span := t.base, t.span
		for i, k := range keys {
			if d := k - base; d > span || p[d>>6]&(1<<(d&63)) == 0 {
				heads[i] = -1
				continue
			}
			heads[i] = t.lookupHashed(k)
		}
		return
	}
	if t.direct == nil {
		for i, k := range keys {
			heads[i] = t.lookupHashed(k)
		}
		return
	}
	dir, base := t.direct, t.base
	n := uint64(len(dir))
	for i, k := range keys {
		h := int32(0)
		if d := k - base; d < n {
			h = dir[d]
		}
		heads[i] = h - 1
	}
}

// intKeys writes the values of an integer-like array (NULL slots hold
// garbage) into dst as 64-bit keys. It reports false for other types. Both
// sides of a join key have the same type, so widening is consistent.
func intKeys(a arrow.Array, dst []uint64) bool {
	switch a := a.(type) {
	case *array.Int8:
		widen(a.Int8Values(), dst)
	case *array.Int16:
		widen(a.Int16Values(), dst)
	case *array.Int32:
		widen(a.Int32Values(), dst)
	case *array.Int64:
		widen(a.Int64Values(), dst)
	case *array.Uint8:
		widen(a.Uint8Values(), dst)
	case *array.Uint16:
		widen(a.Uint16Values(), dst)
	case *array.Uint32:
		widen(a.Uint32Values(), dst)
	case *array.Uint64:
		widen(a.Uint64Values(), dst)
	case *array.Date32:
		widen(a.Date32Values(), dst)
	case *array.Date64:
		widen(a.Date64Values(), dst)
	case *array.Time32:
		widen(a.Time32Values(), dst)
	case *array.Time64:
		widen(a.Time64Values(), dst)
	case *array.Timestamp:
		widen(a.TimestampValues(), dst)
	case *array.Duration:
		widen(a.DurationValues(), dst)
	default:
		return false
	}
	return true
}

// intKeyView is the values of an integer-like array as 64-bit keys, like
// intKeys: the array's own values, not copied, when they are 64 bits wide,
// else widened into scratch (made when shorter than the array). nil for
// other types.
func intKeyView(a arrow.Array, scratch []uint64) []uint64 {
	switch a.DataType().ID() {
	case arrow.INT64, arrow.UINT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		d := a.Data()
		if len(d.Buffers()) > 1 && d.Buffers()[1] != nil {
			return arrow.Uint64Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()]
		}
	}
	if !isIntKeyType(a.DataType()) {
		return nil
	}
	if len(scratch) < a.Len() {
		scratch = make([]uint64, a.Len())
	}
	intKeys(a, scratch)
	return scratch[:a.Len()]
}

func widen[T ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64](v []T, dst []uint64) {
	dst = dst[:len(v)]
	for i, x := range v {
		dst[i] = uint64(x)
	}
}

// isIntKeyType reports whether intKeys takes arrays of type t.
func isIntKeyType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return true
	}
	return false
}

// bytesTable maps byte-string keys (text values, or encoded multi-column
// keys) to the first build row holding them, like intTable. Keys are
// copied into one arena; each slot keeps the key's full hash, so a probe
// compares bytes only when the hashes agree.
type bytesTable struct {
	mask  uint64
	seed  maphash.Seed
	slots []bytesSlot
	arena []byte
}

type bytesSlot struct {
	hash uint64
	off  uint64 // the key is arena[off:off+len]
	len  uint32
	head int32 // row+1; 0 = empty slot
}

func newBytesTable(rows int) *bytesTable {
	n := uint64(1) << max(bits.Len(uint(2*rows)), 4)
	return &bytesTable{mask: n - 1, seed: maphash.MakeSeed(), slots: make([]bytesSlot, n)}
}

// insert makes row the first row of key and returns the previous first
// row, -1 if none.
func (t *bytesTable) insert(key []byte, row int32) int32 {
	h := maphash.Bytes(t.seed, key)
	for s := h & t.mask; ; s = (s + 1) & t.mask {
		sl := &t.slots[s]
		if sl.head == 0 {
			*sl = bytesSlot{hash: h, off: uint64(len(t.arena)), len: uint32(len(key)), head: row + 1}
			t.arena = append(t.arena, key...)
			return -1
		}
		if sl.hash == h && bytes.Equal(t.arena[sl.off:sl.off+uint64(sl.len)], key) {
			prev := sl.head - 1
			sl.head = row + 1
			return prev
		}
	}
}

// lookup returns the first row of key, -1 if none.
func (t *bytesTable) lookup(key []byte) int32 {
	h := maphash.Bytes(t.seed, key)
	for s := h & t.mask; ; s = (s + 1) & t.mask {
		sl := &t.slots[s]
		if sl.head == 0 {
			return -1
		}
		if sl.hash == h && bytes.Equal(t.arena[sl.off:sl.off+uint64(sl.len)], key) {
			return sl.head - 1
		}
	}
}

// textBytes are the value bytes and offsets of a text or bytea array:
// row i is data[offs[i]:offs[i+1]].
func textBytes(a arrow.Array) (data []byte, offs []int32) {
	if b := a.Data().Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	return data, binaryOffsets(a)
}

// keyPack places one integer-like key of a multi-key join in a packed
// 64-bit key: its offset from lo, at most span, shifted left by shift.
type keyPack struct {
	lo, span uint64
	shift    uint
}

// planPacks lays out keys (the build side's, each of rows values, vals
// scratch for them) side by side in fewer than 64 bits, each taking the
// bits of its span. It reports false when they do not fit or some key is
// NULL on every row.
func planPacks(keys []arrow.Array, vals []uint64) ([]keyPack, bool) {
	packs := make([]keyPack, len(keys))
	shift := uint(0)
	for j, k := range keys {
		if !intKeys(k, vals) {
			return nil, false
		}
		lo, span, empty := keyRange(vals, k.NullN() > 0, k.NullBitmapBytes(), k.Data().Offset())
		if empty {
			return nil, false
		}
		packs[j] = keyPack{lo: lo, span: span, shift: shift}
		shift += uint(bits.Len64(span))
		if shift > 63 {
			return nil, false
		}
	}
	return packs, true
}

// packedAbsent is a packed key no build row has: above every packed key.
func packedAbsent(packs []keyPack) uint64 {
	last := packs[len(packs)-1]
	return 1 << (last.shift + uint(bits.Len64(last.span)))
}

// packKeys writes the packed keys of keys (n rows each) into dst, using
// vals as scratch. A row whose value of some key lies outside that key's
// build range gets a key at or above packedAbsent, which no build row
// has; NULL slots pack their garbage values.
func packKeys(packs []keyPack, keys []arrow.Array, dst, vals []uint64) bool {
	absent := packedAbsent(packs)
	for j, k := range keys {
		if !intKeys(k, vals) {
			return false
		}
		pk := packs[j]
		for i, v := range vals[:len(dst)] {
			d := v - pk.lo
			x := d << pk.shift
			if d > pk.span {
				x = absent
			}
			if j == 0 {
				dst[i] = x
			} else {
				dst[i] |= x
			}
		}
	}
	return true
}
