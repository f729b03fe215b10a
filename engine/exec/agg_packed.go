package exec

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// packedGroups is the table of several key columns of short texts and
// integer-like values (l_returnflag, l_linestatus): each row's key is
// packed into one 64-bit integer and numbered by an intGroups, with no
// hashing of bytes or encoding of rows. The layout - bits of each column
// - is fixed by the first batch, with room to spare spread over the
// columns; a key that does not fit it (a longer text, an integer out of
// range) goes to an encodedGroups instead. Whether a key fits depends on
// the key alone, so every key lives in exactly one of the two tables,
// and the two tables' ids map onto the groups.
type packedGroups struct {
	fields []packField
	laid   bool // the first batch fixed the fields
	off    bool // the first batch's keys need more than 64 bits: rest only

	ints    *intGroups
	rest    *encodedGroups
	intIDs  []int32 // group of each of ints' ids
	restIDs []int32 // group of each of rest's ids
	ngroup  int32

	// Per-batch scratch.
	ks, hs []uint64
	miss   []bool
	sub    []uint64 // the packed keys of the rows that fit, when some do not
	local  []int32
	spare  []int32
	vals   []uint64
	buf    []byte
	ws     []keyWriter

	// byteIDs numbers the keys of two texts of one byte each (q01's
	// l_returnflag, l_linestatus) by those two bytes: the first byte's
	// code (byteCode: the order in which first bytes came, +1; 0 = not
	// yet) picks a row of 256 entries, the second byte the entry, which
	// holds the group+1 of that key, 0 until it is met. A batch whose two
	// key columns hold only such values (no NULL) takes two loads a row
	// (assignBytes); a key met for the first time there is packed and
	// numbered by ints as in any other batch, so both ways agree. The
	// table grows by a row of 1 KiB a first byte (three for q01).
	byteIDs  []int32
	byteCode [256]uint16
	nbyte    int
}

// packField is one key column's place in the packed key: text values of
// at most width bytes, as their length+1 (0 = NULL) in lenBits bits then
// the bytes; integers as key-base+1 (0 = NULL) in width bits.
type packField struct {
	text    bool
	shift   uint
	width   int // bytes of a text, bits of an integer
	lenBits uint
	base    uint64
}

// packableTypes reports whether keys of these types may be packed: more
// than one column, text or 64-bit keys, at least one of them text (keys
// of integers alone take columnGroups).
func packableTypes(types []arrow.DataType) bool {
	if len(types) < 2 {
		return false
	}
	text := false
	for _, t := range types {
		switch t := plainType(t); {
		case t.ID() == arrow.STRING || t.ID() == arrow.BINARY:
			text = true
		case intGroupKeyType(t):
		default:
			return false
		}
	}
	return text
}

// newPackedGroups returns the table of keys of these (packableTypes)
// types.
func newPackedGroups(types []arrow.DataType) *packedGroups {
	g := &packedGroups{ints: newIntGroups(), rest: &encodedGroups{t: newBytesGroups()}}
	g.fields = make([]packField, len(types))
	for j, t := range types {
		id := plainType(t).ID()
		g.fields[j].text = id == arrow.STRING || id == arrow.BINARY
	}
	return g
}

func (g *packedGroups) size() int64 {
	return g.ints.size() + g.rest.size() + int64(cap(g.intIDs)+cap(g.restIDs)+cap(g.local)+cap(g.spare)+cap(g.byteIDs))*4 + 512 +
		int64(cap(g.ks)+cap(g.hs)+cap(g.sub)+cap(g.vals))*8 + int64(cap(g.miss)+cap(g.buf))
}

// reserve sizes the table of packed keys, where most keys go.
func (g *packedGroups) reserve(n int) {
	g.ints.reserve(n)
	g.intIDs = reserveCap(g.intIDs, n)
}

// textOffsets returns the offsets and bytes of a text or bytea column.
func textOffsets(a arrow.Array) ([]int32, []byte, bool) {
	var offs []int32
	switch a := a.(type) {
	case *array.String:
		offs = a.ValueOffsets()
	case *array.Binary:
		offs = a.ValueOffsets()
	default:
		return nil, nil, false
	}
	var data []byte
	if b := a.Data().Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	return offs, data, true
}

