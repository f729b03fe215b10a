package exec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// groupTable numbers the distinct keys a hash aggregation meets: assign
// gives every row of a batch the id of its key's group (0, 1, 2, ... in
// order of first appearance; NULLs are one group) and lists the rows that
// started a group. Tables are specialised by the shape of the key, so
// that finding a group costs no call per row, no Go map and no
// allocation:
//   - one integer-like column (integers, dates, times, timestamps,
//     floats, decimals of up to 18 digits): intGroups, keyed by 64 bits;
//   - one text or bytea column: bytesGroups over the value bytes, hashed
//     straight from the Arrow buffers;
//   - several integer-like columns: columnGroups, numbering each column
//     on its own and then pairs of ids;
//   - anything else: bytesGroups over an encoding of the key columns
//     (keyWriter's, which makes equal keys equal bytes; one hash per row
//     beats one per column when a column is text).
type groupTable interface {
	// assign sets gids[i] to the group of row i of keys (columns of
	// len(gids) rows) and returns newRows with the rows that started a
	// group appended, in id order.
	assign(keys []arrow.Array, gids []int32, newRows []int32) ([]int32, error)
	// size is the memory the table holds, in bytes.
	size() int64
}

// newGroupTable picks the table for keys of these types (dictionary
// encoding taken off). Batches may bring a key column as an untyped NULL
// array too.
func newGroupTable(types []arrow.DataType) groupTable {
	if len(types) == 1 {
		switch t := plainType(types[0]); {
		case intGroupKeyType(t):
			return newIntGroups()
		case t.ID() == arrow.STRING || t.ID() == arrow.BINARY:
			return &textGroups{t: newBytesGroups()}
		}
	}
	if len(types) > 1 && allIntGroupKeys(types) {
		g := &columnGroups{}
		for _, t := range types {
			g.cols = append(g.cols, newGroupTable([]arrow.DataType{t}))
		}
		for range types[1:] {
			g.pairs = append(g.pairs, newIntGroups())
		}
		return g
	}
	if packableTypes(types) {
		return newPackedGroups(types)
	}
	return &encodedGroups{t: newBytesGroups()}
}

func allIntGroupKeys(types []arrow.DataType) bool {
	for _, t := range types {
		if !intGroupKeyType(plainType(t)) {
			return false
		}
	}
	return true
}

// intGroupKeyType reports whether a single key of type t fits intGroups:
// equal values have equal 64-bit keys and unequal values unequal ones.
func intGroupKeyType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION,
		arrow.FLOAT32, arrow.FLOAT64:
		return true
	case arrow.DECIMAL128:
		// One column has one scale: the unscaled values are the key.
		return t.(*arrow.Decimal128Type).Precision <= 18
	}
	return false
}

// intGroupKeys writes the 64-bit keys of a (intGroupKeyType) into dst;
// NULL slots get garbage. Floats go through floatKey (0 = -0, NaN = NaN).
func intGroupKeys(a arrow.Array, dst []uint64) error {
	switch a := a.(type) {
	case *array.Int8:
		widenKeys(a.Int8Values(), dst)
	case *array.Int16:
		widenKeys(a.Int16Values(), dst)
	case *array.Int32:
		widenKeys(a.Int32Values(), dst)
	case *array.Int64:
		widenKeys(a.Int64Values(), dst)
	case *array.Uint8:
		widenKeys(a.Uint8Values(), dst)
	case *array.Uint16:
		widenKeys(a.Uint16Values(), dst)
	case *array.Uint32:
		widenKeys(a.Uint32Values(), dst)
	case *array.Uint64:
		widenKeys(a.Uint64Values(), dst)
	case *array.Date32:
		widenKeys(a.Date32Values(), dst)
	case *array.Date64:
		widenKeys(a.Date64Values(), dst)
	case *array.Time32:
		widenKeys(a.Time32Values(), dst)
	case *array.Time64:
		widenKeys(a.Time64Values(), dst)
	case *array.Timestamp:
		widenKeys(a.TimestampValues(), dst)
	case *array.Duration:
		widenKeys(a.DurationValues(), dst)
	case *array.Float32:
		for i, x := range a.Float32Values() {
			dst[i] = floatKey(float64(x))
		}
	case *array.Float64:
		for i, x := range a.Float64Values() {
			dst[i] = floatKey(x)
		}
	case *array.Decimal128:
		for i, x := range a.Values() {
			lo := x.LowBits()
			if x.HighBits() != int64(lo)>>63 && a.IsValid(i) {
				return fmt.Errorf("group key %s does not fit its type %s", x.BigInt(), a.DataType())
			}
			dst[i] = lo
		}
	default:
		return fmt.Errorf("group key of type %s in a table of 64-bit keys", a.DataType())
	}
	return nil
}

