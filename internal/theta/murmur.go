// Package theta is the Apache DataSketches theta sketch as Iceberg's Puffin
// "apache-datasketches-theta-v1" blobs need it: the 64-bit MurmurHash3 that
// DataSketches hashes items with, an update sketch (QuickSelect, k nominal
// entries) that estimates the number of distinct items, and the compact
// ordered serialization (serial version 3) that Iceberg, Spark and Trino
// read. Only what NDV statistics need is here: no set operations other
// than the final trim to k a union performs, no other seeds' families.
package theta

import (
	"encoding/binary"
	"math/bits"
)

// Murmur3 is MurmurHash3_x64_128 of data with a 64-bit seed (the x64
// variant's two lanes both start at the seed): the two 64-bit halves of
// the 128-bit hash, h1 first, as DataSketches returns them.
func Murmur3(data []byte, seed uint64) (h1, h2 uint64) {
	const (
		c1 = 0x87c37b91114253d5
		c2 = 0x4cf5ad432745937f
	)
	h1, h2 = seed, seed
	n := len(data)
	blocks := n / 16
	for i := 0; i < blocks; i++ {
		k1 := binary.LittleEndian.Uint64(data[i*16:])
		k2 := binary.LittleEndian.Uint64(data[i*16+8:])

		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729

		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}

	tail := data[blocks*16:]
	var k1, k2 uint64
	// The tail's bytes 8..15 go into k2 and 0..7 into k1, little-endian.
	for i := len(tail) - 1; i >= 8; i-- {
		k2 ^= uint64(tail[i]) << (8 * uint(i-8))
	}
	if len(tail) > 8 {
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
	}
	for i := min(len(tail), 8) - 1; i >= 0; i-- {
		k1 ^= uint64(tail[i]) << (8 * uint(i))
	}
	if len(tail) > 0 {
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
	}

	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	h1 += h2
	h2 += h1
	return h1, h2
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// SeedHash is the 16-bit hash of a seed that serialized sketches carry so
// that sketches built with different seeds are never combined: the low 16
// bits of the first half of the hash of the seed's 8 little-endian bytes
// with seed 0.
func SeedHash(seed uint64) uint16 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h1, _ := Murmur3(b[:], 0)
	return uint16(h1)
}
