package write

import (
	"encoding/binary"
	"math/bits"
)

// murmur3x86_32 is the 32-bit Murmur3 hash, x86 variant, seeded with 0: the
// hash the spec's bucket transform uses (Appendix B).
func murmur3x86_32(data []byte) uint32 {
	const (
		c1 = 0xcc9e2d51
		c2 = 0x1b873593
	)
	var h uint32
	n := len(data)
	body := n / 4 * 4
	for i := 0; i < body; i += 4 {
		k := binary.LittleEndian.Uint32(data[i:])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	tail := data[body:]
	switch len(tail) {
	case 3:
		k ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(tail[0])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// hashLong hashes an int, long, date, time or timestamp value: the spec
// hashes all of them as an 8-byte little-endian long.
func hashLong(v int64) uint32 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	return murmur3x86_32(b[:])
}

// bucketOf maps a hash to one of n buckets, discarding the sign bit.
func bucketOf(h uint32, n int) int32 {
	return int32((h & 0x7fffffff) % uint32(n))
}
