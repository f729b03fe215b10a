package theta

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// DefaultSeed is DataSketches' default update seed, the one Iceberg's
// sketches are built with.
const DefaultSeed = 9001

// DefaultLgK is log2 of the default nominal entries (4096), DataSketches'
// default and Iceberg's.
const DefaultLgK = 12

// maxTheta is theta 1.0: every hash is below it.
const maxTheta = math.MaxInt64

// Sketch is a theta update sketch (DataSketches' QuickSelect family): it
// keeps the hashes of distinct items that are below theta; when it holds
// more than 15/16 of 2k of them (DataSketches' table of 2k slots being
// that full), theta falls to the (k+1)th smallest kept hash and the hashes
// not below it are dropped, so at most about 2k hashes are kept whatever
// the number of items. The table here grows up to 4k slots, kept at most
// half full so that probes stay short; its size does not change which
// hashes are kept.
type Sketch struct {
	lgK   int
	seed  uint64
	theta int64
	table []int64 // open addressing, 0: free slot
	count int     // hashes in table
	limit int     // count that triggers a rebuild
	max   int     // the table's largest size
}

// minSlots is the size of a new sketch's table.
const minSlots = 64

// New returns an empty sketch of 2^lgK nominal entries hashing with seed.
func New(lgK int, seed uint64) *Sketch {
	if lgK < 4 || lgK > 26 {
		panic(fmt.Sprintf("theta: lgK %d out of range 4..26", lgK))
	}
	dsSlots := 1 << (lgK + 1)
	return &Sketch{lgK: lgK, seed: seed, theta: maxTheta, table: make([]int64, min(minSlots, 2*dsSlots)),
		limit: dsSlots * 15 / 16, max: 2 * dsSlots}
}

// NewDefault is New(DefaultLgK, DefaultSeed).
func NewDefault() *Sketch { return New(DefaultLgK, DefaultSeed) }

// Update adds an item given as bytes. As in DataSketches an empty item is
// ignored.
func (s *Sketch) Update(item []byte) {
	if len(item) == 0 {
		return
	}
	h1, _ := Murmur3(item, s.seed)
	s.UpdateHash(int64(h1 >> 1))
}

// UpdateHash adds an item's hash (the first half of its MurmurHash3 shifted
// right once): one below theta and not zero is kept.
func (s *Sketch) UpdateHash(h int64) {
	if h <= 0 || h >= s.theta {
		return
	}
	mask := len(s.table) - 1
	// The slot of a hash is its low bits; collisions probe linearly.
	for i := int(h) & mask; ; i = (i + 1) & mask {
		switch s.table[i] {
		case h:
			return
		case 0:
			s.table[i] = h
			s.count++
			switch {
			case s.count > s.limit:
				s.rebuild()
			case 2*s.count > len(s.table) && len(s.table) < s.max:
				s.grow()
			}
			return
		}
	}
}

// grow doubles the table.
func (s *Sketch) grow() {
	kept := s.hashes()
	s.table = make([]int64, 2*len(s.table))
	s.reinsert(kept)
}

// reinsert puts hashes into the (empty) table.
func (s *Sketch) reinsert(hashes []int64) {
	s.count = 0
	mask := len(s.table) - 1
	for _, h := range hashes {
		i := int(h) & mask
		for s.table[i] != 0 {
			i = (i + 1) & mask
		}
		s.table[i] = h
		s.count++
	}
}

// rebuild lowers theta to the (k+1)th smallest kept hash and keeps the k
// hashes below it.
func (s *Sketch) rebuild() {
	kept := s.hashes()
	k := 1 << s.lgK
	slices.Sort(kept)
	s.theta = kept[k]
	clear(s.table)
	s.reinsert(kept[:k])
}

// hashes lists the kept hashes, unordered.
func (s *Sketch) hashes() []int64 {
	out := make([]int64, 0, s.count)
	for _, h := range s.table {
		if h != 0 {
			out = append(out, h)
		}
	}
	return out
}

// Compact is the sketch's result as a union of it would give: the kept
// hashes in ascending order, at most k of them (when more are kept theta
// falls to the (k+1)th smallest). Iceberg's Spark action merges the sketches
// of its tasks with a union, so its blobs have this form.
func (s *Sketch) Compact() *Compact {
	kept := s.hashes()
	slices.Sort(kept)
	theta := s.theta
	if k := 1 << s.lgK; len(kept) > k {
		theta = kept[k]
		kept = kept[:k]
	}
	return &Compact{SeedHash: SeedHash(s.seed), Theta: theta, Hashes: kept}
}

// Estimate is Compact().Estimate().
func (s *Sketch) Estimate() float64 { return s.Compact().Estimate() }

// Compact is a compact ordered theta sketch: the hashes below Theta in
// ascending order.
type Compact struct {
	SeedHash uint16
	Theta    int64 // as a fraction of math.MaxInt64
	Hashes   []int64
}

