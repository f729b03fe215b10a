package catalog

import (
	"encoding/binary"
	"math/big"
	"math/bits"
)

// bucketHash is the spec's bucket hash (Appendix B) of one value of type t:
// 32-bit Murmur3 (x86, seed 0) of the value's hash bytes. ok is false for a
// value or type the transform does not hash.
func bucketHash(t *PrimitiveType, v any) (uint32, bool) {
	switch t.ID {
	case TInt, TLong, TDate, TTime, TTimestamp, TTimestamptz:
		n, ok := asInt64(v)
		return hashInt64(n), ok
	case TTimestampNs, TTimestamptzNs:
		n, ok := asInt64(v)
		return hashInt64(floorDiv(n, 1000)), ok // hashed as microseconds
	case TDecimal:
		d, ok := v.(Decimal)
		if !ok || d.Unscaled == nil {
			return 0, false
		}
		return murmur3Sum32(minimalTwosComplement(d.Unscaled)), true
	case TString, TBinary, TFixed:
		b, ok := bytesOf(v)
		return murmur3Sum32(b), ok
	case TUUID:
		u, ok := v.([16]byte)
		return murmur3Sum32(u[:]), ok
	}
	return 0, false
}

// bucketOfValue is bucket[n] of v.
func bucketOfValue(t *PrimitiveType, v any, n int) (int32, bool) {
	h, ok := bucketHash(t, v)
	if !ok || n <= 0 {
		return 0, false
	}
	return int32((h & 0x7fffffff) % uint32(n)), true
}

func hashInt64(v int64) uint32 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	return murmur3Sum32(b[:])
}

// minimalTwosComplement is the shortest big-endian two's-complement form of
// n, the bytes a decimal hashes as.
func minimalTwosComplement(n *big.Int) []byte {
	if n.Sign() >= 0 {
		b := n.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return b
	}
	// -n-1 has the complement bits of n's two's complement.
	m := new(big.Int).Neg(n)
	m.Sub(m, big.NewInt(1))
	b := m.Bytes()
	if len(b) == 0 || b[0]&0x80 != 0 {
		b = append([]byte{0}, b...)
	}
	for i := range b {
		b[i] = ^b[i]
	}
	return b
}

// murmur3Sum32 is Murmur3's 32-bit x86 hash with seed 0.
func murmur3Sum32(data []byte) uint32 {
	const m1, m2 = 0xcc9e2d51, 0x1b873593
	mix := func(k uint32) uint32 {
		k *= m1
		k = bits.RotateLeft32(k, 15)
		return k * m2
	}
	var h uint32
	rest := data
	for len(rest) >= 4 {
		h ^= mix(binary.LittleEndian.Uint32(rest))
		h = bits.RotateLeft32(h, 13)*5 + 0xe6546b64
		rest = rest[4:]
	}
	if len(rest) > 0 {
		var k uint32
		for i := len(rest) - 1; i >= 0; i-- {
			k = k<<8 | uint32(rest[i])
		}
		h ^= mix(k)
	}
	h ^= uint32(len(data))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