func widenKeys[T ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64](v []T, dst []uint64) {
	dst = dst[:len(v)]
	for i, x := range v {
		dst[i] = uint64(x)
	}
}

// intGroups numbers 64-bit keys; NULL is a group of its own outside the
// table. It starts as a direct table, an array indexed by key minus a base
// (one load a row, and keys that come in order, as a sorted file's or a
// join's output often do, touch neighbouring memory), which grows to take
// keys outside its range while that range stays within directLimit; past
// it, the table turns into a growing open-addressing table (linear
// probing, at most three quarters full) for good.
type intGroups struct {
	dir     []int32 // direct: the group+1 of key dirBase+i; 0 = none
	dirBase uint64
	hashed  bool // the open-addressing table is in use (dir is nil)

	slots  []intGroupSlot
	shift  uint // a hash's top bits pick its slot
	mask   uint64
	used   int   // keys in the table
	hint   int   // keys expected (reserve), the open-addressing table's first size
	ngroup int32 // groups so far, NULL's included
	nullID int32 // -1 until a NULL key appears
	keys   []uint64
	hashes []uint64
}

// intGroupSlot keeps a key beside its group, so a probe touches one cache
// line.
type intGroupSlot struct {
	key uint64
	id  int32 // group+1; 0 = empty
}

// directLimit is the widest range of keys a direct table covers for used
// keys: 8 entries (32 bytes) a key, about what open addressing takes, or
// its first 1024 entries; so it stays within the memory limit that open
// addressing would.
func directLimit(used int) int64 { return max(8*int64(used), 1024) }

func newIntGroups() *intGroups {
	return &intGroups{nullID: -1}
}

func (t *intGroups) alloc(capBits int) {
	n := uint64(1) << capBits
	t.slots, t.shift, t.mask = make([]intGroupSlot, n), uint(64-capBits), n-1
}

// intHash spreads a key's bits over the top bits of the result.
func intHash(k uint64) uint64 { return (k ^ k>>31) * 0x9E3779B97F4A7C15 }

func (t *intGroups) size() int64 {
	return int64(cap(t.dir))*4 + int64(cap(t.slots))*16 + int64(cap(t.keys)+cap(t.hashes))*8
}

// growDirect widens the direct table to take key k, at least doubling it;
// it reports false when the range would pass directLimit.
func (t *intGroups) growDirect(k uint64) bool {
	n := int64(len(t.dir))
	if n == 0 {
		t.dir, t.dirBase = make([]int32, 1024), k
		return true
	}
	off := int64(k - t.dirBase) // k's distance from the base, either way round
	limit := directLimit(t.used + 1)
	if off >= limit || off <= -limit {
		return false
	}
	lo, hi := min(off, 0), max(off+1, n)
	span := hi - lo
	if span > limit {
		return false
	}
	grow := max(span, min(2*n, limit))
	at := int64(0) // where the old entries go
	if off < 0 {
		at = grow - n // all the room below
	}
	dir := make([]int32, grow)
	copy(dir[at:], t.dir)
	t.dir, t.dirBase = dir, t.dirBase-uint64(at)
	return true
}

// reserve sizes the open-addressing table, when the keys come to need
// one, for n keys. The direct table still starts small: the keys' range
// is not known.
func (t *intGroups) reserve(n int) { t.hint = n }

// toHashed moves the direct table's keys into an open-addressing table.
func (t *intGroups) toHashed() {
	t.alloc(max(bits.Len(uint(t.used))+1, bits.Len(uint(t.hint+t.hint/3)), 4))
	for i, id := range t.dir {
		if id == 0 {
			continue
		}
		k := t.dirBase + uint64(i)
		s := intHash(k) >> t.shift
		for t.slots[s].id != 0 {
			s = (s + 1) & t.mask
		}
		t.slots[s] = intGroupSlot{key: k, id: id}
	}
	t.dir, t.hashed = nil, true
}