// Estimate is the estimated number of distinct items: the number of hashes
// divided by theta as a fraction.
func (c *Compact) Estimate() float64 {
	if c.Theta == maxTheta {
		return float64(len(c.Hashes))
	}
	return float64(len(c.Hashes)) / (float64(c.Theta) / float64(maxTheta))
}

// NDV is the estimate truncated to an integer, as Iceberg writes the "ndv"
// property of a theta blob.
func (c *Compact) NDV() int64 { return int64(c.Estimate()) }

// The serialization (DataSketches serial version 3, little-endian): a
// preamble of 1 to 3 longs, then the hashes.
//
//	byte 0       preamble longs (1: empty or a single item, 2: exact, 3: estimating)
//	byte 1       serial version 3
//	byte 2       family 3 (compact)
//	bytes 3-4    unused in a compact sketch (0)
//	byte 5       flags
//	bytes 6-7    seed hash (0 in the empty sketch)
//	bytes 8-11   number of hashes (preamble longs >= 2)
//	bytes 12-15  sampling probability p as a float, 1.0 (preamble longs >= 2)
//	bytes 16-23  theta (preamble longs 3)
const (
	serVer        = 3
	familyCompact = 3

	flagBigEndian  = 1
	flagReadOnly   = 2
	flagEmpty      = 4
	flagCompact    = 8
	flagOrdered    = 16
	flagSingleItem = 32
)

// Bytes serializes the sketch as DataSketches' compact ordered sketch
// (CompactSketch.toByteArray of datasketches-java).
func (c *Compact) Bytes() []byte {
	n := len(c.Hashes)
	flags := byte(flagReadOnly | flagCompact | flagOrdered)
	switch {
	case n == 0 && c.Theta == maxTheta:
		// The empty sketch has no seed hash.
		return []byte{1, serVer, familyCompact, 0, 0, flags | flagEmpty, 0, 0}
	case n == 1 && c.Theta == maxTheta:
		out := []byte{1, serVer, familyCompact, 0, 0, flags | flagSingleItem}
		out = binary.LittleEndian.AppendUint16(out, c.SeedHash)
		return binary.LittleEndian.AppendUint64(out, uint64(c.Hashes[0]))
	}
	pre := byte(2)
	if c.Theta < maxTheta {
		pre = 3
	}
	out := make([]byte, 0, 8*(int(pre)+n))
	out = append(out, pre, serVer, familyCompact, 0, 0, flags)
	out = binary.LittleEndian.AppendUint16(out, c.SeedHash)
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	out = binary.LittleEndian.AppendUint32(out, math.Float32bits(1.0))
	if pre == 3 {
		out = binary.LittleEndian.AppendUint64(out, uint64(c.Theta))
	}
	for _, h := range c.Hashes {
		out = binary.LittleEndian.AppendUint64(out, uint64(h))
	}
	return out
}

// ErrCorrupt is returned by Parse for bytes that are not a compact theta
// sketch.
var ErrCorrupt = errors.New("not a serialized compact theta sketch")

// Parse reads a compact theta sketch of serial version 3 (ordered or not;
// the hashes are returned in ascending order).
func Parse(b []byte) (*Compact, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if len(b) < 8 {
		return nil, bad("%d bytes", len(b))
	}
	pre, ver, fam, flags := int(b[0]&0x3f), b[1], b[2], b[5]
	if ver != serVer || fam != familyCompact || flags&flagCompact == 0 {
		return nil, bad("serial version %d, family %d, flags %#x", ver, fam, flags)
	}
	if flags&flagBigEndian != 0 {
		return nil, bad("big-endian")
	}
	c := &Compact{SeedHash: binary.LittleEndian.Uint16(b[6:]), Theta: maxTheta}
	if pre < 1 || pre > 3 || len(b) < 8*pre {
		return nil, bad("%d preamble longs in %d bytes", pre, len(b))
	}
	if flags&flagEmpty != 0 {
		return c, nil
	}
	n := 1 // a single item, preamble longs 1
	if pre >= 2 {
		n = int(binary.LittleEndian.Uint32(b[8:]))
	}
	if pre == 3 {
		c.Theta = int64(binary.LittleEndian.Uint64(b[16:]))
	}
	body := b[8*pre:]
	if n < 0 || len(body) < 8*n {
		return nil, bad("%d hashes in %d bytes", n, len(body))
	}
	c.Hashes = make([]int64, n)
	for i := range c.Hashes {
		c.Hashes[i] = int64(binary.LittleEndian.Uint64(body[8*i:]))
	}
	if flags&flagOrdered == 0 {
		slices.Sort(c.Hashes)
	}
	return c, nil
}

// Retained is the number of hashes the update sketch keeps (before the
// trim to k that Compact does).
func (s *Sketch) Retained() int { return s.count }

// Theta is the update sketch's theta as a fraction.
func (s *Sketch) Theta() float64 { return float64(s.theta) / float64(maxTheta) }
