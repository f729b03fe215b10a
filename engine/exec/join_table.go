package exec

import (
	"bytes"
	"hash/maphash"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// intTable maps a 64-bit key to the first build row holding it, by open
// addressing with linear probing. It is sized once for the build side (at
// most half full), so it never grows. The other rows of a key hang off
// the first one in joinBuild.next.
type intTable struct {
	shift uint
	mask  uint64
	slots []intSlot
}

// intSlot keeps a key beside its first row, so a probe touches one cache
// line.
type intSlot struct {
	key  uint64
	head int32 // row+1; 0 = empty slot
}

func newIntTable(rows int) *intTable {
	capBits := max(bits.Len(uint(2*rows)), 4)
	n := uint64(1) << capBits
	return &intTable{shift: uint(64 - capBits), mask: n - 1, slots: make([]intSlot, n)}
}

func (t *intTable) slot(k uint64) uint64 { return (k * 0x9E3779B97F4A7C15) >> t.shift }

// insert makes row the first row of key k and returns the previous first
// row, -1 if none.
func (t *intTable) insert(k uint64, row int32) int32 {
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