// rehash doubles the table.
func (t *intGroups) rehash() {
	old := t.slots
	t.alloc(bits.Len64(t.mask) + 1)
	for _, sl := range old {
		if sl.id == 0 {
			continue
		}
		s := intHash(sl.key) >> t.shift
		for t.slots[s].id != 0 {
			s = (s + 1) & t.mask
		}
		t.slots[s] = sl
	}
}

func (t *intGroups) assign(keys []arrow.Array, gids []int32, newRows []int32) ([]int32, error) {
	a := keys[0]
	n := len(gids)
	if a.DataType().ID() == arrow.NULL {
		for i := range gids {
			gids[i], newRows = t.nullGroup(newRows, i)
		}
		return newRows, nil
	}
	t.keys = growLen(t.keys, n)
	t.hashes = growLen(t.hashes, n)
	ks, hs := t.keys[:n], t.hashes[:n]
	if err := intGroupKeys(a, ks); err != nil {
		return newRows, err
	}
	return t.assignKeys(ks, hs, a.NullN() > 0, a.NullBitmapBytes(), a.Data().Offset(), gids, newRows), nil
}

// assignKeys is assign over keys already in 64 bits (hs is scratch for
// their hashes); with nulls, the rows whose bit in bm (from off) is clear
// are NULL.
func (t *intGroups) assignKeys(ks, hs []uint64, nulls bool, bm []byte, off int, gids []int32, newRows []int32) []int32 {
	if t.hashed {
		for i, k := range ks {
			hs[i] = intHash(k)
		}
	}
	// Rows often come clustered by key (sorted files, join output): a row
	// with the previous row's key takes its group without a probe.
	prevKey, prevID, havePrev := uint64(0), int32(0), false
	for i, k := range ks {
		if nulls && !bitutil.BitIsSet(bm, off+i) {
			gids[i], newRows = t.nullGroup(newRows, i)
			continue
		}
		if havePrev && k == prevKey {
			gids[i] = prevID
			continue
		}
		if !t.hashed {
			d := k - t.dirBase
			if d >= uint64(len(t.dir)) {
				if t.growDirect(k) {
					d = k - t.dirBase
				} else {
					t.toHashed()
					for j, k := range ks[i:] {
						hs[i+j] = intHash(k)
					}
				}
			}
			if !t.hashed {
				id := t.dir[d] - 1
				if id < 0 {
					id = t.ngroup
					t.ngroup++
					t.dir[d] = id + 1
					newRows = append(newRows, int32(i))
					t.used++
				}
				prevID = id
				gids[i], prevKey, havePrev = prevID, k, true
				continue
			}
		}
		s := hs[i] >> t.shift
		for {
			sl := &t.slots[s]
			if sl.id == 0 {
				id := t.ngroup
				t.ngroup++
				sl.key, sl.id = k, id+1
				newRows = append(newRows, int32(i))
				t.used++
				if 4*t.used > 3*len(t.slots) {
					t.rehash()
				}
				prevID = id
				break
			}
			if sl.key == k {
				prevID = sl.id - 1
				break
			}
			s = (s + 1) & t.mask
		}
		gids[i], prevKey, havePrev = prevID, k, true
	}
	return newRows
}

func (t *intGroups) nullGroup(newRows []int32, row int) (int32, []int32) {
	if t.nullID < 0 {
		t.nullID = t.ngroup
		t.ngroup++
		newRows = append(newRows, int32(row))
	}
	return t.nullID, newRows
}

// bytesGroups numbers byte-string keys: an open-addressing table (linear
// probing, at most three quarters full) of hashes and ids over an arena holding
// every group's key once, compared only when the hashes agree.
type bytesGroups struct {
	seed   maphash.Seed
	slots  []bytesGroupSlot
	mask   uint64
	used   int
	arena  []byte
	ends   []int // group g's key is arena[ends[g-1]:ends[g]] (0 for g = 0)
	hashes []uint64
}

type bytesGroupSlot struct {
	hash uint64
	id   int32 // group+1; 0 = empty
}

func newBytesGroups() *bytesGroups {
	t := &bytesGroups{seed: maphash.MakeSeed()}
	t.slots, t.mask = make([]bytesGroupSlot, 16), 15
	return t
}

func (t *bytesGroups) size() int64 {
	return int64(cap(t.slots))*16 + int64(cap(t.arena)) + int64(cap(t.ends)+cap(t.hashes))*8
}

