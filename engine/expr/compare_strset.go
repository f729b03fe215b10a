package expr

import "encoding/binary"

// strSet matches text values against a short list of constants without
// a call or a data-dependent branch per row for values of up to 8 bytes:
// a row's first 8 bytes are read as one word, masked to its length, and
// compared with each constant's word and length. Constants longer than 8
// bytes compare their first word and length the same way and their rest
// only when both agree.
type strSet struct {
	short []wordStr // constants of at most 8 bytes
	long  []wordStr // longer ones
}

type wordStr struct {
	n    int32
	w    uint64 // the first (up to) 8 bytes, little endian, zero padded
	rest string // what follows the first 8 bytes
}

func newStrSet(items []string) strSet {
	var s strSet
	for _, it := range items {
		ws := wordStr{n: int32(len(it)), w: loadWord([]byte(it))}
		if len(it) <= 8 {
			s.short = append(s.short, ws)
		} else {
			ws.rest = it[8:]
			s.long = append(s.long, ws)
		}
	}
	return s
}

// loadWord is the first (up to) 8 bytes of b, zero padded.
func loadWord(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.LittleEndian.Uint64(b)
	}
	var pad [8]byte
	copy(pad[:], b)
	return binary.LittleEndian.Uint64(pad[:])
}

// match sets bit i-base of the result for rows base..end-1 of offs/data
// whose value is in the set.
func (s strSet) match(offs []int32, data []byte, base, end int) uint64 {
	var bits uint64
	for i := base; i < end; i++ {
		st, e := offs[i], offs[i+1]
		l := e - st
		var x uint64
		if int(st)+8 <= len(data) {
			x = binary.LittleEndian.Uint64(data[st:])
		} else {
			x = loadWord(data[st:e])
		}
		// Bytes past the value's end are masked off (a shift of 64 or
		// more leaves every bit).
		x &= 1<<(uint64(l)*8) - 1
		var hit uint64
		for _, c := range s.short {
			hit |= b2u(l == c.n) & b2u(x == c.w)
		}
		for _, c := range s.long {
			if l == c.n && x == c.w && string(data[st+8:e]) == c.rest {
				hit = 1
			}
		}
		bits |= hit << (i - base)
	}
	return bits
}