// layout fixes the fields from the first batch: the longest text and the
// range of integers seen, then the bits left widen the texts (up to 7
// bytes) and the integers' ranges, around what was seen.
func (g *packedGroups) layout(keys []arrow.Array) error {
	n := keys[0].Len()
	spans := make([]uint64, len(keys))
	for j, a := range keys {
		f := &g.fields[j]
		if f.text {
			f.width = 1
			if offs, _, ok := textOffsets(a); ok {
				for i := range n {
					if l := int(offs[i+1] - offs[i]); l > f.width && a.IsValid(i) {
						f.width = l
					}
				}
			}
			continue
		}
		if _, ok := a.(*array.Null); ok {
			continue
		}
		g.ks = growLen(g.ks, n)
		if err := intGroupKeys(a, g.ks[:n]); err != nil {
			return err
		}
		lo, hi, seen := int64(0), int64(0), false
		for i, k := range g.ks[:n] {
			if a.IsNull(i) {
				continue
			}
			if !seen {
				lo, hi, seen = int64(k), int64(k), true
			}
			lo, hi = min(lo, int64(k)), max(hi, int64(k))
		}
		f.base, spans[j] = uint64(lo), uint64(hi)-uint64(lo)
	}
	used := uint(0)
	for j := range g.fields {
		f := &g.fields[j]
		if f.text {
			f.lenBits = uint(bits.Len(uint(f.width + 1)))
			used += uint(8*f.width) + f.lenBits
			continue
		}
		if spans[j] >= 1<<62 {
			g.off = true
			return nil
		}
		f.width = bits.Len64(spans[j] + 2) // NULL, and one more for the values
		used += uint(f.width)
	}
	if used > 64 {
		g.off = true
		return nil
	}
	for grew := true; grew; {
		grew = false
		for j := range g.fields {
			f := &g.fields[j]
			if !f.text || f.width >= 7 {
				continue
			}
			lb := uint(bits.Len(uint(f.width + 2)))
			if more := 8 + lb - f.lenBits; used+more <= 64 {
				f.width++
				used += more
				f.lenBits = lb
				grew = true
			}
		}
	}
	var nint uint
	for _, f := range g.fields {
		if !f.text {
			nint++
		}
	}
	for j := range g.fields {
		f := &g.fields[j]
		if f.text || nint == 0 {
			continue
		}
		extra := min((64-used)/nint, uint(max(62-f.width, 0)))
		if extra > 0 {
			// Center what was seen in the wider range.
			f.base -= (uint64(1)<<(uint(f.width)+extra) - uint64(1)<<uint(f.width)) / 2
			f.width += int(extra)
			used += extra
		}
	}
	shift := uint(0)
	for j := range g.fields {
		f := &g.fields[j]
		f.shift = shift
		if f.text {
			shift += uint(8*f.width) + f.lenBits
		} else {
			shift += uint(f.width)
		}
	}
	return nil
}

func (g *packedGroups) assign(keys []arrow.Array, gids []int32, newRows []int32) ([]int32, error) {
	if !g.laid {
		if err := g.layout(keys); err != nil {
			return newRows, err
		}
		g.laid = true
	}
	if g.off {
		// ids of rest are the groups.
		return g.rest.assign(keys, gids, newRows)
	}
	if len(keys) == 2 && g.fields[0].text && g.fields[1].text {
		if d0, ok := oneByteTexts(keys[0]); ok {
			if d1, ok := oneByteTexts(keys[1]); ok {
				return g.assignBytes(d0, d1, gids, newRows), nil
			}
		}
	}
	n := len(gids)
	g.ks, g.hs, g.miss = growLen(g.ks, n), growLen(g.hs, n), growLen(g.miss, n)
	ks, miss := g.ks[:n], g.miss[:n]
	clear(ks)
	clear(miss)
	anyMiss := false
	for j, a := range keys {
		m, err := g.pack(j, a, ks, miss)
		if err != nil {
			return newRows, err
		}
		anyMiss = anyMiss || m
	}
	if !anyMiss {
		if len(g.restIDs) == 0 {
			// Only ints has groups: its ids are the groups.
			first := len(newRows)
			newRows = g.ints.assignKeys(ks, g.hs[:n], false, nil, 0, gids, newRows)
			for range newRows[first:] {
				g.intIDs = append(g.intIDs, g.ngroup)
				g.ngroup++
			}
			return newRows, nil
		}
		g.local = growLen(g.local, n)
		local := g.local[:n]
		g.spare = g.ints.assignKeys(ks, g.hs[:n], false, nil, 0, local, g.spare[:0])
		for i, id := range local {
			if int(id) == len(g.intIDs) {
				g.intIDs = append(g.intIDs, g.ngroup)
				g.ngroup++
				newRows = append(newRows, int32(i))
			}
			gids[i] = g.intIDs[id]
		}
		return newRows, nil
	}
	// Some keys do not fit: those that do are numbered by ints first,
	// then every row in order takes its group.
	g.sub = g.sub[:0]
	for i, k := range ks {
		if !miss[i] {
			g.sub = append(g.sub, k)
		}
	}
	m := len(g.sub)
	g.local = growLen(g.local, m)
	local := g.local[:m]
	g.spare = g.ints.assignKeys(g.sub, g.hs[:m], false, nil, 0, local, g.spare[:0])
	g.ws = g.ws[:0]
	for _, k := range keys {
		w, err := newKeyWriter(k)
		if err != nil {
			return newRows, err
		}
		g.ws = append(g.ws, w)
	}
	next := 0 // the next row of local
	for i := range n {
		if !miss[i] {
			id := local[next]
			next++
			if int(id) == len(g.intIDs) {
				g.intIDs = append(g.intIDs, g.ngroup)
				g.ngroup++
				newRows = append(newRows, int32(i))
			}
			gids[i] = g.intIDs[id]
			continue
		}
		buf := g.buf[:0]
		for _, w := range g.ws {
			buf = w(buf, i)
		}
		g.buf = buf
		id, added := g.rest.t.find(maphash.Bytes(g.rest.t.seed, buf), buf)
		if added {
			g.restIDs = append(g.restIDs, g.ngroup)
			g.ngroup++
			newRows = append(newRows, int32(i))
		}
		gids[i] = g.restIDs[id]
	}
	return newRows, nil
}