// reserve makes room for n keys: slots to hold them at most three
// quarters full, and their ends.
func (t *bytesGroups) reserve(n int) {
	if c := 1 << bits.Len(uint(n+n/3)); c > len(t.slots) {
		old := t.slots
		t.slots, t.mask = make([]bytesGroupSlot, c), uint64(c-1)
		for _, sl := range old {
			if sl.id == 0 {
				continue
			}
			s := sl.hash & t.mask
			for t.slots[s].id != 0 {
				s = (s + 1) & t.mask
			}
			t.slots[s] = sl
		}
	}
	t.ends = reserveCap(t.ends, n)
}

func (t *bytesGroups) key(id int32) []byte {
	start := 0
	if id > 0 {
		start = t.ends[id-1]
	}
	return t.arena[start:t.ends[id]]
}

func (t *bytesGroups) rehash() {
	old := t.slots
	n := uint64(2 * len(old))
	t.slots, t.mask = make([]bytesGroupSlot, n), n-1
	for _, sl := range old {
		if sl.id == 0 {
			continue
		}
		s := sl.hash & t.mask
		for t.slots[s].id != 0 {
			s = (s + 1) & t.mask
		}
		t.slots[s] = sl
	}
}

// hashRows hashes rows [0, n) of data (row i is data[offs[i]:offs[i+1]]).
func (t *bytesGroups) hashRows(data []byte, offs []int32, n int) []uint64 {
	t.hashes = growLen(t.hashes, n)
	hs := t.hashes[:n]
	for i := range hs {
		hs[i] = maphash.Bytes(t.seed, data[offs[i]:offs[i+1]])
	}
	return hs
}

// find returns the group of key (hash h), adding it if new.
func (t *bytesGroups) find(h uint64, key []byte) (id int32, added bool) {
	for s := h & t.mask; ; s = (s + 1) & t.mask {
		sl := &t.slots[s]
		if sl.id == 0 {
			id = int32(len(t.ends))
			sl.hash, sl.id = h, id+1
			if len(t.arena)+len(key) > cap(t.arena) {
				// Double it: append's growth by a quarter past 256 bytes
				// copies a growing arena over and over.
				t.arena = slices.Grow(t.arena, max(cap(t.arena), len(key), 4096))
			}
			t.arena = append(t.arena, key...)
			t.ends = append(t.ends, len(t.arena))
			t.used++
			if 4*t.used > 3*len(t.slots) {
				t.rehash()
			}
			return id, true
		}
		if sl.hash == h && bytes.Equal(t.key(sl.id-1), key) {
			return sl.id - 1, false
		}
	}
}

// addNull adds a group with no key in the table (the NULL group of a
// single text key): it only takes an id.
func (t *bytesGroups) addNull() int32 {
	t.ends = append(t.ends, len(t.arena))
	return int32(len(t.ends) - 1)
}

// textGroups is the table of a single text or bytea key: the value bytes
// are the key, hashed in place in the Arrow buffers.
type textGroups struct {
	t      *bytesGroups
	nullID int32 // group+1 of NULL, 0 until seen
}

func (g *textGroups) size() int64 { return g.t.size() }

func (g *textGroups) reserve(n int) { g.t.reserve(n) }

func (g *textGroups) assign(keys []arrow.Array, gids []int32, newRows []int32) ([]int32, error) {
	a := keys[0]
	var offs []int32
	switch a := a.(type) {
	case *array.String:
		offs = a.ValueOffsets()
	case *array.Binary:
		offs = a.ValueOffsets()
	case *array.Null:
		for i := range gids {
			gids[i], newRows = g.nullGroup(newRows, i)
		}
		return newRows, nil
	default:
		return newRows, fmt.Errorf("group key of type %s in a table of text keys", a.DataType())
	}
	var data []byte
	if b := a.Data().Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	n := len(gids)
	hs := g.t.hashRows(data, offs, n)
	nulls := a.NullN() > 0
	bm, off := a.NullBitmapBytes(), a.Data().Offset()
	for i, h := range hs {
		if nulls && !bitutil.BitIsSet(bm, off+i) {
			gids[i], newRows = g.nullGroup(newRows, i)
			continue
		}
		id, added := g.t.find(h, data[offs[i]:offs[i+1]])
		if added {
			newRows = append(newRows, int32(i))
		}
		gids[i] = id
	}
	return newRows, nil
}

func (g *textGroups) nullGroup(newRows []int32, row int) (int32, []int32) {
	if g.nullID == 0 {
		g.nullID = g.t.addNull() + 1
		newRows = append(newRows, int32(row))
	}
	return g.nullID - 1, newRows
}