// oneByteTexts returns the bytes of a text or bytea column whose every
// value is one byte long (none NULL): value i is the i-th byte.
func oneByteTexts(a arrow.Array) ([]byte, bool) {
	if a.NullN() > 0 {
		return nil, false
	}
	offs, data, ok := textOffsets(a)
	n := a.Len()
	if !ok || n == 0 {
		return nil, false
	}
	offs = offs[:n+1]
	if int(offs[n]) > len(data) || offs[n]-offs[0] != int32(n) {
		return nil, false
	}
	var bad int32
	for i := range n {
		bad |= (offs[i+1] - offs[i]) ^ 1
	}
	if bad != 0 {
		return nil, false
	}
	return data[offs[0]:offs[n]], true
}

// assignBytes numbers the rows of two one-byte text keys, d0[i] and
// d1[i], through byteIDs.
func (g *packedGroups) assignBytes(d0, d1 []byte, gids, newRows []int32) []int32 {
	tab := g.byteIDs
	d1 = d1[:len(d0)]
	gids = gids[:len(d0)]
	for i, b0 := range d0 {
		c := int(g.byteCode[b0])
		if c == 0 {
			g.nbyte++
			c = g.nbyte
			g.byteCode[b0] = uint16(c)
			g.byteIDs = append(g.byteIDs, make([]int32, 256)...)
			tab = g.byteIDs
		}
		x := (c-1)<<8 | int(d1[i])
		id := tab[x] - 1
		if id < 0 {
			id, newRows = g.packedGroup([2]byte{b0, d1[i]}, int32(i), newRows)
			tab[x] = id + 1
		}
		gids[i] = id
	}
	return newRows
}

// packedGroup returns the group of the key of two one-byte texts v,
// packed by the layout and numbered by ints (row is its row, added to
// newRows when the group is new).
func (g *packedGroups) packedGroup(v [2]byte, row int32, newRows []int32) (int32, []int32) {
	var ks, hs [1]uint64
	var local [1]int32
	for j, f := range g.fields[:2] {
		ks[0] |= (uint64(v[j])<<f.lenBits | 2) << f.shift // length 1, stored as 2
	}
	g.spare = g.ints.assignKeys(ks[:], hs[:], false, nil, 0, local[:], g.spare[:0])
	id := local[0]
	if int(id) == len(g.intIDs) {
		g.intIDs = append(g.intIDs, g.ngroup)
		g.ngroup++
		newRows = append(newRows, row)
	}
	return g.intIDs[id], newRows
}

// pack ors the field of each row of a into ks and sets miss where the
// value does not fit; it reports whether any did not.
func (g *packedGroups) pack(j int, a arrow.Array, ks []uint64, miss []bool) (bool, error) {
	f := &g.fields[j]
	if _, ok := a.(*array.Null); ok {
		return false, nil // NULL is 0
	}
	n := len(ks)
	nulls := a.NullN() > 0
	bm, boff := a.NullBitmapBytes(), a.Data().Offset()
	anyMiss := false
	if f.text {
		offs, data, ok := textOffsets(a)
		if !ok {
			return false, fmt.Errorf("group key of type %s in a table of packed keys", a.DataType())
		}
		w, lb, sh := uint32(f.width), f.lenBits, f.shift
		offs = offs[:n+1]
		for i := range ks {
			if nulls && !bitutil.BitIsSet(bm, boff+i) {
				continue
			}
			o, e := offs[i], offs[i+1]
			l := uint32(e - o)
			if l > w {
				miss[i], anyMiss = true, true
				continue
			}
			var v uint64
			if int(o)+8 <= len(data) {
				v = binary.LittleEndian.Uint64(data[o:]) & (uint64(1)<<(8*l) - 1)
			} else {
				for j := int(e) - 1; j >= int(o); j-- {
					v = v<<8 | uint64(data[j])
				}
			}
			ks[i] |= (v<<lb | uint64(l+1)) << sh
		}
		return anyMiss, nil
	}
	g.vals = growLen(g.vals, n)
	vals := g.vals[:n]
	if err := intGroupKeys(a, vals); err != nil {
		return false, err
	}
	limit := uint64(1)<<uint(f.width) - 1
	for i, k := range vals {
		d := k - f.base
		if d >= limit {
			if !nulls || bitutil.BitIsSet(bm, boff+i) {
				miss[i], anyMiss = true, true
			}
			continue
		}
		if nulls && !bitutil.BitIsSet(bm, boff+i) {
			continue
		}
		ks[i] |= (d + 1) << f.shift
	}
	return anyMiss, nil
}