// columnGroups numbers keys of several columns a column at a time: each
// column's values are numbered by a table of their own, then the group of
// the columns so far and the next column's id are paired into a 64-bit
// key of an intGroups, whose ids are the groups of one more column.
type columnGroups struct {
	cols  []groupTable
	pairs []*intGroups // pairs[j-1] numbers (group of columns < j, id in column j)
	ids   []int32      // the group of the columns so far
	col   []int32      // the ids of the next column
	keys  []uint64
	hs    []uint64
	spare []int32 // new rows of the inner tables, unused
}

func (g *columnGroups) size() int64 {
	n := int64(cap(g.ids)+cap(g.col))*4 + int64(cap(g.keys)+cap(g.hs))*8
	for _, c := range g.cols {
		n += c.size()
	}
	for _, p := range g.pairs {
		n += p.size()
	}
	return n
}

// reserve sizes the last pair table, whose ids are the groups; the
// columns' own tables hold fewer values.
func (g *columnGroups) reserve(n int) { g.pairs[len(g.pairs)-1].reserve(n) }

func (g *columnGroups) assign(keys []arrow.Array, gids []int32, newRows []int32) ([]int32, error) {
	n := len(gids)
	g.ids, g.col = growLen(g.ids, n), growLen(g.col, n)
	g.keys, g.hs = growLen(g.keys, n), growLen(g.hs, n)
	ids, col, ks, hs := g.ids[:n], g.col[:n], g.keys[:n], g.hs[:n]
	var err error
	if g.spare, err = g.cols[0].assign(keys[:1], ids, g.spare[:0]); err != nil {
		return newRows, err
	}
	for j := 1; j < len(keys); j++ {
		if g.spare, err = g.cols[j].assign(keys[j:j+1], col, g.spare[:0]); err != nil {
			return newRows, err
		}
		for i := range ks {
			ks[i] = uint64(uint32(ids[i]))<<32 | uint64(uint32(col[i]))
		}
		if j == len(keys)-1 {
			return g.pairs[j-1].assignKeys(ks, hs, false, nil, 0, gids, newRows), nil
		}
		g.spare = g.pairs[j-1].assignKeys(ks, hs, false, nil, 0, ids, g.spare[:0])
	}
	return newRows, fmt.Errorf("a table of several key columns given %d", len(keys))
}

// encodedGroups is the table of any other key: each row's key columns
// are encoded by keyWriter into one buffer, whose rows are the keys.
type encodedGroups struct {
	t   *bytesGroups
	enc rowEncoding
	ws  []keyWriter
}

func (g *encodedGroups) size() int64 { return g.t.size() + g.enc.size() }

func (g *encodedGroups) reserve(n int) { g.t.reserve(n) }

func (g *encodedGroups) assign(keys []arrow.Array, gids []int32, newRows []int32) ([]int32, error) {
	g.ws = g.ws[:0]
	for _, k := range keys {
		w, err := newKeyWriter(k)
		if err != nil {
			return newRows, err
		}
		g.ws = append(g.ws, w)
	}
	n := len(gids)
	g.enc.encode(g.ws, n, nil)
	hs := g.t.hashRows(g.enc.buf, g.enc.offs, n)
	for i, h := range hs {
		id, added := g.t.find(h, g.enc.row(i))
		if added {
			newRows = append(newRows, int32(i))
		}
		gids[i] = id
	}
	return newRows, nil
}

// rowEncoding is the keyWriter encoding of many rows in one buffer: row i
// is buf[offs[i]:offs[i+1]].
type rowEncoding struct {
	buf  []byte
	offs []int32
}

func (e *rowEncoding) row(i int) []byte { return e.buf[e.offs[i]:e.offs[i+1]] }

func (e *rowEncoding) size() int64 { return int64(cap(e.buf)) + int64(cap(e.offs))*4 }

// encode encodes rows [0, n) with ws; with prefix, row i starts with
// prefix[i] as 4 bytes (DISTINCT's group), and rows whose prefix is < 0
// are left empty.
func (e *rowEncoding) encode(ws []keyWriter, n int, prefix []int32) {
	e.offs = growLen(e.offs, n+1)
	offs := e.offs[:n+1]
	buf := e.buf[:0]
	offs[0] = 0
	for i := range n {
		if prefix != nil {
			if prefix[i] < 0 {
				offs[i+1] = int32(len(buf))
				continue
			}
			buf = binary.LittleEndian.AppendUint32(buf, uint32(prefix[i]))
		}
		for _, w := range ws {
			buf = w(buf, i)
		}
		offs[i+1] = int32(len(buf))
	}
	e.buf = buf
}

// distinctSet remembers the (group, value) pairs an aggregate with
// DISTINCT has seen. A pair of an integer value that fits 32 bits
// (count(DISTINCT ps_suppkey)) is one 64-bit key of ints; any other pair
// is encoded into the bytes of t. Which of the two holds a pair depends
// on the value alone, so a pair is always looked up where it was kept.
type distinctSet struct {
	t   *bytesGroups
	enc rowEncoding

	ints      *intGroups
	vals, ks  []uint64
	hs        []uint64
	idx, ids  []int32
	newRows   []int32
	restRows  []int32
	intValues bool // the values are integers: ints takes those that fit
}

func newDistinctSet() *distinctSet { return &distinctSet{t: newBytesGroups()} }

func (d *distinctSet) size() int64 {
	n := d.t.size() + d.enc.size() + int64(cap(d.vals)+cap(d.ks)+cap(d.hs))*8 +
		int64(cap(d.idx)+cap(d.ids)+cap(d.newRows)+cap(d.restRows))*4
	if d.ints != nil {
		n += d.ints.size()
	}
	return n
}

// smallIntValue reports whether values of type t are integers whose
// 64-bit group keys are the values (intGroupKeys).
func smallIntValue(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32:
		return true
	}
	return false
}

// filter sets rows[i] to -1 where row i's (group rows[i], value of arg)
// was seen before (in an earlier batch or an earlier row). NULL is one
// value too.
func (d *distinctSet) filter(arg arrow.Array, rows []int32) error {
	if !smallIntValue(arg.DataType()) {
		return d.filterEncoded(arg, rows)
	}
	n := len(rows)
	d.vals = growLen(d.vals, n)
	vals := d.vals[:n]
	if err := intGroupKeys(arg, vals); err != nil {
		return err
	}
	nulls := arg.NullN() > 0
	ks, idx := d.ks[:0], d.idx[:0]
	rest := false
	for i, g := range rows {
		if g < 0 {
			continue
		}
		v := int64(vals[i])
		if v != int64(int32(v)) || nulls && arg.IsNull(i) {
			rest = true
			continue
		}
		ks = append(ks, uint64(uint32(g))<<32|uint64(uint32(v)))
		idx = append(idx, int32(i))
	}
	d.ks, d.idx = ks, idx
	if d.ints == nil {
		d.ints = newIntGroups()
	}
	m := len(ks)
	d.hs, d.ids = growLen(d.hs, m), growLen(d.ids, m)
	d.newRows = d.ints.assignKeys(ks, d.hs[:m], false, nil, 0, d.ids[:m], d.newRows[:0])
	if rest {
		// The other pairs: rows of ints are left out of the encoded ones.
		d.restRows = append(d.restRows[:0], rows...)
		for _, i := range idx {
			d.restRows[i] = -1
		}
		if err := d.filterEncoded(arg, d.restRows); err != nil {
			return err
		}
	}
	next := 0 // the next of newRows
	for j, i := range idx {
		if next < len(d.newRows) && int(d.newRows[next]) == j {
			next++
			continue
		}
		rows[i] = -1
	}
	if rest {
		k := 0 // the next of idx, ascending
		for i, r := range d.restRows {
			if k < len(idx) && int(idx[k]) == i {
				k++
				continue
			}
			if r < 0 {
				rows[i] = -1
			}
		}
	}
	return nil
}

// filterEncoded is filter over the encoded pairs.
func (d *distinctSet) filterEncoded(arg arrow.Array, rows []int32) error {
	w, err := newKeyWriter(arg)
	if err != nil {
		return err
	}
	n := len(rows)
	d.enc.encode([]keyWriter{w}, n, rows)
	hs := d.t.hashRows(d.enc.buf, d.enc.offs, n)
	for i, h := range hs {
		if rows[i] < 0 {
			continue
		}
		if _, added := d.t.find(h, d.enc.row(i)); !added {
			rows[i] = -1
		}
	}
	return nil
}

// growLen returns s with length at least n, reusing its memory.
func growLen[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, max(n, 2*cap(s)))
}
